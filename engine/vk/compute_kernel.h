#pragma once
// A compute pipeline built from an embedded shader, with its descriptor set
// layout derived from the shader itself (set 0: buffers at bindings 0..n-1,
// each bound as a storage buffer or, where the shader declares a texel
// buffer, as a view of 4 x 32-bit texels) and one push-constant range of a size the caller states. Buffers
// are named at each dispatch (push descriptors, or a cached set per list of
// buffers), so no caller keeps a set per combination of buffers; per-step
// data goes in push constants. dispatch() checks every size against the shader.
// The shader is reflected, and its bindings and push constants checked, when
// the kernel is made; the pipeline is built (the driver's compilation) when
// the kernel is first recorded, so that a World compiles only the kernels
// its scene and settings run: a PBD world holds every dispatch path, and a
// scene runs one (docs/architecture.md, "Binding").
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_pipelines.h"
#include "vk/spirv_reflect.h"

namespace vksim {

class VulkanContext;
struct ShaderBlob;  // vk/shader_table.h

// A 32-bit specialization constant: the shader's `layout(constant_id = id)`.
struct SpecializationConstant {
    uint32_t id = 0;
    uint32_t value = 0;
};

class ComputeKernel {
public:
    // `specialization` sets some of the shader's specialization constants
    // (those sized by the device or fixed by the world); the rest keep the
    // shader's defaults. A non-zero `requiredSubgroupSize` makes every
    // subgroup of a workgroup a full one of that many invocations
    // (VulkanContext::canRequireSubgroupSize() must hold, and the
    // workgroup's x size be a multiple of it).
    ComputeKernel(const VulkanContext& ctx, std::string_view shaderName, uint32_t pushConstantSize,
                  std::span<const SpecializationConstant> specialization = {}, uint32_t requiredSubgroupSize = 0);
    ~ComputeKernel();
    ComputeKernel(const ComputeKernel&) = delete;
    ComputeKernel& operator=(const ComputeKernel&) = delete;

    // Records one dispatch over `elementCount` elements (one thread each; the
    // group count is computed here) with `buffers` at bindings 0..n-1, in
    // shader order. A binding the compiled shader does not use is not bound
    // (the optimizer removes what a variant of a shared source never reads,
    // as pbd/cluster_sweep_cpu.comp does with the positions and velocities).
    // Nothing is recorded for zero elements, and no barrier: callers place
    // them. Throws if a binding the shader uses has no buffer, or if the
    // push-constant size differs from what the shader declares.
    void dispatch(VkCommandBuffer cmd, std::span<const GpuBuffer* const> buffers, uint32_t elementCount,
                  const void* push, uint32_t pushSize) const;
    template <typename Push>
    void dispatch(VkCommandBuffer cmd, std::initializer_list<const GpuBuffer*> buffers, uint32_t elementCount,
                  const Push& push) const {
        dispatch(cmd, std::span<const GpuBuffer* const>(buffers.begin(), buffers.size()), elementCount, &push,
                 sizeof(Push));
    }

    // Records one dispatch whose group count the GPU wrote: a
    // VkDispatchIndirectCommand at `offset` in `args` (made with indirect
    // usage). The writer keeps it within maxComputeWorkGroupCount
    // (maxGroupCount()), and the shader loops over what its threads do not
    // cover.
    void dispatchIndirect(VkCommandBuffer cmd, std::span<const GpuBuffer* const> buffers, const GpuBuffer& args,
                          VkDeviceSize offset, const void* push, uint32_t pushSize) const;
    uint32_t maxGroupCount() const { return maxGroupCount_; }

    // Whether the pipeline has been built: whether the kernel was recorded.
    bool built() const { return pipeline_ != VK_NULL_HANDLE; }

    const std::string& name() const { return name_; }
    uint32_t pushConstantSize() const { return pushConstantSize_; }
    uint32_t workgroupSize() const { return workgroupSize_; }
    // Descriptor sets this kernel has made (0 with push descriptors): one per
    // distinct list of buffers it was dispatched with.
    size_t cachedSetCount() const { return sets_.size(); }

private:
    // Builds the pipeline, the first time a recording needs it.
    void build() const;
    ComputePipeline buildPipeline(const VulkanContext& ctx, const ShaderBlob& blob,
                                  std::span<const SpecializationConstant> specialization,
                                  uint32_t requiredSubgroupSize) const;
    // Binds `buffers`: a push descriptor where the device has them, else the
    // set made for this list of buffers the first time it was seen (sets are
    // never rewritten, so one in use by a frame in flight stays valid).
    void bindBuffers(VkCommandBuffer cmd, std::span<const GpuBuffer* const> buffers) const;
    VkDescriptorSet cachedSet(std::span<const GpuBuffer* const> buffers) const;
    // The descriptor writes of `buffers` (binding i from buffers[i]), into
    // `infos` and `views`, which must hold one entry per binding.
    void describe(std::span<const GpuBuffer* const> buffers, VkDescriptorSet set, VkDescriptorBufferInfo* infos,
                  VkBufferView* views, VkWriteDescriptorSet* writes) const;

    const VulkanContext& ctx_;
    std::string name_;
    // What build() needs: the embedded shader and the pipeline's key.
    const ShaderBlob* blob_ = nullptr;
    std::vector<SpecializationConstant> specialization_;
    uint32_t requiredSubgroupSize_ = 0;
    // Within maxPushDescriptors (at least 32 where the extension is).
    static constexpr uint32_t kMaxBufferSlots = 32;
    std::vector<ShaderBinding> bindings_;  // the bindings the shader uses, by number
    uint32_t bindingCount_ = 0;            // of them
    uint32_t slotCount_ = 0;               // the highest used binding + 1
    uint32_t pushConstantSize_ = 0;
    uint32_t workgroupSize_ = 1;
    uint32_t maxGroupCount_ = 0;
    bool pushDescriptors_ = false;
    // The context's (vk/compute_pipelines.h), shared with every kernel of
    // the same key; null until build().
    mutable VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
    mutable VkPipelineLayout layout_ = VK_NULL_HANDLE;
    mutable VkPipeline pipeline_ = VK_NULL_HANDLE;
    // The fallback: pools of kSetsPerPool sets, and the set of each buffer list.
    mutable std::vector<VkDescriptorPool> pools_;
    mutable uint32_t setsInLastPool_ = 0;
    mutable std::map<std::vector<VkBuffer>, VkDescriptorSet> sets_;
};

}  // namespace vksim
