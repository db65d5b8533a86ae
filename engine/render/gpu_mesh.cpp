#include "render/gpu_mesh.h"

#include <span>

namespace vksim {

GpuMesh uploadMesh(const VulkanContext& ctx, const ShapeMesh& mesh, const std::string& name) {
    GpuMesh gpu;
    const std::span<const glm::vec4> positions(mesh.positions);
    const std::span<const glm::vec4> normals(mesh.normals);
    const std::span<const uint32_t> indices(mesh.indices);
    gpu.normalsOffset = positions.size_bytes();
    gpu.vertices = GpuBuffer(ctx, positions.size_bytes() + normals.size_bytes(),
                             VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             MemoryKind::DeviceLocal, name + " vertices");
    gpu.vertices.uploadArray(positions);
    gpu.vertices.uploadArray(normals, gpu.normalsOffset);
    gpu.indices = GpuBuffer(ctx, indices.size_bytes(), VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            MemoryKind::DeviceLocal, name + " indices");
    gpu.indices.uploadArray(indices);
    gpu.indexCount = static_cast<uint32_t>(indices.size());
    return gpu;
}

}  // namespace vksim
