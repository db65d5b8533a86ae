#pragma once
// The application's frame loop with vksim inside: two frames in flight, each
// with its own command buffer and fence; World::recordFrame records the
// simulation into the application's command buffer, and World::collectTimings
// reads a slot's results once its fence has signalled.
#include <cstdint>
#include <functional>

#include <volk.h>

#include "world/world.h"

class AppDevice;

inline constexpr uint32_t kFramesInFlight = 2;

// Steps `frames` frames; `lastFrame` records the application's own work into
// the last frame's command buffer, after World::recordFrame. Returns when the
// GPU has finished every frame.
void stepFrames(const AppDevice& device, vksim::World& world, uint32_t frames,
                const std::function<void(VkCommandBuffer)>& lastFrame);
