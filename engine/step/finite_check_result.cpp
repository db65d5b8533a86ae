#include "step/finite_check_result.h"

#include <cstring>

namespace vksim {

gpu::FiniteCheckResult cleanFiniteCheckResult() {
    gpu::FiniteCheckResult result{};
    result.firstBadCheck = gpu::kNoFiniteCheck;
    result.firstBadIndex = gpu::kNoFiniteCheck;
    return result;
}

GpuBuffer makeFiniteCheckResultBuffer(const VulkanContext& ctx, const std::string& name) {
    GpuBuffer buffer(ctx, sizeof(gpu::FiniteCheckResult), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::HostVisible,
                     name);
    const gpu::FiniteCheckResult clean = cleanFiniteCheckResult();
    buffer.uploadArray<gpu::FiniteCheckResult>({&clean, 1});
    return buffer;
}

gpu::FiniteCheckResult takeFiniteCheckResult(GpuBuffer& buffer) {
    gpu::FiniteCheckResult result;
    std::memcpy(&result, buffer.mapped(), sizeof(result));
    const gpu::FiniteCheckResult clean = cleanFiniteCheckResult();
    buffer.uploadArray<gpu::FiniteCheckResult>({&clean, 1});
    return result;
}

}  // namespace vksim
