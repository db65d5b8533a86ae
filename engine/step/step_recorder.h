#pragma once
// Records the passes of a step plan, or only counts them. Every pass run goes
// through run(), runIndirect(), runWritingGroupCounts() or timed(): the
// timestamps around it, the dispatch, the barrier after it and, when a finite probe is set (the
// non-finite replay), the check of what it wrote. A counting recorder
// (no command buffer) records nothing and counts the timed runs a frame
// would have, which sizes the GPU timer: the run count is never written by hand.
#include <cstdint>
#include <initializer_list>
#include <span>

#include <volk.h>

#include "step/finite_probe.h"
#include "step/frame_work.h"
#include "step/step_plan.h"
#include "vk/compute_kernel.h"

namespace vksim {

class GpuTimer;

class StepRecorder {
public:
    // Records into `cmd`; `probe` may be null.
    StepRecorder(VkCommandBuffer cmd, GpuTimer& timer, const StepPlan& plan, FiniteProbe* probe = nullptr)
        : cmd_(cmd), timer_(&timer), plan_(&plan), probe_(probe) {}
    // Counts only.
    explicit StepRecorder(const StepPlan& plan) : plan_(&plan) {}

    bool counting() const { return cmd_ == VK_NULL_HANDLE; }
    VkCommandBuffer cmd() const { return cmd_; }
    uint32_t runs() const { return runs_; }
    const StepPlan& plan() const { return *plan_; }

    // One run of pass `pass`: `kernel` over `count` elements with `buffers`
    // and `push`, timed, followed by a compute-to-compute barrier, then the
    // probe's check of `first` and `second` (labelled with the pass and `at`)
    // when a probe is set and `first` names a buffer.
    template <typename Push>
    void run(uint32_t pass, const ComputeKernel& kernel, std::initializer_list<const GpuBuffer*> buffers,
             uint32_t count, const Push& push, StepPosition at = {}, ProbedBuffer first = {},
             ProbedBuffer second = {}) {
        run(pass, kernel, std::span<const GpuBuffer* const>(buffers.begin(), buffers.size()), count, push, at, first,
            second);
    }
    // run() with buffers assembled at run time (a kernel variant's extra bindings).
    template <typename Push>
    void run(uint32_t pass, const ComputeKernel& kernel, std::span<const GpuBuffer* const> buffers, uint32_t count,
             const Push& push, StepPosition at = {}, ProbedBuffer first = {}, ProbedBuffer second = {}) {
        ++runs_;
        if (counting()) return;
        timedDispatch(pass, kernel, buffers, count, &push, sizeof(Push));
        barrier();
        probe(pass, at, first, second);
    }

    // run() for a pass that writes the group counts of later indirect
    // dispatches: the barrier after it also makes them visible to the
    // draw-indirect stage.
    template <typename Push>
    void runWritingGroupCounts(uint32_t pass, const ComputeKernel& kernel,
                               std::initializer_list<const GpuBuffer*> buffers, uint32_t count, const Push& push) {
        ++runs_;
        if (counting()) return;
        timedDispatch(pass, kernel, std::span<const GpuBuffer* const>(buffers.begin(), buffers.size()), count, &push,
                      sizeof(Push));
        indirectBarrier();
    }

    // One run of pass `pass` as run() does, with the group count the GPU
    // wrote at `offset` in `args` (ComputeKernel::dispatchIndirect). The
    // barrier after it orders the read of `args` before the next rewrite.
    template <typename Push>
    void runIndirect(uint32_t pass, const ComputeKernel& kernel, std::initializer_list<const GpuBuffer*> buffers,
                     const GpuBuffer& args, VkDeviceSize offset, const Push& push, StepPosition at = {},
                     ProbedBuffer first = {}) {
        ++runs_;
        if (counting()) return;
        beginPass(pass);
        kernel.dispatchIndirect(cmd_, std::span<const GpuBuffer* const>(buffers.begin(), buffers.size()), args, offset,
                                &push, sizeof(Push));
        endPass();
        indirectBarrier();
        probe(pass, at, first);
    }

    // One run of pass `pass` whose commands `record` writes between the
    // timestamps (no barrier added).
    template <typename Record>
    void timed(uint32_t pass, Record&& record) {
        ++runs_;
        if (counting()) return;
        beginPass(pass);
        record(cmd_);
        endPass();
    }

    // Work inside a run that its invocation count does not show (a loop in
    // one dispatch), added to the count of a counting recorder for the
    // frame's time estimate (frame_work.h); nothing when recording.
    void countWork(const FrameWork& work) {
        if (counting()) work_ += work;
    }
    // The frame's work counted so far, its dispatches included.
    FrameWork work() const {
        FrameWork total = work_;
        total.runs = runs_;
        return total;
    }

    // A compute-to-compute barrier (nothing when counting).
    void barrier();

    // Said by whoever records work that must run once, not in every frame
    // (a live edit's upload, clearing a stage): the World then records the
    // next frame in this slot anew instead of replaying these commands
    // (world/frame_commands.h).
    void recordedOneTimeWork() { oneTimeWork_ = true; }
    bool holdsOneTimeWork() const { return oneTimeWork_; }
    // The probe's check of what pass `pass` wrote (nothing without a probe).
    void probe(uint32_t pass, StepPosition at, ProbedBuffer first, ProbedBuffer second = {});

private:
    // computeAndIndirectBarrier (vk/barriers.h).
    void indirectBarrier();
    void timedDispatch(uint32_t pass, const ComputeKernel& kernel, std::span<const GpuBuffer* const> buffers,
                       uint32_t count, const void* push, uint32_t pushSize);
    void beginPass(uint32_t pass);
    void endPass();

    VkCommandBuffer cmd_ = VK_NULL_HANDLE;
    GpuTimer* timer_ = nullptr;
    const StepPlan* plan_ = nullptr;
    FiniteProbe* probe_ = nullptr;
    uint32_t runs_ = 0;
    FrameWork work_;
    bool oneTimeWork_ = false;
};

}  // namespace vksim
