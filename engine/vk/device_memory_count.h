#pragma once
// The device memory vksim holds at this moment: every vkAllocateMemory of a
// GpuBuffer or GpuImage still alive, in bytes and in allocations, for the
// whole process. scripts/soak.sh watches it stay flat over 100,000 frames
// (on a discrete GPU the process's RSS does not show device memory).
#include <cstdint>

namespace vksim {

struct DeviceMemoryInUse {
    uint64_t bytes = 0;
    uint64_t allocations = 0;
};

DeviceMemoryInUse deviceMemoryInUse();

// Called by GpuBuffer and GpuImage after each allocation and before each free.
void countDeviceAllocation(uint64_t bytes);
void countDeviceFree(uint64_t bytes);

}  // namespace vksim
