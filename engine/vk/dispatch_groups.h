#pragma once
// The workgroups a dispatch over `elements` elements, one thread each,
// starts: ComputeKernel::dispatch's count (before it cuts the range into
// slices of maxGroupCount()), and what an indirect dispatch standing in for
// it writes (particle_grid.h).
#include <cstdint>

namespace vksim {

inline uint32_t dispatchGroups(uint32_t elements, uint32_t workgroupSize) {
    return static_cast<uint32_t>((uint64_t{elements} + workgroupSize - 1) / workgroupSize);
}

}  // namespace vksim
