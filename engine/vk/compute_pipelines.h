#pragma once
// The compute pipelines of one device context, each built once: every
// ComputeKernel (vk/compute_kernel.h) of the same shader, push-constant
// size, specialization and required subgroup size shares one shader module,
// descriptor set layout, pipeline layout and pipeline, whichever World,
// solver or stage asks for it. A second World on the same context (a test's
// next case, the viewer's solver switch, an application that rebuilds its
// scene) then builds no pipeline: building one is the driver's shader
// compilation, the largest part of building a World. They live until the
// context is destroyed (destroy(), from ~VulkanContext).
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <volk.h>

namespace vksim {

struct ComputePipeline {
    VkShaderModule module = VK_NULL_HANDLE;
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
};

// What makes two pipelines the same: the shader (by its name in the
// embedded table), the push-constant size, the specialization constants
// (id, value pairs in the order given) and the required subgroup size.
struct ComputePipelineKey {
    std::string shader;
    uint32_t pushConstantSize = 0;
    std::vector<uint32_t> specialization;
    uint32_t requiredSubgroupSize = 0;
    auto operator<=>(const ComputePipelineKey&) const = default;
};

class ComputePipelines {
public:
    ComputePipelines() = default;
    ComputePipelines(const ComputePipelines&) = delete;
    ComputePipelines& operator=(const ComputePipelines&) = delete;

    // The pipeline of `key`, built by `build` the first time it is asked for
    // (under a lock: contexts may be shared across threads). The reference
    // stays valid until destroy().
    template <class Build>
    const ComputePipeline& get(const ComputePipelineKey& key, Build&& build) {
        const std::lock_guard lock(mutex_);
        auto found = pipelines_.find(key);
        if (found == pipelines_.end())
            found = pipelines_.emplace(key, std::make_unique<ComputePipeline>(build())).first;
        return *found->second;
    }

    size_t size() const {
        const std::lock_guard lock(mutex_);
        return pipelines_.size();
    }

    // Destroys every pipeline and its objects (the GPU must be done with them).
    void destroy(VkDevice device);

private:
    mutable std::mutex mutex_;
    std::map<ComputePipelineKey, std::unique_ptr<ComputePipeline>> pipelines_;
};

}  // namespace vksim
