#include "vk/compute_kernel.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "vk/context.h"
#include "vk/dispatch_groups.h"
#include "vk/driver_crash.h"
#include "vk/gpu_wait.h"
#include "vk/shader_table.h"
#include "vk/vk_check.h"

namespace vksim {

namespace {
constexpr uint32_t kSetsPerPool = 16;

VkDescriptorType descriptorType(BindingKind kind) {
    switch (kind) {
        case BindingKind::StorageBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        case BindingKind::UniformTexelBuffer: return VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
        case BindingKind::StorageTexelBuffer: return VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    }
    return VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}
}  // namespace

ComputeKernel::ComputeKernel(const VulkanContext& ctx, std::string_view shaderName, uint32_t pushConstantSize,
                             std::span<const SpecializationConstant> specialization, uint32_t requiredSubgroupSize)
    : ctx_(ctx), name_(shaderName), pushConstantSize_(pushConstantSize), pushDescriptors_(ctx.pushDescriptors()) {
    const ShaderBlob* blob = findShader(shaderName);
    if (!blob) throw VulkanError(fmt::format("no shader named '{}' is built into vksim", shaderName));
    const ShaderInterface iface = reflectShader({blob->code, blob->wordCount}, name_);
    if (iface.usesPushConstants != (pushConstantSize > 0))
        throw VulkanError(fmt::format("shader {}: push constants declared {} but the engine passes {} bytes", name_,
                                      iface.usesPushConstants ? "in the shader" : "nowhere", pushConstantSize));
    if (iface.localSizeY != 1 || iface.localSizeZ != 1)
        throw VulkanError(fmt::format("shader {}: kernels are one-dimensional", name_));
    bindings_ = iface.bindings;
    bindingCount_ = static_cast<uint32_t>(bindings_.size());
    slotCount_ = bindings_.empty() ? 0 : bindings_.back().binding + 1;
    if (slotCount_ > kMaxBufferSlots)
        throw VulkanError(fmt::format("shader {}: binding {} is past the {} buffers a kernel takes", name_,
                                      slotCount_ - 1, kMaxBufferSlots));
    workgroupSize_ = iface.localSizeX;
    maxGroupCount_ = ctx.properties().limits.maxComputeWorkGroupCount[0];

    if (requiredSubgroupSize != 0 &&
        (!ctx.canRequireSubgroupSize(requiredSubgroupSize) || workgroupSize_ % requiredSubgroupSize != 0))
        throw std::logic_error(fmt::format("{}: cannot require full subgroups of {}", name_, requiredSubgroupSize));

    blob_ = blob;
    specialization_.assign(specialization.begin(), specialization.end());
    requiredSubgroupSize_ = requiredSubgroupSize;
}

void ComputeKernel::build() const {
    if (built()) return;
    ComputePipelineKey key{name_, pushConstantSize_, {}, requiredSubgroupSize_};
    for (const SpecializationConstant& c : specialization_)
        key.specialization.insert(key.specialization.end(), {c.id, c.value});
    const ComputePipeline& pipeline = ctx_.computePipelines().get(
        key, [&] { return buildPipeline(ctx_, *blob_, specialization_, requiredSubgroupSize_); });
    setLayout_ = pipeline.setLayout;
    layout_ = pipeline.layout;
    pipeline_ = pipeline.pipeline;
}

// The shader module, layouts and pipeline of this kernel's key, for
// ComputePipelines to keep (vk/compute_pipelines.h).
ComputePipeline ComputeKernel::buildPipeline(const VulkanContext& ctx, const ShaderBlob& blob,
                                             std::span<const SpecializationConstant> specialization,
                                             uint32_t requiredSubgroupSize) const {
    ComputePipeline out;
    VkShaderModuleCreateInfo moduleInfo{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    moduleInfo.codeSize = blob.wordCount * sizeof(uint32_t);
    moduleInfo.pCode = blob.code;
    {
        const DriverCall call("compiling the compute shader", name_.c_str());
        VK_CHECK(vkCreateShaderModule(ctx.device(), &moduleInfo, nullptr, &out.module));
    }
    ctx.setName(out.module, VK_OBJECT_TYPE_SHADER_MODULE, name_);

    std::vector<VkDescriptorSetLayoutBinding> bindings(bindingCount_);
    for (uint32_t i = 0; i < bindingCount_; ++i)
        bindings[i] = {bindings_[i].binding, descriptorType(bindings_[i].kind), 1, VK_SHADER_STAGE_COMPUTE_BIT,
                       nullptr};
    VkDescriptorSetLayoutCreateInfo setInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    setInfo.flags = pushDescriptors_ ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0;
    setInfo.bindingCount = bindingCount_;
    setInfo.pBindings = bindings.data();
    VK_CHECK(vkCreateDescriptorSetLayout(ctx.device(), &setInfo, nullptr, &out.setLayout));
    ctx.setName(out.setLayout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, name_);

    VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstantSize_};
    VkPipelineLayoutCreateInfo layoutInfo{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    layoutInfo.setLayoutCount = 1;
    layoutInfo.pSetLayouts = &out.setLayout;
    layoutInfo.pushConstantRangeCount = pushConstantSize_ > 0 ? 1 : 0;
    layoutInfo.pPushConstantRanges = &range;
    VK_CHECK(vkCreatePipelineLayout(ctx.device(), &layoutInfo, nullptr, &out.layout));
    ctx.setName(out.layout, VK_OBJECT_TYPE_PIPELINE_LAYOUT, name_);

    VkComputePipelineCreateInfo pipelineInfo{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    pipelineInfo.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    pipelineInfo.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    pipelineInfo.stage.module = out.module;
    pipelineInfo.stage.pName = "main";
    std::vector<VkSpecializationMapEntry> entries(specialization.size());
    std::vector<uint32_t> values(specialization.size());
    for (uint32_t i = 0; i < entries.size(); ++i) {
        entries[i] = {specialization[i].id, i * uint32_t(sizeof(uint32_t)), sizeof(uint32_t)};
        values[i] = specialization[i].value;
    }
    const VkSpecializationInfo specializationInfo{static_cast<uint32_t>(entries.size()), entries.data(),
                                                  values.size() * sizeof(uint32_t), values.data()};
    if (!specialization.empty()) pipelineInfo.stage.pSpecializationInfo = &specializationInfo;
    VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroupSize{
        VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
    if (requiredSubgroupSize != 0) {
        subgroupSize.requiredSubgroupSize = requiredSubgroupSize;
        pipelineInfo.stage.pNext = &subgroupSize;
        pipelineInfo.stage.flags = VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT;
    }
    pipelineInfo.layout = out.layout;
    // Allows vkCmdDispatchBase, which splits a dispatch over more workgroups
    // than the device allows in one (see dispatch()).
    pipelineInfo.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
    {
        // lavapipe compiles the shader here, with LLVM.
        const DriverCall call("compiling the compute shader", name_.c_str());
        VK_CHECK(vkCreateComputePipelines(ctx.device(), VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &out.pipeline));
    }
    ctx.setName(out.pipeline, VK_OBJECT_TYPE_PIPELINE, name_);
    return out;
}

ComputeKernel::~ComputeKernel() {
    if (gpuAbandoned()) return;  // the GPU may still run the pipeline: leaked (gpu_wait.h)
    VkDevice device = ctx_.device();
    // The pipeline and its layouts stay with the context's ComputePipelines.
    for (VkDescriptorPool pool : pools_) vkDestroyDescriptorPool(device, pool, nullptr);
}

VkDescriptorSet ComputeKernel::cachedSet(std::span<const GpuBuffer* const> buffers) const {
    std::vector<VkBuffer> key(bindingCount_);
    for (uint32_t i = 0; i < bindingCount_; ++i) key[i] = buffers[bindings_[i].binding]->handle();
    if (auto found = sets_.find(key); found != sets_.end()) return found->second;

    if (pools_.empty() || setsInLastPool_ == kSetsPerPool) {
        std::vector<VkDescriptorPoolSize> poolSizes;
        for (const ShaderBinding& b : bindings_) {
            const VkDescriptorType type = descriptorType(b.kind);
            auto same = std::find_if(poolSizes.begin(), poolSizes.end(),
                                     [&](const VkDescriptorPoolSize& p) { return p.type == type; });
            if (same == poolSizes.end())
                poolSizes.push_back({type, kSetsPerPool});
            else
                same->descriptorCount += kSetsPerPool;
        }
        if (poolSizes.empty()) poolSizes.push_back({VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1});
        VkDescriptorPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
        poolInfo.maxSets = kSetsPerPool;
        poolInfo.poolSizeCount = static_cast<uint32_t>(poolSizes.size());
        poolInfo.pPoolSizes = poolSizes.data();
        VkDescriptorPool pool = VK_NULL_HANDLE;
        VK_CHECK(vkCreateDescriptorPool(ctx_.device(), &poolInfo, nullptr, &pool));
        ctx_.setName(pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL, name_);
        pools_.push_back(pool);
        setsInLastPool_ = 0;
    }
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pools_.back();
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &setLayout_;
    VkDescriptorSet set = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateDescriptorSets(ctx_.device(), &alloc, &set));
    ++setsInLastPool_;
    std::string setName = name_ + " (";
    for (uint32_t i = 0; i < bindingCount_; ++i) setName += (i ? ", " : "") + buffers[bindings_[i].binding]->name();
    ctx_.setName(set, VK_OBJECT_TYPE_DESCRIPTOR_SET, setName + ")");

    std::vector<VkDescriptorBufferInfo> infos(bindingCount_);
    std::vector<VkBufferView> views(bindingCount_);
    std::vector<VkWriteDescriptorSet> writes(bindingCount_);
    describe(buffers, set, infos.data(), views.data(), writes.data());
    vkUpdateDescriptorSets(ctx_.device(), bindingCount_, writes.data(), 0, nullptr);
    sets_.emplace(std::move(key), set);
    return set;
}

void ComputeKernel::describe(std::span<const GpuBuffer* const> buffers, VkDescriptorSet set,
                             VkDescriptorBufferInfo* infos, VkBufferView* views, VkWriteDescriptorSet* writes) const {
    for (uint32_t i = 0; i < bindingCount_; ++i) {
        const GpuBuffer& buffer = *buffers[bindings_[i].binding];
        writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        writes[i].dstSet = set;
        writes[i].dstBinding = bindings_[i].binding;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = descriptorType(bindings_[i].kind);
        if (bindings_[i].kind == BindingKind::StorageBuffer) {
            infos[i] = {buffer.handle(), 0, VK_WHOLE_SIZE};
            writes[i].pBufferInfo = &infos[i];
        } else {
            views[i] = buffer.texelView(bindings_[i].texelFormat);
            writes[i].pTexelBufferView = &views[i];
        }
    }
}

void ComputeKernel::bindBuffers(VkCommandBuffer cmd, std::span<const GpuBuffer* const> buffers) const {
    if (buffers.size() < slotCount_ || buffers.size() > kMaxBufferSlots)
        throw VulkanError(fmt::format("shader {} reads binding {} but {} buffers were bound", name_,
                                      slotCount_ - 1, buffers.size()));
    for (const ShaderBinding& b : bindings_)
        if (!buffers[b.binding] || !*buffers[b.binding])
            throw VulkanError(fmt::format("shader {}: binding {} is not a buffer", name_, b.binding));
    if (bindingCount_ == 0) return;
    if (!pushDescriptors_) {
        const VkDescriptorSet set = cachedSet(buffers);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
        return;
    }
    VkDescriptorBufferInfo infos[kMaxBufferSlots];
    VkBufferView views[kMaxBufferSlots];
    VkWriteDescriptorSet writes[kMaxBufferSlots];
    describe(buffers, VK_NULL_HANDLE, infos, views, writes);
    vkCmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, bindingCount_, writes);
}

void ComputeKernel::dispatchIndirect(VkCommandBuffer cmd, std::span<const GpuBuffer* const> buffers,
                                     const GpuBuffer& args, VkDeviceSize offset, const void* push,
                                     uint32_t pushSize) const {
    if (pushSize != pushConstantSize_)
        throw VulkanError(fmt::format("dispatch of {}: {} bytes of push constants, the kernel takes {}", name_,
                                      pushSize, pushConstantSize_));
    build();
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    bindBuffers(cmd, buffers);
    if (pushSize > 0) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushSize, push);
    vkCmdDispatchIndirect(cmd, args.handle(), offset);
}

void ComputeKernel::dispatch(VkCommandBuffer cmd, std::span<const GpuBuffer* const> buffers, uint32_t elementCount,
                             const void* push, uint32_t pushSize) const {
    if (pushSize != pushConstantSize_)
        throw VulkanError(fmt::format("dispatch of {}: {} bytes of push constants, the kernel takes {}", name_,
                                      pushSize, pushConstantSize_));
    if (elementCount == 0) return;
    const uint32_t groups = dispatchGroups(elementCount, workgroupSize_);
    build();
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
    bindBuffers(cmd, buffers);
    if (pushSize > 0) vkCmdPushConstants(cmd, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushSize, push);
    // Past maxComputeWorkGroupCount[0] (65,535 on many devices: 4.2 M
    // elements at 64 per group) the range is cut into slices with a base
    // group. gl_WorkGroupID and gl_GlobalInvocationID count from the base, so
    // shaders see one flat range; the slices write disjoint elements, so no
    // barrier is needed between them. (Shaders must not read gl_NumWorkGroups.)
    // The slice at base 0 is recorded last: lavapipe (Mesa 22.3) keeps the
    // last vkCmdDispatchBase's base for a following vkCmdDispatchIndirect,
    // which then skips its first groups (found with VKSIM_MAX_WORKGROUP_COUNT,
    // docs/testing.md).
    const uint32_t slices = (groups - 1) / maxGroupCount_ + 1;
    for (uint32_t slice = slices; slice-- > 0;) {
        const uint32_t first = slice * maxGroupCount_;
        vkCmdDispatchBase(cmd, first, 0, 0, std::min(groups - first, maxGroupCount_), 1, 1);
    }
}

}  // namespace vksim
