#pragma once
// A compute pipeline built from an embedded shader, with its descriptor set
// layout derived from the shader itself (set 0: storage buffers at bindings
// 0..n-1) and one push-constant range of a size the caller states. Buffers
// are bound once per topology into descriptor sets the kernel owns; per-step
// data goes in push constants. dispatch() checks every size against the shader.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

class ComputeKernel {
public:
    ComputeKernel(const VulkanContext& ctx, std::string_view shaderName, uint32_t pushConstantSize,
                  uint32_t maxBindingSets = 4);
    ~ComputeKernel();
    ComputeKernel(const ComputeKernel&) = delete;
    ComputeKernel& operator=(const ComputeKernel&) = delete;

    // A descriptor set with `buffers` at bindings 0..n-1, in shader order.
    // Throws if the count differs from what the shader declares.
    VkDescriptorSet bind(std::span<const GpuBuffer* const> buffers, const std::string& setName);
    VkDescriptorSet bind(std::initializer_list<const GpuBuffer*> buffers, const std::string& setName) {
        return bind(std::span<const GpuBuffer* const>(buffers.begin(), buffers.size()), setName);
    }

    const std::string& name() const { return name_; }
    VkPipeline pipeline() const { return pipeline_; }
    VkPipelineLayout layout() const { return layout_; }
    uint32_t pushConstantSize() const { return pushConstantSize_; }
    uint32_t workgroupSize() const { return workgroupSize_; }
    uint32_t maxGroupCount() const { return maxGroupCount_; }

private:
    const VulkanContext& ctx_;
    std::string name_;
    uint32_t bindingCount_ = 0;
    uint32_t pushConstantSize_ = 0;
    uint32_t workgroupSize_ = 1;
    uint32_t maxGroupCount_ = 0;
    VkShaderModule module_ = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    VkPipelineLayout layout_ = VK_NULL_HANDLE;
    VkPipeline pipeline_ = VK_NULL_HANDLE;
    VkDescriptorPool pool_ = VK_NULL_HANDLE;
};

// Records one dispatch of `kernel` over `elementCount` elements (one thread
// each; the group count is computed here). Nothing is recorded for zero
// elements. No barrier is recorded: callers place them explicitly.
void dispatchKernel(VkCommandBuffer cmd, const ComputeKernel& kernel, VkDescriptorSet set, uint32_t elementCount,
                    const void* push, uint32_t pushSize);

template <typename Push>
void dispatch(VkCommandBuffer cmd, const ComputeKernel& kernel, VkDescriptorSet set, uint32_t elementCount,
              const Push& push) {
    dispatchKernel(cmd, kernel, set, elementCount, &push, sizeof(Push));
}

}  // namespace vksim
