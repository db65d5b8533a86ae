#pragma once
// Tethers (long-range attachments; Kim, Chentanez and Mueller 2012;
// docs/physics.md §1, "Tethers"): for each free vertex of a cloth, its
// nearest pinned vertex and the rest distance to it, Euclidean or geodesic
// (along the mesh's edges, by Dijkstra's algorithm in double). Built once on
// the CPU; each solver turns the result into its own constraints.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "scene/tether_params.h"

namespace vksim {

struct TetherAnchor {
    uint32_t vertex;      // the free vertex
    uint32_t anchor;      // its nearest pinned vertex (the lowest index of those as near)
    double restDistance;  // [m] from vertex to anchor in the rest shape
};

// One tether per free vertex that a pinned vertex reaches (geodesic: by the
// triangles' edges; a vertex of a piece with no pin gets none), in vertex
// order. `triangles` holds 3 vertex indices per triangle. Euclidean compares
// every free vertex with every pin (vertices x pins distances: a 256 x 256
// cloth pinned along an edge, 1.7e7); geodesic is O(E log V).
std::vector<TetherAnchor> findTetherAnchors(std::span<const glm::dvec3> positions,
                                            std::span<const uint32_t> triangles, const std::vector<bool>& pinned,
                                            TetherMode mode);

// The geodesic distance from the nearest of `sources` to every vertex along
// the triangles' edges (infinity where none reaches), and which source that
// is (kNoSource where none): multi-source Dijkstra, in double.
inline constexpr uint32_t kNoSource = 0xFFFFFFFFu;
struct GeodesicField {
    std::vector<double> distance;
    std::vector<uint32_t> source;
};
GeodesicField geodesicDistances(std::span<const glm::dvec3> positions, std::span<const uint32_t> triangles,
                                const std::vector<bool>& sources);

}  // namespace vksim
