#include "vk/buffer.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/device_memory_count.h"
#include "vk/gpu_wait.h"
#include "vk/vk_check.h"

namespace vksim {

GpuBuffer::GpuBuffer(const VulkanContext& ctx, VkDeviceSize size, VkBufferUsageFlags usage, MemoryKind memory,
                     const std::string& name)
    : ctx_(&ctx), size_(size), memoryKind_(memory), name_(name) {
    // Vulkan has no buffer of 0 bytes (VUID-VkBufferCreateInfo-size-00912):
    // drivers crash on one (lavapipe did, on a read-back of no particles).
    // Whoever has nothing to hold makes no buffer.
    if (size == 0)
        throw std::logic_error(fmt::format("allocating \"{}\": a buffer of 0 bytes; nothing to hold makes no buffer",
                                           name));
    const auto allocating = [&] { return fmt::format("allocating \"{}\" ({})", name, formatBytes(size)); };
    try {
        VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        info.size = size;
        info.usage = usage;
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
        VK_CHECK_WHILE(vkCreateBuffer(ctx.device(), &info, nullptr, &buffer_), allocating());
        ctx.setName(buffer_, VK_OBJECT_TYPE_BUFFER, name);

        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(ctx.device(), buffer_, &req);
        VkMemoryPropertyFlags props = memory == MemoryKind::DeviceLocal
                                          ? VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
                                          : VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        VkMemoryAllocateInfo alloc{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        alloc.allocationSize = req.size;
        alloc.memoryTypeIndex = ctx.findMemoryType(req.memoryTypeBits, props);
        VK_CHECK_FAULT(FaultSite::Alloc, vkAllocateMemory(ctx.device(), &alloc, nullptr, &memory_), allocating());
        allocationBytes_ = req.size;
        countDeviceAllocation(allocationBytes_);
        ctx.setName(memory_, VK_OBJECT_TYPE_DEVICE_MEMORY, name + " memory");
        VK_CHECK_WHILE(vkBindBufferMemory(ctx.device(), buffer_, memory_, 0), allocating());
        if (memory == MemoryKind::HostVisible)
            VK_CHECK_FAULT(FaultSite::Map, vkMapMemory(ctx.device(), memory_, 0, VK_WHOLE_SIZE, 0, &mapped_),
                           fmt::format("mapping \"{}\" ({})", name, formatBytes(size)));
    } catch (...) {
        release();  // no destructor runs for a half-built buffer
        throw;
    }
}

GpuBuffer::~GpuBuffer() { release(); }

GpuBuffer::GpuBuffer(GpuBuffer&& other) noexcept { *this = std::move(other); }

GpuBuffer& GpuBuffer::operator=(GpuBuffer&& other) noexcept {
    if (this != &other) {
        release();
        ctx_ = std::exchange(other.ctx_, nullptr);
        buffer_ = std::exchange(other.buffer_, VK_NULL_HANDLE);
        memory_ = std::exchange(other.memory_, VK_NULL_HANDLE);
        allocationBytes_ = std::exchange(other.allocationBytes_, 0);
        size_ = std::exchange(other.size_, 0);
        memoryKind_ = other.memoryKind_;
        mapped_ = std::exchange(other.mapped_, nullptr);
        name_ = std::move(other.name_);
        texelViews_ = std::move(other.texelViews_);
        other.texelViews_.clear();
    }
    return *this;
}

void GpuBuffer::release() {
    if (!ctx_) return;
    if (!gpuAbandoned()) {  // else the GPU may still use it: leaked (gpu_wait.h)
        for (const auto& [format, view] : texelViews_) vkDestroyBufferView(ctx_->device(), view, nullptr);
        if (buffer_) vkDestroyBuffer(ctx_->device(), buffer_, nullptr);
        if (memory_) {
            vkFreeMemory(ctx_->device(), memory_, nullptr);
            countDeviceFree(allocationBytes_);
        }
    }
    texelViews_.clear();
    allocationBytes_ = 0;
    buffer_ = VK_NULL_HANDLE;
    memory_ = VK_NULL_HANDLE;
    mapped_ = nullptr;
    ctx_ = nullptr;
}

VkBufferView GpuBuffer::texelView(VkFormat format) const {
    for (const auto& [f, view] : texelViews_)
        if (f == format) return view;
    const VkDeviceSize texels = size_ / kTexelBytes;
    const uint32_t limit = ctx_->properties().limits.maxTexelBufferElements;
    if (texels > limit)
        throw VulkanError(fmt::format("\"{}\" holds {} texels; the device's texel buffers hold at most {}", name_,
                                      texels, limit));
    VkBufferViewCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
    info.buffer = buffer_;
    info.format = format;
    info.offset = 0;
    info.range = texels * kTexelBytes;
    VkBufferView view = VK_NULL_HANDLE;
    VK_CHECK(vkCreateBufferView(ctx_->device(), &info, nullptr, &view));
    ctx_->setName(view, VK_OBJECT_TYPE_BUFFER_VIEW, name_);
    texelViews_.emplace_back(format, view);
    return view;
}

void GpuBuffer::upload(std::span<const std::byte> bytes, VkDeviceSize offset) {
    if (bytes.empty()) return;
    if (offset + bytes.size() > size_)
        throw VulkanError("upload of " + std::to_string(bytes.size()) + " bytes overflows buffer '" + name_ + "'");
    if (memoryKind_ == MemoryKind::HostVisible) {
        std::memcpy(static_cast<std::byte*>(mapped_) + offset, bytes.data(), bytes.size());
        return;
    }
    GpuBuffer staging(*ctx_, bytes.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::HostVisible,
                      name_ + " staging");
    std::memcpy(staging.mapped(), bytes.data(), bytes.size());
    ctx_->submitAndWait([&](VkCommandBuffer cmd) {
        // Earlier submissions may still read this buffer (a live edit between
        // frames): the copy waits for them (write-after-read).
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
        VkBufferCopy region{0, offset, bytes.size()};
        vkCmdCopyBuffer(cmd, staging.handle(), buffer_, 1, &region);
        // Later submissions read (and write) the buffer from any stage.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
    });
}

std::vector<std::byte> GpuBuffer::download() const {
    std::vector<std::byte> bytes(size_);
    if (memoryKind_ == MemoryKind::HostVisible) {
        waitForQueue(*ctx_, fmt::format("waiting to read back \"{}\"", name_));
        std::memcpy(bytes.data(), mapped_, size_);
        return bytes;
    }
    GpuBuffer staging(*ctx_, size_, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible,
                      name_ + " read-back");
    ctx_->submitAndWait([&](VkCommandBuffer cmd) {
        // Earlier submissions wrote this buffer from shaders: make those
        // writes available to the copy.
        memoryBarrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                      VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
        VkBufferCopy region{0, 0, size_};
        vkCmdCopyBuffer(cmd, buffer_, staging.handle(), 1, &region);
        // Make the copy's writes visible to the host read below.
        transferToHostBarrier(cmd);
    });
    std::memcpy(bytes.data(), staging.mapped(), size_);
    return bytes;
}

}  // namespace vksim
