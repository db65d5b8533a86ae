#include "geometry/signed_distance_grid.h"

#include <stdexcept>

#include <fmt/format.h>

#include "shaders/shared/sim_types.h"

namespace vksim {

std::size_t meshSdfBufferFloats(glm::uvec3 samples) {
    return gpu::kMeshSdfHeaderFloats + std::size_t(samples.x) * samples.y * samples.z;
}

uint32_t appendGridToBuffer(const SignedDistanceGrid& grid, std::vector<float>& buffer) {
    const std::size_t count = std::size_t(grid.samples.x) * grid.samples.y * grid.samples.z;
    if (grid.samples.x < 2 || grid.samples.y < 2 || grid.samples.z < 2 || grid.values.size() != count)
        throw std::invalid_argument("appendGridToBuffer: the grid needs at least 2 samples per axis and all values");
    // The scene loader has checked the total already; this guards models built in code.
    if (buffer.size() + meshSdfBufferFloats(grid.samples) > kMaxMeshSdfFloats)
        throw std::invalid_argument(fmt::format(
            "the mesh colliders' distance grids need {} floats in all; at most {} (2^24) fit (lower a resolution)",
            buffer.size() + meshSdfBufferFloats(grid.samples), kMaxMeshSdfFloats));
    const auto offset = static_cast<uint32_t>(buffer.size());
    buffer.insert(buffer.end(), {float(grid.samples.x), float(grid.samples.y), float(grid.samples.z),
                                 float(grid.spacing), float(grid.origin.x), float(grid.origin.y), float(grid.origin.z),
                                 0.0f});
    static_assert(gpu::kMeshSdfHeaderFloats == 8);
    buffer.insert(buffer.end(), grid.values.begin(), grid.values.end());
    return offset;
}

}  // namespace vksim
