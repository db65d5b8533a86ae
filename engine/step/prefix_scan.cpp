#include "step/prefix_scan.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "shaders/scan/scan_types.h"
#include "vk/dispatch_groups.h"

namespace vksim {

namespace {

uint32_t blocksFor(uint32_t count) { return (count + gpu::kScanBlock - 1) / gpu::kScanBlock; }

}  // namespace

PrefixScan::PrefixScan(const VulkanContext& ctx, uint32_t maxCount, const std::string& name)
    : maxCount_(maxCount),
      blockSums_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{blocksFor(maxCount)} * sizeof(uint32_t)),
                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal, name + " block sums"),
      blocks_(ctx, "scan/scan_blocks.comp", sizeof(gpu::ScanPush)),
      sumBlocks_(ctx, "scan/scan_block_sums.comp", sizeof(gpu::ScanPush)),
      add_(ctx, "scan/scan_add.comp", sizeof(gpu::ScanPush)) {}

gpu::ScanPush PrefixScan::push(uint32_t count, uint32_t totalIndex) const {
    if (count > maxCount_)
        throw std::logic_error(fmt::format("PrefixScan: {} values, made for at most {}", count, maxCount_));
    return {count, blocksFor(count), totalIndex, 0};
}

void PrefixScan::record(StepRecorder& rec, uint32_t pass, const GpuBuffer& values, uint32_t count,
                        const GpuBuffer& totals, uint32_t totalIndex) const {
    const gpu::ScanPush scan = push(count, totalIndex);
    rec.run(pass, blocks_, {&values, &blockSums_}, scan.blockCount * blocks_.workgroupSize(), scan);
    rec.run(pass, sumBlocks_, {&blockSums_, &totals}, sumBlocks_.workgroupSize(), scan);
    rec.run(pass, add_, {&values, &blockSums_}, count, scan);
}

std::array<uint32_t, 3> PrefixScan::groupCounts(uint32_t count) const {
    const gpu::ScanPush scan = push(count, 0);
    return {dispatchGroups(scan.blockCount * blocks_.workgroupSize(), blocks_.workgroupSize()), 1,
            dispatchGroups(count, add_.workgroupSize())};
}

void PrefixScan::recordIndirect(StepRecorder& rec, uint32_t pass, const GpuBuffer& values, uint32_t count,
                                const GpuBuffer& totals, uint32_t totalIndex, const GpuBuffer& args,
                                VkDeviceSize offset) const {
    const gpu::ScanPush scan = push(count, totalIndex);
    const VkDeviceSize step = sizeof(VkDispatchIndirectCommand);
    rec.runIndirect(pass, blocks_, {&values, &blockSums_}, args, offset, scan);
    rec.runIndirect(pass, sumBlocks_, {&blockSums_, &totals}, args, offset + step, scan);
    rec.runIndirect(pass, add_, {&values, &blockSums_}, args, offset + 2 * step, scan);
}

}  // namespace vksim
