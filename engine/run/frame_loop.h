#pragma once
// The headless frame loop: frames recorded and submitted with a fixed number
// in flight, each slot's results read once its fence has signalled, so the
// host never waits for the frame it just submitted.
#include <cstdint>
#include <span>

#include "run/frame_observer.h"

namespace vksim {

class VulkanContext;
class World;

// Frames in flight of headless runs and benchmarks (the World must be
// built with this many frame slots).
inline constexpr uint32_t kHeadlessFramesInFlight = 2;

// Simulates `frames` frames, calling the observers as frame_observer.h says,
// and returns how many it simulated: fewer when SIGINT or SIGTERM asked it to
// stop (stop_signal.h; only while a StopSignals is installed), in which case
// every frame submitted has still been collected and passed to the observers.
// A frame that went non-finite throws NonFiniteError (world/world.h) before
// the observers hear of it; every earlier frame has been passed to them.
uint64_t simulateFrames(const VulkanContext& ctx, World& sim, uint64_t frames,
                        std::span<FrameObserver* const> observers = {});

}  // namespace vksim
