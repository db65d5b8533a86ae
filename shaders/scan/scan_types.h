// Push constants of the exclusive prefix scan of 32-bit unsigned integers
// (shaders/scan, engine/step/prefix_scan.h). Integer sums are exact, so the
// result does not depend on the order the GPU adds in.
#ifndef VKSIM_SCAN_TYPES_H
#define VKSIM_SCAN_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// Push constants of the prefix scan (shaders/scan).
struct ScanPush {
    uint count;       // elements scanned
    uint blockCount;  // blocks of kScanBlock elements
    uint totalIndex;  // scan_block_sums.comp writes the total at totals[totalIndex]
    uint pad;
};
GPU_CHECK_SIZE(ScanPush, 16);

// Elements one workgroup of scan_blocks.comp scans (64 threads, 4 each).
GPU_CONST(uint, kScanBlock, 256);

GPU_NAMESPACE_END

#endif
