#pragma once
// The exclusive prefix scan of 32-bit unsigned integers on the GPU, in
// place: values[i] becomes the sum of values[0..i-1], and the sum of them
// all is written to a totals buffer. Three dispatches, all runs of one
// pass of the caller's (shaders/scan): each block of kScanBlock values
// scanned in a workgroup, the blocks' sums scanned in one workgroup, each
// block's offset added. Integer sums are exact: the result does not depend
// on the GPU's order, so what is built on it is deterministic.
#include <array>
#include <cstdint>
#include <string>

#include "shaders/scan/scan_types.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

class PrefixScan {
public:
    // Scans of up to `maxCount` values.
    PrefixScan(const VulkanContext& ctx, uint32_t maxCount, const std::string& name);

    // Scans the first `count` values of `values` (count <= maxCount) and
    // writes their total to totals[totalIndex], as three runs of `pass`.
    void record(StepRecorder& rec, uint32_t pass, const GpuBuffer& values, uint32_t count, const GpuBuffer& totals,
                uint32_t totalIndex) const;

    // The workgroups of record()'s three dispatches for `count` values, in
    // their order.
    std::array<uint32_t, 3> groupCounts(uint32_t count) const;
    // record() as three indirect dispatches whose group counts the GPU
    // wrote: the VkDispatchIndirectCommand at `offset` in `args` and the two
    // after it (groupCounts(count), or zero groups to skip the scan).
    void recordIndirect(StepRecorder& rec, uint32_t pass, const GpuBuffer& values, uint32_t count,
                        const GpuBuffer& totals, uint32_t totalIndex, const GpuBuffer& args,
                        VkDeviceSize offset) const;

private:
    // The scan's push constants; throws past maxCount.
    gpu::ScanPush push(uint32_t count, uint32_t totalIndex) const;

    uint32_t maxCount_;
    GpuBuffer blockSums_;
    ComputeKernel blocks_, sumBlocks_, add_;
};

}  // namespace vksim
