#pragma once
// Error tiers (STYLE.md): VK_CHECK for Vulkan calls that only fail when the
// driver or the machine is in trouble; they throw VulkanError, which main()
// reports in one line. User-caused problems (bad scene, no device) throw their
// own exception types with a message meant for the user.
// VK_CHECK_WHILE and VK_CHECK_FAULT name what was being done, for the results
// a healthy run can still meet (device lost, out of memory): "the GPU was
// lost (VK_ERROR_DEVICE_LOST) while waiting for frame 12". VK_CHECK_FAULT
// also lets VKSIM_FAULT (device_fault.h) fail the call at its site.
#include <cstdint>
#include <stdexcept>
#include <string>

#include <volk.h>

#include "vk/device_fault.h"

namespace vksim {

struct VulkanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// A Vulkan call failed while the engine was doing something it can name.
struct DeviceFault : VulkanError {
    DeviceFault(VkResult r, const std::string& message) : VulkanError(message), result(r) {}
    VkResult result;
};

const char* vkResultName(VkResult result);

// "64.0 MiB", "512 bytes": sizes in fault messages.
std::string formatBytes(uint64_t bytes);

// Throws DeviceFault: "<what the result means> (<result>) while <doing>".
[[noreturn]] void throwDeviceFault(VkResult result, const std::string& doing);

[[noreturn]] void throwVulkanError(VkResult result, const char* call, const char* file, int line);

}  // namespace vksim

#define VK_CHECK(call)                                                                    \
    do {                                                                                  \
        VkResult vk_check_result_ = (call);                                               \
        if (vk_check_result_ != VK_SUCCESS)                                               \
            ::vksim::throwVulkanError(vk_check_result_, #call, __FILE__, __LINE__);       \
    } while (0)

#define VK_CHECK_WHILE(call, doing)                                                             \
    do {                                                                                        \
        VkResult vk_check_result_ = (call);                                                     \
        if (vk_check_result_ != VK_SUCCESS) ::vksim::throwDeviceFault(vk_check_result_, doing); \
    } while (0)

// The call is not made when the fault injection fails it.
#define VK_CHECK_FAULT(site, call, doing)                                                       \
    do {                                                                                        \
        VkResult vk_check_result_ = ::vksim::injectedFault(site);                               \
        if (vk_check_result_ == VK_SUCCESS) vk_check_result_ = (call);                          \
        if (vk_check_result_ != VK_SUCCESS) ::vksim::throwDeviceFault(vk_check_result_, doing); \
    } while (0)
