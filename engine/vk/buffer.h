#pragma once
// A VkBuffer with its own memory, one owner, and a debug name. Device-local
// buffers hold simulation state; host-visible ones are for read-back and
// small per-frame uploads. Uploads to device-local memory go through a
// staging buffer in VulkanContext::submitAndWait (set-up time only).
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

namespace vksim {

class VulkanContext;

enum class MemoryKind { DeviceLocal, HostVisible };

class GpuBuffer {
public:
    // Every texel view a kernel binds is of 4 x 32-bit texels (vk/spirv_reflect.h).
    static constexpr VkDeviceSize kTexelBytes = 16;

    GpuBuffer() = default;
    GpuBuffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind memory,
              const std::string& name);
    ~GpuBuffer();
    GpuBuffer(GpuBuffer&& other) noexcept;
    GpuBuffer& operator=(GpuBuffer&& other) noexcept;
    GpuBuffer(const GpuBuffer&) = delete;
    GpuBuffer& operator=(const GpuBuffer&) = delete;

    VkBuffer handle() const { return buffer_; }
    VkDeviceSize size() const { return size_; }
    const std::string& name() const { return name_; }
    explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }

    // Host-visible buffers only: the persistently mapped memory.
    void* mapped() const { return mapped_; }

    // A view of the whole buffer as texels of `format` (4 x 32 bits), made
    // the first time a kernel binds the buffer as a texel buffer and kept
    // with it. The buffer must have been made with the texel usage the
    // binding needs; throws if it has more texels than the device's
    // maxTexelBufferElements.
    VkBufferView texelView(VkFormat format) const;

    // Copies bytes into the buffer at offset (staging for device-local memory).
    void upload(std::span<const std::byte> bytes, VkDeviceSize offset = 0);
    template <typename T>
    void uploadArray(std::span<const T> values, VkDeviceSize offset = 0) {
        upload(std::as_bytes(values), offset);
    }

    // Copies the whole buffer back to the host (waits for the queue to idle).
    std::vector<std::byte> download() const;
    template <typename T>
    std::vector<T> downloadArray() const {
        std::vector<std::byte> bytes = download();
        std::vector<T> values(bytes.size() / sizeof(T));
        std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
        return values;
    }

private:
    void release();

    const VulkanContext* ctx_ = nullptr;
    VkBuffer buffer_ = VK_NULL_HANDLE;
    VkDeviceMemory memory_ = VK_NULL_HANDLE;
    VkDeviceSize allocationBytes_ = 0;  // of memory_ (at least size_)
    VkDeviceSize size_ = 0;
    MemoryKind memoryKind_ = MemoryKind::DeviceLocal;
    void* mapped_ = nullptr;
    std::string name_;
    mutable std::vector<std::pair<VkFormat, VkBufferView>> texelViews_;
};

// A device-local storage buffer holding `values` (at least 16 bytes, so empty
// constraint families still bind a valid buffer).
template <typename T>
GpuBuffer makeStorageBuffer(const VulkanContext& ctx, std::span<const T> values, const std::string& name,
                            VkBufferUsageFlags extraUsage = 0) {
    VkDeviceSize size = std::max<VkDeviceSize>(16, values.size_bytes());
    GpuBuffer buffer(ctx, size,
                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                         VK_BUFFER_USAGE_TRANSFER_SRC_BIT | extraUsage,
                     MemoryKind::DeviceLocal, name);
    if (!values.empty()) buffer.uploadArray(values);
    return buffer;
}

}  // namespace vksim
