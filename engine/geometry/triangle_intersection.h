#pragma once
// Whether triangles intersect, in double precision: the check that surfaces
// do not pass through each other (tests of the contacts between objects,
// docs/physics.md §14). Touching counts as intersecting.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

using Triangle = std::array<glm::dvec3, 3>;

// Möller's interval test (T. Möller, "A Fast Triangle-Triangle Intersection
// Test", 1997): each triangle against the other's plane, then the two
// intervals on the planes' common line; coplanar triangles by their edges
// and containment in the plane. Degenerate triangles (zero area) are
// tested as coplanar with whatever they lie in, never reported by accident:
// a triangle with a zero normal intersects nothing.
bool trianglesIntersect(const Triangle& a, const Triangle& b);

struct SurfaceIntersections {
    uint64_t intersecting = 0;      // pairs of triangles sharing no vertex that intersect
    uint64_t tested = 0;            // pairs whose bounding boxes overlap (the exact test ran)
    std::vector<glm::uvec2> first;  // the first intersecting pairs found (indices into the triangles), up to 16
};

// A triangle's group when pairs of its group are tested too.
inline constexpr uint32_t kEveryPair = 0xFFFFFFFFu;

// Every pair of the triangles (three vertex indices into `positions` each)
// that shares no vertex, by a sweep along x over their bounding boxes, save
// pairs of one group: `groups` holds a group per triangle (an object that
// may pass through itself, say), or kEveryPair; empty, every pair is tested.
SurfaceIntersections countSurfaceIntersections(std::span<const glm::dvec3> positions,
                                               std::span<const glm::uvec3> triangles,
                                               std::span<const uint32_t> groups = {});

}  // namespace vksim
