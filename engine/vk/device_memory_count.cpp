#include "vk/device_memory_count.h"

#include <atomic>

namespace vksim {
namespace {
std::atomic<uint64_t> bytesInUse{0};
std::atomic<uint64_t> allocationsInUse{0};
}  // namespace

DeviceMemoryInUse deviceMemoryInUse() { return {bytesInUse.load(), allocationsInUse.load()}; }

void countDeviceAllocation(uint64_t bytes) {
    bytesInUse += bytes;
    ++allocationsInUse;
}

void countDeviceFree(uint64_t bytes) {
    bytesInUse -= bytes;
    --allocationsInUse;
}

}  // namespace vksim
