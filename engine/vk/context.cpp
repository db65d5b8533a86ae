#include "vk/context.h"

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string_view>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "vk/driver_crash.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {
namespace {

// VKSIM_MAX_WORKGROUP_COUNT=N makes the context report at most N workgroups
// a dispatch (maxComputeWorkGroupCount), so that the paths for a dispatch
// past the limit (ComputeKernel's slices, the indirect counts kept within
// it, the contact grids' direct build) run on small scenes: a real device
// needs millions of elements to reach its limit (docs/testing.md).
void lowerWorkgroupCountFromEnvironment(VkPhysicalDeviceLimits& limits) {
    const char* value = std::getenv("VKSIM_MAX_WORKGROUP_COUNT");
    if (!value || !*value) return;
    const std::string_view text(value);
    uint32_t count = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (ec != std::errc() || end != text.data() + text.size() || count == 0)
        throw DeviceError(fmt::format("VKSIM_MAX_WORKGROUP_COUNT '{:.80}' is not a whole number of workgroups from 1 "
                                      "to 4294967295",
                                      value));
    for (uint32_t& limit : limits.maxComputeWorkGroupCount) limit = std::min(limit, count);
}

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";
constexpr uint32_t kRequiredApi = VK_API_VERSION_1_3;

void initVolkOnce() {
    static const VkResult result = volkInitialize();
    if (result != VK_SUCCESS)
        throw DeviceError("no Vulkan loader found (install libvulkan1 and a driver, e.g. mesa-vulkan-drivers)");
}

// vkCreateInstance, with the loader's answer when it finds no driver said in
// words (it was printed as the call's text and a source line). Under an
// address-space limit (ulimit -v) the loader drops a driver that ran out of
// memory while starting and reports no driver or no device: the note says
// that memory may be the reason.
VkInstance newInstance(const VkInstanceCreateInfo& info) {
    VkInstance instance = VK_NULL_HANDLE;
    const DriverCall call("creating the Vulkan instance");
    const VkResult result = vkCreateInstance(&info, nullptr, &instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
        throw DeviceError("no Vulkan driver found (install mesa-vulkan-drivers or your GPU's driver)" +
                          driverMemoryNote());
    VK_CHECK_WHILE(result, "creating the Vulkan instance");
    return instance;
}

VKAPI_ATTR VkBool32 VKAPI_CALL onValidationMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                   VkDebugUtilsMessageTypeFlagsEXT,
                                                   const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                   void* user) {
    auto* counts = static_cast<ValidationCounts*>(user);
    const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    (error ? counts->errors : counts->warnings)++;
    std::cerr << (error ? "[vulkan error] " : "[vulkan warning] ") << data->pMessage << "\n";
    return VK_FALSE;
}

VkDebugUtilsMessengerCreateInfoEXT messengerInfo(ValidationCounts* counts) {
    VkDebugUtilsMessengerCreateInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    info.pfnUserCallback = onValidationMessage;
    info.pUserData = counts;
    return info;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    return std::any_of(layers.begin(), layers.end(),
                       [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

bool hasInstanceExtension(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data());
    return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
    return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
        return std::strcmp(e.extensionName, name) == 0;
    });
}

const char* deviceTypeName(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
        default: return "other";
    }
}

int devicePreference(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
        default: return 0;
    }
}

std::string versionString(uint32_t v) {
    return fmt::format("{}.{}.{}", VK_API_VERSION_MAJOR(v), VK_API_VERSION_MINOR(v), VK_API_VERSION_PATCH(v));
}

// Why `device` cannot run vksim ("" if it can); also finds the queue family.
std::string checkDevice(VkPhysicalDevice device, VkSurfaceKHR surface, uint32_t* familyOut) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(device, &props);
    if (props.apiVersion < kRequiredApi)
        return fmt::format("supports Vulkan {}, vksim needs 1.3", versionString(props.apiVersion));

    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
    vkGetPhysicalDeviceFeatures2(device, &f2);
    if (!f13.synchronization2) return "no synchronization2 feature";
    if (surface && !f13.dynamicRendering) return "no dynamicRendering feature";
    if (surface && !hasDeviceExtension(device, VK_KHR_SWAPCHAIN_EXTENSION_NAME)) return "no swapchain support";

    uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
    const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    bool sawGraphicsCompute = false;
    for (uint32_t i = 0; i < count; ++i) {
        if ((families[i].queueFlags & needed) != needed) continue;
        sawGraphicsCompute = true;
        if (families[i].timestampValidBits == 0) continue;
        if (surface) {
            VkBool32 present = VK_FALSE;
            vkGetPhysicalDeviceSurfaceSupportKHR(device, i, surface, &present);
            if (!present) continue;
        }
        *familyOut = i;
        return "";
    }
    if (!sawGraphicsCompute) return "no queue family with both graphics and compute";
    return surface ? "no graphics+compute queue with timestamps that can present to the window"
                   : "no graphics+compute queue with timestamp support";
}

// vkEnumeratePhysicalDevices, a failure said in words. Under a small
// ulimit -v lavapipe fails to start with VK_ERROR_INITIALIZATION_FAILED,
// which was reported as "no Vulkan device found".
void enumerateDevices(VkInstance instance, uint32_t& count, VkPhysicalDevice* devices) {
    const DriverCall call("listing the Vulkan devices");
    const VkResult result = vkEnumeratePhysicalDevices(instance, &count, devices);
    if (result == VK_SUCCESS || result == VK_INCOMPLETE) return;
    if (result == VK_ERROR_INITIALIZATION_FAILED)
        throw DeviceError("the Vulkan driver failed to start (VK_ERROR_INITIALIZATION_FAILED while listing the "
                          "devices)" + driverMemoryNote());
    throwDeviceFault(result, "listing the Vulkan devices");
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
}

}  // namespace

std::vector<DeviceInfo> VulkanContext::listDevices() {
    initVolkOnce();
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = kRequiredApi;
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    VkInstance instance = newInstance(info);
    volkLoadInstanceOnly(instance);
    uint32_t count = 0;
    enumerateDevices(instance, count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    enumerateDevices(instance, count, devices.data());
    std::vector<DeviceInfo> result;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
        vkGetPhysicalDeviceProperties2(devices[i], &props);
        DeviceInfo d;
        d.index = i;
        d.name = props.properties.deviceName;
        d.type = deviceTypeName(props.properties.deviceType);
        d.apiVersion = versionString(props.properties.apiVersion);
        d.driver = fmt::format("{} {}", driver.driverName, driver.driverInfo);
        uint32_t family = 0;
        d.rejection = checkDevice(devices[i], VK_NULL_HANDLE, &family);
        d.usable = d.rejection.empty();
        result.push_back(d);
    }
    vkDestroyInstance(instance, nullptr);
    return result;
}

VulkanContext::VulkanContext(const ContextOptions& options) : validation_(options.validation) {
    armFaultFromEnvironment();  // a bad VKSIM_FAULT is refused before any device work
    gpuTimeoutSeconds();        // and a bad VKSIM_GPU_TIMEOUT
    initVolkOnce();
    try {
        createInstance(options);
        if (options.createSurface) surface_ = options.createSurface(instance_);
        pickPhysicalDevice(options.deviceSelector);
        createDevice();
    } catch (...) {
        destroy();
        throw;
    }
}

VulkanContext::VulkanContext(const AdoptedDevice& adopted) : ownsDevice_(false) {
    if (!adopted.instance || !adopted.physicalDevice || !adopted.device || !adopted.queue)
        throw DeviceError("an adopted Vulkan device needs its instance, physical device, device and queue");
    if (volkGetInstanceVersion() == 0) initVolkOnce();  // 0: nobody has called volkInitialize yet
    // volk's pointers are global: load them only when they are not already
    // these handles' (an application using volk may have loaded them).
    if (volkGetLoadedInstance() != adopted.instance) volkLoadInstanceOnly(adopted.instance);
    if (volkGetLoadedDevice() != adopted.device) volkLoadDevice(adopted.device);

    instance_ = adopted.instance;
    physicalDevice_ = adopted.physicalDevice;
    device_ = adopted.device;
    queue_ = adopted.queue;
    queueFamily_ = adopted.queueFamily;
    pushDescriptors_ = adopted.pushDescriptorsEnabled;
    debugUtils_ = adopted.debugUtilsEnabled;
    if (debugUtils_) loadDebugUtils();
    fullSubgroups_ = adopted.fullSubgroupsEnabled;

    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    const auto found = std::find(devices.begin(), devices.end(), physicalDevice_);
    if (found == devices.end()) throw DeviceError("the adopted physical device does not belong to the adopted instance");
    readPhysicalDevice(static_cast<uint32_t>(found - devices.begin()));
    if (properties_.apiVersion < kRequiredApi)
        throw DeviceError(fmt::format("the adopted device supports Vulkan {}, vksim needs 1.3",
                                      versionString(properties_.apiVersion)));

    uint32_t familyCount = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, nullptr);
    std::vector<VkQueueFamilyProperties> families(familyCount);
    vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice_, &familyCount, families.data());
    if (queueFamily_ >= familyCount)
        throw DeviceError(fmt::format("the adopted queue family {} does not exist", queueFamily_));
    if (!(families[queueFamily_].queueFlags & VK_QUEUE_COMPUTE_BIT))
        throw DeviceError(fmt::format("the adopted queue family {} has no compute", queueFamily_));
    if (families[queueFamily_].timestampValidBits == 0)
        throw DeviceError(fmt::format("the adopted queue family {} has no timestamps", queueFamily_));
    createCommandPool();
}

VulkanContext::~VulkanContext() { destroy(); }

void VulkanContext::destroy() {
    if (!ownsDevice_) {
        // The application's objects stay; only ours go: the pipelines (every
        // World on this context is gone) and the pool. Every command buffer
        // from it was waited for in submitAndWait.
        if (gpuState_ != GpuState::Abandoned && device_) computePipelines_->destroy(device_);
        if (commandPool_) vkDestroyCommandPool(device_, commandPool_, nullptr);
        commandPool_ = VK_NULL_HANDLE;
        return;
    }
    waitIdleForTeardown();
    if (gpuState_ == GpuState::Abandoned) return;  // the process is ending; destroying could hang as the wait did
    if (device_) {
        computePipelines_->destroy(device_);
        if (commandPool_) vkDestroyCommandPool(device_, commandPool_, nullptr);
        vkDestroyDevice(device_, nullptr);
        device_ = VK_NULL_HANDLE;
    }
    if (surface_) vkDestroySurfaceKHR(instance_, surface_, nullptr);
    surface_ = VK_NULL_HANDLE;
    if (messenger_) destroyMessenger_(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (instance_) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
}

void VulkanContext::createInstance(const ContextOptions& options) {
    uint32_t loaderVersion = 0;
    vkEnumerateInstanceVersion(&loaderVersion);
    if (loaderVersion < kRequiredApi)
        throw DeviceError(fmt::format("the Vulkan loader supports {}, vksim needs 1.3", versionString(loaderVersion)));

    std::vector<const char*> extensions = options.instanceExtensions;
    std::vector<const char*> layers;
    debugUtils_ = hasInstanceExtension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (debugUtils_) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    if (validation_) {
        if (!hasLayer(kValidationLayer))
            throw DeviceError("validation requested but VK_LAYER_KHRONOS_validation is not installed "
                              "(Debian package vulkan-validationlayers)");
        if (!debugUtils_) throw DeviceError("validation requested but VK_EXT_debug_utils is not available");
        layers.push_back(kValidationLayer);
    }

    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksim";
    app.pEngineName = "vksim";
    app.apiVersion = kRequiredApi;

    // Synchronization validation is off by default in the layer; it is the
    // judge of every barrier in the engine, so turn it on.
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;
    // Chained so that instance creation and destruction are validated too.
    VkDebugUtilsMessengerCreateInfoEXT messenger = messengerInfo(&validationCounts_);
    features.pNext = &messenger;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    if (validation_) info.pNext = &features;
    instance_ = newInstance(info);
    volkLoadInstanceOnly(instance_);
    if (debugUtils_) loadDebugUtils();
    if (validation_) VK_CHECK(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_));
}

void VulkanContext::loadDebugUtils() {
    setObjectName_ = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetInstanceProcAddr(instance(), "vkSetDebugUtilsObjectNameEXT"));
    destroyMessenger_ = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance(), "vkDestroyDebugUtilsMessengerEXT"));
}

void VulkanContext::pickPhysicalDevice(const std::string& selector) {
    uint32_t count = 0;
    enumerateDevices(instance_, count, nullptr);
    if (count == 0)
        throw DeviceError("no Vulkan device found (install mesa-vulkan-drivers for the CPU device lavapipe)" +
                          driverMemoryNote());
    std::vector<VkPhysicalDevice> devices(count);
    enumerateDevices(instance_, count, devices.data());

    const bool byIndex = !selector.empty() && std::all_of(selector.begin(), selector.end(), ::isdigit);
    int best = -1;
    int bestScore = -1;
    std::vector<std::string> rejected;
    for (uint32_t i = 0; i < count; ++i) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(devices[i], &props);
        // An index too large for any device matches none (std::stoul threw
        // there, and its what() is just "stoul").
        uint64_t index = 0;
        if (byIndex && (std::from_chars(selector.data(), selector.data() + selector.size(), index).ec != std::errc() ||
                        index != i))
            continue;
        if (!byIndex && !selector.empty() && lower(props.deviceName).find(lower(selector)) == std::string::npos)
            continue;
        uint32_t family = 0;
        std::string why = checkDevice(devices[i], surface_, &family);
        if (!why.empty()) {
            rejected.push_back(fmt::format("device {} ({}): {}", i, props.deviceName, why));
            continue;
        }
        int score = devicePreference(props.deviceType);
        if (score > bestScore) {
            best = static_cast<int>(i);
            bestScore = score;
            queueFamily_ = family;
        }
    }
    if (best < 0) {
        std::string reasons;
        for (const std::string& r : rejected) reasons += "; " + r;
        if (!selector.empty() && rejected.empty())
            throw DeviceError(
                fmt::format("no Vulkan device matches --device {} (see --list-devices)", quoteArgument(selector)));
        throw DeviceError(fmt::format("no usable Vulkan device{}", reasons));
    }
    physicalDevice_ = devices[best];
    readPhysicalDevice(static_cast<uint32_t>(best));
}

// properties_, memoryProperties_ and deviceInfo_ of physicalDevice_, the
// index-th device of the instance.
void VulkanContext::readPhysicalDevice(uint32_t index) {
    vkGetPhysicalDeviceProperties(physicalDevice_, &properties_);
    lowerWorkgroupCountFromEnvironment(properties_.limits);
    vkGetPhysicalDeviceMemoryProperties(physicalDevice_, &memoryProperties_);
    VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    properties13_ = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
    driver.pNext = &properties13_;
    VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driver};
    vkGetPhysicalDeviceProperties2(physicalDevice_, &props2);
    properties13_.pNext = nullptr;
    deviceInfo_.index = index;
    deviceInfo_.name = properties_.deviceName;
    deviceInfo_.type = deviceTypeName(properties_.deviceType);
    deviceInfo_.apiVersion = versionString(properties_.apiVersion);
    deviceInfo_.driver = fmt::format("{} {}", driver.driverName, driver.driverInfo);
    deviceInfo_.usable = true;
}

void VulkanContext::createDevice() {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    VkPhysicalDeviceFeatures supported;
    vkGetPhysicalDeviceFeatures(physicalDevice_, &supported);
    VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 supported2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported13};
    vkGetPhysicalDeviceFeatures2(physicalDevice_, &supported2);
    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.synchronization2 = VK_TRUE;
    // Required for a window; headless runs use it for --screenshot's offscreen drawing.
    f13.dynamicRendering = surface_ ? VK_TRUE : supported13.dynamicRendering;
    // Optional: the CPU cluster sweep as one subgroup (canRequireSubgroupSize).
    f13.subgroupSizeControl = supported13.subgroupSizeControl;
    f13.computeFullSubgroups = supported13.computeFullSubgroups;
    fullSubgroups_ = supported13.subgroupSizeControl && supported13.computeFullSubgroups;
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
    // Optional: the wireframe and particle display modes.
    features.features.fillModeNonSolid = supported.fillModeNonSolid;
    features.features.largePoints = supported.largePoints;
    fillModeNonSolid_ = supported.fillModeNonSolid;
    largePoints_ = supported.largePoints;

    std::vector<const char*> extensions;
    if (surface_) extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    // Optional: compute kernels bind their buffers per dispatch with push
    // descriptors where the device has them, else from cached sets.
    pushDescriptors_ = hasDeviceExtension(physicalDevice_, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME) &&
                       !std::getenv("VKSIM_NO_PUSH_DESCRIPTORS");
    if (pushDescriptors_) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);

    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    VkResult result = VK_SUCCESS;
    {
        const DriverCall call("creating the device");
        result = vkCreateDevice(physicalDevice_, &info, nullptr, &device_);
    }
    // Under a small ulimit -v lavapipe fails here with VK_ERROR_UNKNOWN as
    // well as with VK_ERROR_OUT_OF_HOST_MEMORY.
    if (result == VK_ERROR_UNKNOWN || result == VK_ERROR_INITIALIZATION_FAILED)
        throw DeviceError(fmt::format("the Vulkan driver could not create the device ({}){}", vkResultName(result),
                                      driverMemoryNote()));
    VK_CHECK_WHILE(result, "creating the device");
    // volk's pointers are process-wide. The device functions are the
    // loader's, which dispatch on the handle they are given, not this
    // device's own (volkLoadDevice): several contexts may live in one
    // process (Python's worlds, each with its own), and a context destroyed
    // before another must not leave the other calling into its device.
    volkLoadInstance(instance_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
    createCommandPool();
}

bool VulkanContext::canRequireSubgroupSize(uint32_t size) const {
    return fullSubgroups_ && (properties13_.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT) != 0 &&
           properties13_.minSubgroupSize <= size && size <= properties13_.maxSubgroupSize;
}

void VulkanContext::createCommandPool() {
    VkCommandPoolCreateInfo poolInfo{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    poolInfo.queueFamilyIndex = queueFamily_;
    VK_CHECK(vkCreateCommandPool(device_, &poolInfo, nullptr, &commandPool_));
    setName(commandPool_, VK_OBJECT_TYPE_COMMAND_POOL, "main command pool");
}

void VulkanContext::setName(uint64_t handle, VkObjectType type, const std::string& name) const {
    if (!setObjectName_) return;
    VkDebugUtilsObjectNameInfoEXT info{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    info.objectType = type;
    info.objectHandle = handle;
    info.pObjectName = name.c_str();
    setObjectName_(device_, &info);
}

void VulkanContext::waitIdleForTeardown() const {
    if (!device_ || gpuState_ == GpuState::Abandoned) return;
    const auto lock = lockQueue();
    if (gpuState_ == GpuState::Responsive) {
        vkDeviceWaitIdle(device_);
        return;
    }
    gpuState_ = drainQueue(*this) ? GpuState::Responsive : GpuState::Abandoned;
    if (gpuState_ == GpuState::Abandoned) markGpuAbandoned();
}

void VulkanContext::submitAndWait(const std::function<void(VkCommandBuffer)>& record) const {
    const auto lock = lockQueue();
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = commandPool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VK_CHECK(vkAllocateCommandBuffers(device_, &alloc, &cmd));
    VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_CHECK(vkBeginCommandBuffer(cmd, &begin));
    record(cmd);
    VK_CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &cmd;
    VK_CHECK_FAULT(FaultSite::Submit, vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), "submitting set-up work");
    waitForQueue(*this, "waiting for set-up work");
    vkFreeCommandBuffers(device_, commandPool_, 1, &cmd);
}

uint32_t VulkanContext::findMemoryType(uint32_t typeBits, VkMemoryPropertyFlags required) const {
    for (uint32_t i = 0; i < memoryProperties_.memoryTypeCount; ++i)
        if ((typeBits & (1u << i)) && (memoryProperties_.memoryTypes[i].propertyFlags & required) == required)
            return i;
    throw VulkanError("no memory type with the required properties");
}

}  // namespace vksim
