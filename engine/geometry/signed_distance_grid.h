#pragma once
// A signed distance field sampled on a regular grid (negative inside), in
// the units and frame of the mesh it was baked from (mesh_sdf_bake.h). Mesh
// colliders sample it trilinearly on the GPU and in the CPU reference through
// the same code (shaders/math/sdf.glsl, meshSdfLocal), from one storage
// buffer that holds the grids of every mesh collider one after another.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

struct SignedDistanceGrid {
    glm::uvec3 samples{0};   // along x, y, z; at least 2 each
    double spacing = 0.0;    // distance between neighbouring samples
    glm::dvec3 origin{0.0};  // position of sample (0, 0, 0)
    std::vector<float> values;  // sample (i, j, k) at i + samples.x * (j + samples.y * k)

    std::size_t index(uint32_t i, uint32_t j, uint32_t k) const {
        return i + std::size_t(samples.x) * (j + std::size_t(samples.y) * k);
    }
    glm::dvec3 point(uint32_t i, uint32_t j, uint32_t k) const {
        return origin + spacing * glm::dvec3(i, j, k);
    }
};

// The mesh SDF buffer holds at most this many floats: offsets travel as
// floats, exact up to 2^24.
inline constexpr std::size_t kMaxMeshSdfFloats = std::size_t(1) << 24;

// The floats a grid of `samples` takes in that buffer, header included: what
// the scene loader adds up from the grids' layouts before baking any.
std::size_t meshSdfBufferFloats(glm::uvec3 samples);

// Appends `grid` to a mesh SDF buffer in the layout sdf.glsl reads
// (kMeshSdfHeaderFloats header floats: samples x, y, z, spacing, origin x,
// y, z, 0; then the values) and returns the offset of its header, which the
// collider stores in size.x. Throws std::invalid_argument when the buffer
// would pass kMaxMeshSdfFloats.
uint32_t appendGridToBuffer(const SignedDistanceGrid& grid, std::vector<float>& buffer);

}  // namespace vksim
