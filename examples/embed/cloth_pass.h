#pragma once
// The example's own graphics pipeline: it draws a vksim World's triangles
// straight from vksim's buffers, World::positions() as the vertex buffer
// (vec4 per particle, xyz used) and World::triangleIndices() as the uint32
// index buffer. No copies: the caller records World::recordReadBarrier first.
#include <glm/glm.hpp>
#include <volk.h>

#include "world/world.h"

class ClothPass {
public:
    ClothPass(VkDevice device, VkFormat colorFormat, VkFormat depthFormat);
    ~ClothPass();
    ClothPass(const ClothPass&) = delete;
    ClothPass& operator=(const ClothPass&) = delete;

    // Inside dynamic rendering of `extent`.
    void record(VkCommandBuffer cmd, const vksim::World& world, const glm::mat4& viewProjection,
                const glm::vec3& color, VkExtent2D extent) const;

private:
    VkDevice device_;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
};
