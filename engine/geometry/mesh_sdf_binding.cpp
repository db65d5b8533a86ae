#include "geometry/mesh_sdf_binding.h"

#include <stdexcept>
#include <string>

namespace vksim::ref {
namespace {

thread_local std::span<const float> boundGrids;

}  // namespace

MeshSdfGridScope::MeshSdfGridScope(std::span<const float> grids) : previous_(boundGrids) {
    boundGrids = grids;
}

MeshSdfGridScope::~MeshSdfGridScope() { boundGrids = previous_; }

float boundMeshSdfGridValue(uint32_t index) {
    if (index >= boundGrids.size())
        throw std::logic_error(
            boundGrids.empty()
                ? std::string("a mesh collider's SDF was evaluated with no grid buffer bound (ref::MeshSdfGridScope)")
                : "mesh SDF grid index " + std::to_string(index) + " is outside the bound buffer of " +
                      std::to_string(boundGrids.size()) + " floats");
    return boundGrids[index];
}

}  // namespace vksim::ref
