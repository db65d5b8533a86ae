#include "vk/compute_pipelines.h"

namespace vksim {

void ComputePipelines::destroy(VkDevice device) {
    const std::lock_guard lock(mutex_);
    for (auto& [key, p] : pipelines_) {
        vkDestroyPipeline(device, p->pipeline, nullptr);
        vkDestroyPipelineLayout(device, p->layout, nullptr);
        vkDestroyDescriptorSetLayout(device, p->setLayout, nullptr);
        vkDestroyShaderModule(device, p->module, nullptr);
    }
    pipelines_.clear();
}

}  // namespace vksim
