#pragma once
// The host side of a gpu::FiniteCheckResult (shared/finite_check_types.h): a
// small host-visible buffer the checks write with atomics, and its read-back.
// The host clears it after reading, between submissions: host writes before
// vkQueueSubmit are visible to that submission, so no transfer and no barrier
// are needed to reset it.
#include <string>

#include "shaders/shared/finite_check_types.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

// A cleared result (nothing failed yet).
gpu::FiniteCheckResult cleanFiniteCheckResult();

// A host-visible storage buffer holding one cleared result.
GpuBuffer makeFiniteCheckResultBuffer(const VulkanContext& ctx, const std::string& name);

// Reads the result and clears the buffer for the next use. The submission
// that wrote it must have completed, with computeToHostBarrier at its end.
gpu::FiniteCheckResult takeFiniteCheckResult(GpuBuffer& buffer);

}  // namespace vksim
