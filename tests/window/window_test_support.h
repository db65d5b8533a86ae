#pragma once
// What the window tests share: a context on the window's surface with the
// validation layer on, and turning the viewer's loop a given number of shown
// frames.
#include <cstdint>
#include <cstdlib>

#include "app/viewer.h"
#include "render/window.h"
#include "vk/context.h"

namespace vksim::test {

inline ContextOptions validatedWindowContext(Window& window) {
    ContextOptions o;
    o.validation = true;
    if (const char* device = std::getenv("VKSIM_TEST_DEVICE")) o.deviceSelector = device;
    o.instanceExtensions = window.requiredInstanceExtensions();
    o.createSurface = [&window](VkInstance instance) { return window.createSurface(instance); };
    return o;
}

// Turns the loop until `count` frames were shown (or a bound on turns, so a
// window that never comes back fails instead of hanging); returns how many were.
inline uint32_t showFrames(Viewer& viewer, uint32_t count) {
    uint32_t shown = 0;
    for (int turn = 0; turn < 200 && shown < count; ++turn) shown += viewer.tick() ? 1 : 0;
    return shown;
}

}  // namespace vksim::test
