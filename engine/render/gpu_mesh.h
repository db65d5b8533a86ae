#pragma once
// A ShapeMesh uploaded once to device-local memory: one vertex buffer holding
// all positions then all normals (the two vertex streams the surface pipeline
// reads), and an index buffer.
#include <string>

#include "render/shape_mesh.h"
#include "vk/buffer.h"

namespace vksim {

struct GpuMesh {
    GpuBuffer vertices;
    VkDeviceSize normalsOffset = 0;  // byte offset of the normal stream in `vertices`
    GpuBuffer indices;
    uint32_t indexCount = 0;
};

GpuMesh uploadMesh(const VulkanContext& ctx, const ShapeMesh& mesh, const std::string& name);

}  // namespace vksim
