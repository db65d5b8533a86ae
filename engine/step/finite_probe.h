#pragma once
// A per-pass NaN/Inf probe for finding where a simulation went non-finite.
// A StepRecorder given a probe calls check() after every pass that writes
// particle state (null = off, nothing recorded), so the step stays one list
// of passes. Checks are numbered in recording order
// within a frame and each is labelled with its pass, substep and iteration;
// the first one that sees a non-finite value owns the result, with the lowest
// such element and its value as that pass left it. Two dispatches and three
// barriers per check: for replays (non_finite_replay.h), not every frame.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/glm.hpp>
#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;

// Where a pass ran within a frame, 0-based. Constraint and collision
// projections have an iteration; the normals pass runs once per frame,
// outside the substeps.
struct StepPosition {
    std::optional<uint32_t> substep;
    std::optional<uint32_t> iteration;
};

// What a probed buffer holds: a vec4 per particle, or the rigid bodies'
// states (gpu::RigidBodyState per body: six vec4s, each its own quantity).
enum class ProbedElements { Particles, Bodies };

// A state buffer a pass wrote and what one element of it is called in a
// report ("predicted position"; a body state's quantities are named by
// field: "position", "rotation", "linear velocity", "angular velocity").
struct ProbedBuffer {
    const GpuBuffer* buffer = nullptr;
    std::string_view quantity;
    ProbedElements elements = ProbedElements::Particles;
};

// The first non-finite value a replay found, and where.
struct NonFiniteSite {
    uint64_t frame = 0;
    std::string pass;  // the timer's pass name, e.g. "stretch colour 2"
    StepPosition position;
    std::string quantity;       // e.g. "predicted position", "angular velocity"
    uint32_t particle = 0;      // lowest non-finite element of that buffer (a particle's)
    std::optional<uint32_t> body;  // instead of a particle: the body whose state it is
    std::string bodyName;          // its name in the scene (set by the replay)
    glm::vec4 value{0.0f};      // as the pass left it
    uint32_t nonFiniteCount = 0;  // non-finite elements in what the check read
};

class FiniteProbe {
public:
    // particleCount: elements of every probed particle buffer; bodyCount:
    // states in a probed body buffer.
    FiniteProbe(const VulkanContext& ctx, uint32_t particleCount, uint32_t bodyCount = 0);
    ~FiniteProbe();
    FiniteProbe(const FiniteProbe&) = delete;
    FiniteProbe& operator=(const FiniteProbe&) = delete;

    // Before recording frame `frame`, once the previous frame's submission
    // has completed: numbers checks from 0 again and clears the result.
    void beginFrame(uint64_t frame);

    // Records a check of `first` (and `second`, when it has a buffer; of
    // particle buffers only, with a body buffer `second` is not read) as
    // written by pass `pass` at `position`: barrier, scan, barrier, capture,
    // barrier. The check orders itself after the pass's writes and before the
    // next pass's, so it needs nothing from the step's barriers and leaves
    // them as they were without the probe.
    void check(VkCommandBuffer cmd, std::string_view pass, StepPosition position, ProbedBuffer first,
               ProbedBuffer second = {});

    // After the frame's submission has completed, with computeToHostBarrier
    // recorded at its end: the first check of the frame that failed.
    std::optional<NonFiniteSite> takeFinding();

private:
    struct Label {
        std::string pass;
        StepPosition position;
        std::string firstQuantity, secondQuantity;
        ProbedElements elements = ProbedElements::Particles;
        uint32_t elementCount = 0;  // of each buffer
    };

    uint32_t particleCount_ = 0;
    uint32_t bodyCount_ = 0;
    uint64_t frame_ = 0;
    std::unique_ptr<ComputeKernel> scan_, capture_;
    GpuBuffer result_;
    std::vector<Label> labels_;  // by check number, this frame
};

}  // namespace vksim
