#include "vk/vk_check.h"

#include <fmt/format.h>

#include "vk/gpu_wait.h"

namespace vksim {

const char* vkResultName(VkResult result) {
    switch (result) {
#define VKSIM_RESULT(name) \
    case name:             \
        return #name;
        VKSIM_RESULT(VK_SUCCESS)
        VKSIM_RESULT(VK_NOT_READY)
        VKSIM_RESULT(VK_TIMEOUT)
        VKSIM_RESULT(VK_INCOMPLETE)
        VKSIM_RESULT(VK_SUBOPTIMAL_KHR)
        VKSIM_RESULT(VK_ERROR_OUT_OF_HOST_MEMORY)
        VKSIM_RESULT(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        VKSIM_RESULT(VK_ERROR_INITIALIZATION_FAILED)
        VKSIM_RESULT(VK_ERROR_DEVICE_LOST)
        VKSIM_RESULT(VK_ERROR_MEMORY_MAP_FAILED)
        VKSIM_RESULT(VK_ERROR_LAYER_NOT_PRESENT)
        VKSIM_RESULT(VK_ERROR_EXTENSION_NOT_PRESENT)
        VKSIM_RESULT(VK_ERROR_FEATURE_NOT_PRESENT)
        VKSIM_RESULT(VK_ERROR_INCOMPATIBLE_DRIVER)
        VKSIM_RESULT(VK_ERROR_TOO_MANY_OBJECTS)
        VKSIM_RESULT(VK_ERROR_FORMAT_NOT_SUPPORTED)
        VKSIM_RESULT(VK_ERROR_SURFACE_LOST_KHR)
        VKSIM_RESULT(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        VKSIM_RESULT(VK_ERROR_OUT_OF_DATE_KHR)
        VKSIM_RESULT(VK_ERROR_OUT_OF_POOL_MEMORY)
        VKSIM_RESULT(VK_ERROR_FRAGMENTED_POOL)
        VKSIM_RESULT(VK_ERROR_FRAGMENTATION)
        VKSIM_RESULT(VK_ERROR_INVALID_EXTERNAL_HANDLE)
        VKSIM_RESULT(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
        VKSIM_RESULT(VK_PIPELINE_COMPILE_REQUIRED)
        VKSIM_RESULT(VK_ERROR_UNKNOWN)
#undef VKSIM_RESULT
        default:
            return "VK_ERROR_(unknown)";
    }
}

std::string formatBytes(uint64_t bytes) {
    if (bytes < 1024) return fmt::format("{} bytes", bytes);
    const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes) / 1024.0;
    int unit = 0;
    for (; value >= 1024.0 && unit < 3; ++unit) value /= 1024.0;
    return fmt::format("{:.1f} {}", value, units[unit]);
}

void throwDeviceFault(VkResult result, const std::string& doing) {
    if (result == VK_TIMEOUT)
        throw DeviceFault(result, fmt::format("the GPU did not finish within {:g} s (VK_TIMEOUT) while {}; "
                                              "VKSIM_GPU_TIMEOUT=SECONDS sets the limit",
                                              gpuTimeoutSeconds(), doing));
    const char* meaning = result == VK_ERROR_DEVICE_LOST            ? "the GPU was lost"
                          : result == VK_ERROR_OUT_OF_DEVICE_MEMORY ? "out of device memory"
                          : result == VK_ERROR_OUT_OF_HOST_MEMORY   ? "out of host memory"
                          : result == VK_ERROR_MEMORY_MAP_FAILED    ? "device memory could not be mapped"
                                                                    : "a Vulkan call failed";
    throw DeviceFault(result, fmt::format("{} ({}) while {}", meaning, vkResultName(result), doing));
}

void throwVulkanError(VkResult result, const char* call, const char* file, int line) {
    // Results a healthy run can meet are said in words, naming the Vulkan
    // function; the rest are engine bugs, reported with their source line.
    if (result == VK_ERROR_DEVICE_LOST || result == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
        result == VK_ERROR_OUT_OF_HOST_MEMORY) {
        const std::string text = call;
        throwDeviceFault(result, "calling " + text.substr(0, text.find('(')));
    }
    throw VulkanError(fmt::format("Vulkan call failed with {} ({}:{}): {}", vkResultName(result),
                                  file, line, call));
}

}  // namespace vksim
