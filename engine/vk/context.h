#pragma once
// The Vulkan instance, the chosen physical device, the logical device and its
// one queue (graphics + compute, and present when a window needs it). All vk*
// calls go through volk. With validation on, the Khronos layer runs with
// synchronization validation and every warning or error it reports is printed
// and counted: tests and --validate fail on a non-zero count.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <volk.h>

#include "vk/compute_pipelines.h"

namespace vksim {

// A user-caused start-up failure (no device, unknown device selector, missing
// validation layer): reported as one line, non-zero exit.
struct DeviceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct ContextOptions {
    bool validation = false;
    std::string deviceSelector;                   // "" = best, "2" = index, else a name substring
    std::vector<const char*> instanceExtensions;  // e.g. what GLFW needs for a surface
    // When set, the context creates the surface right after the instance, and
    // only devices that can present to it are accepted.
    std::function<VkSurfaceKHR(VkInstance)> createSurface;
};

// An application's own Vulkan objects, for a context that adopts them
// (VulkanContext(const AdoptedDevice&)): the context does not own them and
// never destroys them; it creates only its own command pool. The device must
// have been created with:
//   - Vulkan 1.3 (instance apiVersion and device) with the synchronization2
//     feature enabled (VkPhysicalDeviceVulkan13Features::synchronization2);
//   - `queue` from `queueFamily`, a family with compute (vksim records compute
//     work into the application's command buffers and submits set-up work to
//     this queue) and timestampValidBits > 0 (World times its passes);
//   - optionally VK_KHR_push_descriptor: say so in pushDescriptorsEnabled,
//     else vksim binds from descriptor sets;
//   - optionally VK_EXT_debug_utils on the instance: say so in
//     debugUtilsEnabled, and vksim names its objects;
//   - optionally the Vulkan 1.3 features subgroupSizeControl and
//     computeFullSubgroups: say so in fullSubgroupsEnabled, and a CPU
//     driver's PBD cluster sweep synchronizes its invocations as one
//     subgroup (pbd/cluster_sweep_cpu.comp; the same results, faster).
// The application keeps the queue to itself between calls: vksim submits to
// it only inside World's constructor, reset(), pick() and read-backs, from the
// calling thread.
struct AdoptedDevice {
    VkInstance instance = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
    VkDevice device = VK_NULL_HANDLE;
    uint32_t queueFamily = 0;
    VkQueue queue = VK_NULL_HANDLE;
    bool pushDescriptorsEnabled = false;
    bool debugUtilsEnabled = false;
    bool fullSubgroupsEnabled = false;
};

struct DeviceInfo {
    uint32_t index = 0;
    std::string name;
    std::string type;     // "discrete GPU", "CPU", ...
    std::string apiVersion;
    std::string driver;   // driver name and info
    bool usable = false;
    std::string rejection;  // why it is not usable
};

struct ValidationCounts {
    std::atomic<uint32_t> errors{0};
    std::atomic<uint32_t> warnings{0};
    uint32_t total() const { return errors + warnings; }
};

class VulkanContext {
public:
    explicit VulkanContext(const ContextOptions& options);
    // Adopts an application's instance, device and queue (see AdoptedDevice).
    // Loads volk for them: volkInitialize() if the application has not, then
    // volkLoadInstanceOnly / volkLoadDevice unless volk already holds these
    // handles; volk's pointers are process-wide, so an application that uses
    // volk for another device must reload it after this. The validation
    // layer's messages go to the application's own messenger:
    // validationEnabled() is false and validationCounts() stay 0 here.
    // Throws DeviceError for null handles, a device below Vulkan 1.3 or a
    // queue family without compute or timestamps.
    explicit VulkanContext(const AdoptedDevice& adopted);
    ~VulkanContext();
    VulkanContext(const VulkanContext&) = delete;
    VulkanContext& operator=(const VulkanContext&) = delete;

    // Every device the loader reports, with the reason a device cannot be used.
    static std::vector<DeviceInfo> listDevices();

    VkInstance instance() const { return instance_; }
    VkPhysicalDevice physicalDevice() const { return physicalDevice_; }
    VkDevice device() const { return device_; }
    VkQueue queue() const { return queue_; }
    uint32_t queueFamily() const { return queueFamily_; }
    VkSurfaceKHR surface() const { return surface_; }
    VkCommandPool commandPool() const { return commandPool_; }
    const VkPhysicalDeviceProperties& properties() const { return properties_; }
    const DeviceInfo& deviceInfo() const { return deviceInfo_; }
    bool validationEnabled() const { return validation_; }
    // Optional features, enabled when the device has them.
    bool fillModeNonSolid() const { return fillModeNonSolid_; }
    bool largePoints() const { return largePoints_; }
    // VK_KHR_push_descriptor is enabled (compute_kernel.h binds with it).
    // VKSIM_NO_PUSH_DESCRIPTORS=1 in the environment turns it off, to test
    // the descriptor-set fallback on a device that has it.
    bool pushDescriptors() const { return pushDescriptors_; }
    // Whether a compute pipeline can require full subgroups of `size`
    // invocations (ComputeKernel's requiredSubgroupSize): Vulkan 1.3's
    // subgroupSizeControl and computeFullSubgroups are enabled, and `size`
    // is a subgroup size the device has for compute.
    bool canRequireSubgroupSize(uint32_t size) const;
    // Counts the validation layer's messages of a context vksim created
    // itself (ContextOptions::validation); always 0 for an adopted device.
    const ValidationCounts& validationCounts() const { return validationCounts_; }
    // False for a context that adopted the application's device.
    bool ownsDevice() const { return ownsDevice_; }

    // Debug-utils name shown by the validation layer and by capture tools.
    void setName(uint64_t handle, VkObjectType type, const std::string& name) const;
    template <typename Handle>
    void setName(Handle handle, VkObjectType type, const std::string& name) const {
        setName(reinterpret_cast<uint64_t>(handle), type, name);
    }

    // Records commands into a fresh command buffer, submits and waits. For
    // set-up and read-back only, never in the frame loop.
    void submitAndWait(const std::function<void(VkCommandBuffer)>& record) const;

    // Vulkan requires the queue and the command pool to be externally
    // synchronized. Where one context serves worlds on several threads (the
    // Python module's worlds on one device, each stepping with the GIL
    // released), every use of either takes this lock: submitAndWait, the
    // command buffers' allocation and freeing, the wait before teardown.
    // Recursive: a recording inside submitAndWait may allocate.
    std::unique_lock<std::recursive_mutex> lockQueue() const { return std::unique_lock(queueMutex_); }

    uint32_t findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const;

    // A wait for the GPU timed out (gpu_wait.h): the device may be slow or
    // may never finish. Teardown then must not block on it for good.
    void markUnresponsive() const { gpuState_ = GpuState::Unresponsive; }
    bool unresponsive() const { return gpuState_ != GpuState::Responsive; }
    // What destructors call before freeing what the GPU may use. Normally
    // vkDeviceWaitIdle. After a timeout, one more wait with a time limit
    // (drainQueue): a GPU that was only slow finishes and teardown is safe;
    // one that does not is abandoned, later calls return at once, and the
    // device is not destroyed (that could block too).
    void waitIdleForTeardown() const;

    // Every compute pipeline built on this context, each once
    // (vk/compute_pipelines.h); ComputeKernel asks it for its own.
    ComputePipelines& computePipelines() const { return *computePipelines_; }

private:
    void createInstance(const ContextOptions& options);
    void pickPhysicalDevice(const std::string& selector);
    void createDevice();
    void readPhysicalDevice(uint32_t index);
    void createCommandPool();
    void loadDebugUtils();
    void destroy();

    bool ownsDevice_ = true;
    enum class GpuState { Responsive, Unresponsive, Abandoned };
    mutable std::atomic<GpuState> gpuState_{GpuState::Responsive};
    bool validation_ = false;
    bool debugUtils_ = false;
    bool fillModeNonSolid_ = false;
    bool largePoints_ = false;
    bool pushDescriptors_ = false;
    bool fullSubgroups_ = false;  // subgroupSizeControl and computeFullSubgroups enabled
    VkPhysicalDeviceVulkan13Properties properties13_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    VkInstance instance_ = VK_NULL_HANDLE;
    VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
    VkSurfaceKHR surface_ = VK_NULL_HANDLE;
    VkPhysicalDevice physicalDevice_ = VK_NULL_HANDLE;
    VkPhysicalDeviceProperties properties_{};
    VkPhysicalDeviceMemoryProperties memoryProperties_{};
    DeviceInfo deviceInfo_;
    VkDevice device_ = VK_NULL_HANDLE;
    VkQueue queue_ = VK_NULL_HANDLE;
    uint32_t queueFamily_ = 0;
    VkCommandPool commandPool_ = VK_NULL_HANDLE;
    ValidationCounts validationCounts_;
    // This instance's debug-utils functions. volk's pointers are
    // process-wide and hold the instance loaded last, which may lack the
    // extension (listDevices' instance) or be gone: a context that outlives
    // another's creation calls its own.
    PFN_vkSetDebugUtilsObjectNameEXT setObjectName_ = nullptr;
    PFN_vkDestroyDebugUtilsMessengerEXT destroyMessenger_ = nullptr;
    mutable std::recursive_mutex queueMutex_;
    std::unique_ptr<ComputePipelines> computePipelines_ = std::make_unique<ComputePipelines>();
};

}  // namespace vksim
