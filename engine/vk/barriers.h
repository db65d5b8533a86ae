#pragma once
// The few memory dependencies the engine needs, named for what they order.
// Callers record them explicitly between passes; no helper hides one.
#include <volk.h>

namespace vksim {

// The one global memory barrier every named barrier below is made of.
void memoryBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 srcStage, VkAccessFlags2 srcAccess,
                   VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

// A compute pass's storage writes become visible to the next compute pass's
// reads, storage and sampled, and writes (read-after-write and
// write-after-write between passes).
void computeToComputeBarrier(VkCommandBuffer cmd);

// computeToComputeBarrier, and the same for the group counts of indirect
// dispatches: compute writes them, the draw-indirect stage reads them, and
// the next rewrite waits for that read (write-after-read).
void computeAndIndirectBarrier(VkCommandBuffer cmd);

// World output (positions, normals) written by compute, then read as
// vertex attributes by the renderer.
void computeToVertexInputBarrier(VkCommandBuffer cmd);

// The renderer's vertex fetches of the previous frame finish before compute
// overwrites those buffers (write-after-read: an execution dependency).
void vertexInputToComputeBarrier(VkCommandBuffer cmd);

// Host writes (e.g. a mapped upload) visible to compute.
void hostToComputeBarrier(VkCommandBuffer cmd);

// Compute writes to a host-visible buffer made available to host reads, which
// happen after the submission's fence (or a queue wait) has signalled: waiting
// alone does not make device writes visible to the host.
void computeToHostBarrier(VkCommandBuffer cmd);

// Read-back of simulation state by a copy: compute writes (positions,
// normals) become visible to the transfer stage that reads them.
void computeToTransferBarrier(VkCommandBuffer cmd);

// The copy's writes into a host-visible buffer made available to host reads
// after the fence (as computeToHostBarrier, for transfers).
void transferToHostBarrier(VkCommandBuffer cmd);

// The copy's reads of simulation state finish before the next compute pass
// overwrites that state (write-after-read: an execution dependency). The
// solver's frame-start barriers order compute and vertex input, not transfers.
void transferReadToComputeBarrier(VkCommandBuffer cmd);

}  // namespace vksim

namespace vksim {

// Compute passes of earlier frames finish reading (and writing) a parameter
// buffer before a transfer (vkCmdUpdateBuffer) overwrites it.
void computeToTransferWriteBarrier(VkCommandBuffer cmd);

// A transfer's writes (vkCmdUpdateBuffer of live parameters) visible to the
// compute passes that read them.
void transferWriteToComputeBarrier(VkCommandBuffer cmd);

}  // namespace vksim
