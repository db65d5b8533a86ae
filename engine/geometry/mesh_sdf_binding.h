#pragma once
// The C++ side of the mesh SDF buffer. On the GPU, mesh colliders read their
// signed distance grids from a storage buffer bound to the collision passes;
// the shared SDF code (shaders/math/sdf.glsl) compiled as C++
// (shared_math.h) reads them from the buffer bound to the calling thread by a
// MeshSdfGridScope, the CPU counterpart of binding that buffer:
//
//   const ref::MeshSdfGridScope grids(model.meshSdfGrids);
//   double f = ref::sdfWorld(collider.type, ...);
//
// Scopes nest (the inner one wins until it ends). Evaluating a mesh collider
// with nothing bound, or outside the bound buffer, is a programming error and
// throws std::logic_error.
#include <cstdint>
#include <span>

namespace vksim::ref {

class MeshSdfGridScope {
public:
    explicit MeshSdfGridScope(std::span<const float> grids);
    ~MeshSdfGridScope();
    MeshSdfGridScope(const MeshSdfGridScope&) = delete;
    MeshSdfGridScope& operator=(const MeshSdfGridScope&) = delete;

private:
    std::span<const float> previous_;
};

// grids[index] of the buffer bound on this thread.
float boundMeshSdfGridValue(uint32_t index);

}  // namespace vksim::ref
