#pragma once
// The application's own Vulkan instance, device and queue, as a renderer
// would create them before it knows about vksim: Vulkan 1.3 with
// synchronization2 (vksim needs it) and dynamic rendering (this example's
// drawing needs it), VK_KHR_push_descriptor where the device has it. Calls go
// through volk, the loader vksim's headers bring. With validation, the
// Khronos layer runs with synchronization validation and this class counts
// its messages: vksim's adopted context leaves validation to the application.
#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <volk.h>

#include "vk/context.h"

class AppDevice {
public:
    explicit AppDevice(bool validation);
    ~AppDevice();
    AppDevice(const AppDevice&) = delete;
    AppDevice& operator=(const AppDevice&) = delete;

    // What vksim::VulkanContext(const AdoptedDevice&) takes.
    vksim::AdoptedDevice adopted() const;

    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    const std::string& name() const { return name_; }
    uint32_t validationMessages() const { return messages_; }

private:
    void createInstance();
    void pickPhysicalDevice();
    void createDevice();
    void release();

    bool validation_;
    bool pushDescriptors_ = false;
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    std::string name_;
    std::atomic<uint32_t> messages_{0};
};

// A failed Vulkan call or a missing requirement: one line, exit 1.
struct AppError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void check(VkResult result, const char* what);
