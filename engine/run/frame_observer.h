#pragma once
// Something that follows a frame loop without being part of the simulation:
// the exporter, the trace writer, the progress bar, the benchmark's sampler.
// The loops (frame_loop.h, windowed_app.cpp) call every observer, in order,
// once per frame at two points.
#include <cstdint>

#include <volk.h>

namespace vksim {

class FrameObserver {
public:
    virtual ~FrameObserver() = default;

    // Frame `frame` (0-based) has just been recorded into `cmd` for frame
    // slot `slot`; the observer may record commands after it (the command
    // buffer is still open).
    virtual void frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
        (void)cmd, (void)slot, (void)frame;
    }

    // The fence of the slot holding frame `frame` has signalled and the
    // simulation has read its timings (GpuTimer::lastCollectedFrame is that
    // frame's) and its finite check. Frames arrive in order.
    virtual void frameCollected(uint32_t slot, uint64_t frame) { (void)slot, (void)frame; }
};

}  // namespace vksim
