#pragma once
// Fault injection for the tests of device loss and out-of-memory, which a
// healthy driver never reports on demand. VKSIM_FAULT=KIND@SITE:N makes the
// Nth call at SITE (counted from the start of the process) fail with KIND's
// VkResult instead of being made:
//   KIND: device-lost (VK_ERROR_DEVICE_LOST), oom (VK_ERROR_OUT_OF_DEVICE_MEMORY),
//         host-oom (VK_ERROR_OUT_OF_HOST_MEMORY), timeout (VK_TIMEOUT, at
//         the wait site: a GPU that stopped, see gpu_wait.h)
//   SITE: submit (queue submissions), wait (fence and queue waits),
//         alloc (device memory allocations), map (vkMapMemory)
// Unset, a checked call costs one compare (injectedFault below).
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include <volk.h>

namespace vksim {

enum class FaultSite : int { None, Submit, Wait, Alloc, Map };

struct FaultPlan {
    FaultSite site = FaultSite::None;
    VkResult result = VK_SUCCESS;
    uint64_t nth = 0;  // 1-based
};

// Parses "KIND@SITE:N"; nullopt when the text is not one.
std::optional<FaultPlan> parseFaultSpec(const std::string& text);

// Arms the plan (tests); the count of calls at its site starts from zero.
void armFault(const FaultPlan& plan);
void disarmFault();

// Arms VKSIM_FAULT once per process (VulkanContext's constructor calls it);
// throws DeviceError naming the variable when its value is not a plan.
void armFaultFromEnvironment();

namespace detail {
extern std::atomic<FaultSite> armedFaultSite;
VkResult countFault();
}  // namespace detail

// VK_SUCCESS, or the armed result when this is the Nth call at the armed site.
inline VkResult injectedFault(FaultSite site) {
    if (site != detail::armedFaultSite.load(std::memory_order_relaxed)) [[likely]]
        return VK_SUCCESS;
    return detail::countFault();
}

}  // namespace vksim
