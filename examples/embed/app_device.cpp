#include "app_device.h"

#include <cstring>
#include <iostream>
#include <vector>

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT,
                                         const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
    ++*static_cast<std::atomic<uint32_t>*>(user);
    const bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    std::cerr << (error ? "[vulkan error] " : "[vulkan warning] ") << data->pMessage << "\n";
    return VK_FALSE;
}

bool hasLayer(const char* name) {
    uint32_t count = 0;
    vkEnumerateInstanceLayerProperties(&count, nullptr);
    std::vector<VkLayerProperties> layers(count);
    vkEnumerateInstanceLayerProperties(&count, layers.data());
    for (const VkLayerProperties& layer : layers)
        if (std::strcmp(layer.layerName, name) == 0) return true;
    return false;
}

bool hasDeviceExtension(VkPhysicalDevice device, const char* name) {
    uint32_t count = 0;
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
    std::vector<VkExtensionProperties> extensions(count);
    vkEnumerateDeviceExtensionProperties(device, nullptr, &count, extensions.data());
    for (const VkExtensionProperties& extension : extensions)
        if (std::strcmp(extension.extensionName, name) == 0) return true;
    return false;
}

}  // namespace

void check(VkResult result, const char* what) {
    if (result != VK_SUCCESS) throw AppError(std::string(what) + " failed (VkResult " + std::to_string(result) + ")");
}

AppDevice::AppDevice(bool validation) : validation_(validation) {
    if (volkInitialize() != VK_SUCCESS) throw AppError("no Vulkan loader found (install libvulkan1)");
    try {
        createInstance();
        pickPhysicalDevice();
        createDevice();
    } catch (...) {
        release();
        throw;
    }
}

AppDevice::~AppDevice() { release(); }

void AppDevice::release() {
    if (device_) vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
    if (messenger_) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
    if (instance_) vkDestroyInstance(instance_, nullptr);
    instance_ = VK_NULL_HANDLE;
}

void AppDevice::createInstance() {
    if (volkGetInstanceVersion() < VK_API_VERSION_1_3) throw AppError("the Vulkan loader does not support Vulkan 1.3");
    std::vector<const char*> layers;
    std::vector<const char*> extensions;
    if (validation_) {
        if (!hasLayer(kValidationLayer))
            throw AppError("--validate needs VK_LAYER_KHRONOS_validation (Debian package vulkan-validationlayers)");
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    }
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "vksim_embed";
    app.apiVersion = VK_API_VERSION_1_3;

    VkDebugUtilsMessengerCreateInfoEXT messenger{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
    messenger.messageSeverity =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                            VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger.pfnUserCallback = onMessage;
    messenger.pUserData = &messages_;
    // Synchronization validation is off by default; it judges the barriers
    // between vksim's compute writes and this program's draw.
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
    VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, &messenger};
    features.enabledValidationFeatureCount = 1;
    features.pEnabledValidationFeatures = enables;

    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pNext = validation_ ? &features : nullptr;
    info.pApplicationInfo = &app;
    info.enabledLayerCount = static_cast<uint32_t>(layers.size());
    info.ppEnabledLayerNames = layers.data();
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    check(vkCreateInstance(&info, nullptr, &instance_), "vkCreateInstance");
    volkLoadInstanceOnly(instance_);
    if (validation_)
        check(vkCreateDebugUtilsMessengerEXT(instance_, &messenger, nullptr, &messenger_),
              "vkCreateDebugUtilsMessengerEXT");
}

// The first device with Vulkan 1.3, synchronization2, dynamic rendering and a
// graphics + compute queue with timestamps.
void AppDevice::pickPhysicalDevice() {
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(instance_, &count, nullptr);
    std::vector<VkPhysicalDevice> devices(count);
    vkEnumeratePhysicalDevices(instance_, &count, devices.data());
    for (VkPhysicalDevice device : devices) {
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(device, &props);
        VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
        VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};
        vkGetPhysicalDeviceFeatures2(device, &f2);
        if (props.apiVersion < VK_API_VERSION_1_3 || !f13.synchronization2 || !f13.dynamicRendering) continue;
        uint32_t familyCount = 0;
        vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nullptr);
        std::vector<VkQueueFamilyProperties> families(familyCount);
        vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, families.data());
        for (uint32_t i = 0; i < familyCount; ++i) {
            const VkQueueFlags needed = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
            if ((families[i].queueFlags & needed) != needed || families[i].timestampValidBits == 0) continue;
            physicalDevice_ = device;
            queueFamily_ = i;
            name_ = props.deviceName;
            return;
        }
    }
    throw AppError("no Vulkan 1.3 device with synchronization2, dynamic rendering and a graphics+compute queue");
}

void AppDevice::createDevice() {
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queueInfo{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    queueInfo.queueFamilyIndex = queueFamily_;
    queueInfo.queueCount = 1;
    queueInfo.pQueuePriorities = &priority;

    VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    f13.synchronization2 = VK_TRUE;  // vksim records its barriers with vkCmdPipelineBarrier2
    f13.dynamicRendering = VK_TRUE;  // this program's drawing
    VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &f13};

    std::vector<const char*> extensions;
    pushDescriptors_ = hasDeviceExtension(physicalDevice_, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
    if (pushDescriptors_) extensions.push_back(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);

    VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    info.pNext = &features;
    info.queueCreateInfoCount = 1;
    info.pQueueCreateInfos = &queueInfo;
    info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
    info.ppEnabledExtensionNames = extensions.data();
    check(vkCreateDevice(physicalDevice_, &info, nullptr, &device_), "vkCreateDevice");
    volkLoadDevice(device_);
    vkGetDeviceQueue(device_, queueFamily_, 0, &queue_);
}

vksim::AdoptedDevice AppDevice::adopted() const {
    vksim::AdoptedDevice adopted;
    adopted.instance = instance_;
    adopted.physicalDevice = physicalDevice_;
    adopted.device = device_;
    adopted.queueFamily = queueFamily_;
    adopted.queue = queue_;
    adopted.pushDescriptorsEnabled = pushDescriptors_;
    adopted.debugUtilsEnabled = validation_;  // VK_EXT_debug_utils is on with the layer
    return adopted;
}
