#pragma once
// Baking a closed triangle mesh into a signed distance grid (mesh colliders):
//
// - Grid: cubic cells, `resolution` cells along the longest side of the
//   mesh's bounding box, plus kSdfPaddingCells cells on every side so that
//   the field is sampled where particles approach. The whole box is sampled
//   (a full grid, not a narrow band): memory is samples.x*samples.y*samples.z
//   floats, 1 MiB at resolution 64, and every lookup is a plain index.
// - Distance: exact, to the nearest triangle (TriangleBvh), at every sample.
// - Sign: robust ray parity. A ray along +x through each row of samples
//   counts the triangles it crosses; a sample is inside when an odd number of
//   crossings lie before it. Rays that pass exactly through an edge or a
//   vertex are decided by a symbolic tie-break that depends only on the
//   edge's end points, so two triangles sharing an edge never both (or
//   neither) count a crossing: the count is exact for any closed mesh,
//   whatever its winding. (Open meshes have no inside: callers require
//   closed ones, triangle_surface.h requireClosedSurface.)
//
// Cost: O(samples * log T) distance queries, spread over the CPU's cores; a
// few hundred milliseconds for a 64^3 grid. io/sdf_grid_cache.h keeps the
// result on disk.
#include <cstdint>
#include <span>

#include <glm/glm.hpp>

#include "geometry/signed_distance_grid.h"

namespace vksim {

inline constexpr uint32_t kSdfPaddingCells = 4;
inline constexpr uint32_t kMinSdfResolution = 4;
inline constexpr uint32_t kMaxSdfResolution = 256;

// The grid's layout (samples, spacing, origin) for `positions` at
// `resolution`, without its values: what a bake produces, bit for bit, so
// that a cached grid's header can be checked against it.
SignedDistanceGrid sdfGridLayout(std::span<const glm::dvec3> positions, uint32_t resolution);

// `triangles` holds 3 indices into `positions` per triangle and must form a
// closed surface. resolution in [kMinSdfResolution, kMaxSdfResolution].
SignedDistanceGrid bakeSignedDistanceGrid(std::span<const glm::dvec3> positions, std::span<const uint32_t> triangles,
                                          uint32_t resolution);

}  // namespace vksim
