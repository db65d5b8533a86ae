#pragma once
// Error tiers (STYLE.md): VK_CHECK for Vulkan calls that only fail when the
// driver or the machine is in trouble; they throw VulkanError, which main()
// reports in one line. User-caused problems (bad scene, no device) throw their
// own exception types with a message meant for the user.
#include <stdexcept>
#include <string>

#include <volk.h>

namespace vksim {

struct VulkanError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* vkResultName(VkResult result);

[[noreturn]] void throwVulkanError(VkResult result, const char* call, const char* file, int line);

}  // namespace vksim

#define VK_CHECK(call)                                                                    \
    do {                                                                                  \
        VkResult vk_check_result_ = (call);                                               \
        if (vk_check_result_ != VK_SUCCESS)                                               \
            ::vksim::throwVulkanError(vk_check_result_, #call, __FILE__, __LINE__);       \
    } while (0)
