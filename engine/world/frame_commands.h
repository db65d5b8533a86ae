#pragma once
// A World's simulation commands, recorded once and replayed while nothing
// changes. Each frame slot owns a secondary command buffer; World::recordFrame
// executes it from the caller's primary (vkCmdExecuteCommands). Recording a
// frame of the per-colour path is hundreds of dispatches with their barriers,
// timestamps and push constants, which can take the host longer than the GPU
// needs for a small cloth (docs/architecture.md, "The world"). A replay is one
// command.
//
// Commands depend on the solver settings, the drag, what the frame computes
// besides the step (normals, residuals), whether its passes are timed, and
// the World's live edits. The
// settings and the drag are compared by value every frame (FrameKey), so an
// application may edit scene().solver directly; every live edit and reset
// calls forget(). A recording that holds one-time work (a live edit's
// upload: StepRecorder::recordedOneTimeWork) runs once, and the slot records
// anew next time.
#include <cstdint>
#include <optional>
#include <vector>

#include <volk.h>

#include "scene/scene.h"
#include "state/interaction.h"

namespace vksim {

class VulkanContext;

// What a frame's commands depend on beyond the World's buffers and its live
// edits: two frames with equal keys record the same commands.
struct FrameKey {
    SolverSettings settings;
    std::optional<MouseAttachment> dragged;
    std::optional<BodyDrag> draggedBody;
    bool normals = true;
    bool residuals = false;
    bool passTimings = true;  // a timestamp pair around every pass (World::setPassTimings)
    bool operator==(const FrameKey&) const = default;
};

class FrameCommands {
public:
    FrameCommands(const VulkanContext& ctx, uint32_t slots);
    ~FrameCommands();
    FrameCommands(const FrameCommands&) = delete;
    FrameCommands& operator=(const FrameCommands&) = delete;

    // Whether the commands last recorded into `slot` were recorded for `key`
    // and may run again.
    bool replayable(uint32_t slot, const FrameKey& key) const;
    // Resets the slot's command buffer and begins recording it. Its previous
    // submission must have finished (the caller waited for the slot's fence).
    VkCommandBuffer begin(uint32_t slot);
    // Ends the recording begun by begin(slot). `oneTimeWork`: it holds work
    // that must not run again, so the next frame in the slot records anew.
    void end(uint32_t slot, const FrameKey& key, bool oneTimeWork);
    // The slot's commands, for vkCmdExecuteCommands.
    VkCommandBuffer commands(uint32_t slot) const { return slots_.at(slot).commands; }
    // Every slot records anew (a live edit, a reset).
    void forget();

private:
    struct Slot {
        VkCommandBuffer commands = VK_NULL_HANDLE;
        std::optional<FrameKey> replayableFor;  // empty: record anew
    };
    const VulkanContext& ctx_;
    std::vector<Slot> slots_;
};

}  // namespace vksim
