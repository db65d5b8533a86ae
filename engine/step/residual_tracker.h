#pragma once
// Per-iteration constraint residuals computed on the GPU, for watching a
// solver converge (World::setResidualTracking). Off by default; when off
// nothing is recorded. When on, the last substep of every frame records, after
// each iteration:
//   PBD  mean |C| = mean ||p0 - p1| - d| over every distance constraint at the
//        predicted positions, after the coloured constraints, the mouse
//        attachment and the collision projection of that iteration [m]
//        (pbd/residual_distance.comp);
//   PD   ||r||_2 of the global system (M/h^2 + L) q = M/h^2 s + f after the
//        Jacobi iterations of each local/global iteration, r as the Jacobi
//        pass computes it, f from that iteration's local step [N = kg m/s^2]
//        (pd/residual.comp);
//   PD energy: the objective g(q) of the last substep's local/global
//        iteration at q^0 = s, q^1, ..., q^L: inertia, element and collision
//        terms (pd/energy.comp) [J];
//   XPBD energy: the objective g(p) of the last substep after each
//        iteration, inertia + sum C^2/(2 alpha), where every constraint is
//        XPBD with alpha > 0 (pbd/energy.comp) [J];
//   mass-spring, implicit Euler and vertex block descent: the objective F(x)
//        [J] and ||grad F|| [N] at y and after each Newton iteration or VBD
//        sweep (springs/energy.comp);
//   VBD solids: the implicit Euler objective G(x) [J] at the initial guess
//        and after each sweep (vbd/energy.comp);
//   mass-spring, every integrator: each object's total energy (kinetic,
//        springs, gravity) [J] at the start of the frame, one value per
//        object, each one workgroup's fixed-order sum written by the
//        solver's own pass (springs/object_energy.comp, writeSeries()).
// Each is two passes: per-workgroup partial sums in a fixed tree order into
// a partials buffer (the solver's pass), then one workgroup summing the
// partials in a fixed order (reduce/sum_partials.comp, recordSum() here)
// into a small host-visible results buffer per frame slot, read by collect()
// once the slot's fence has signalled, so tracking never stalls a frame.
// Fixed orders and no float atomics: the values are deterministic.
#include <cstdint>
#include <memory>
#include <vector>

#include <volk.h>

#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class StepPlan;
class StepRecorder;

class ResidualTracker {
public:
    enum class Series : uint32_t {
        Pbd = 0,
        Pd = 1,
        PdEnergy = 2,
        PbdEnergy = 3,
        SpringsObjective = 4,
        SpringsGradient = 5,
        SpringsObjectEnergy = 6,
        VbdObjective = 7
    };
    static constexpr uint32_t kSeriesCount = 8;
    static constexpr uint32_t kMaxValues = 1024;  // per series and frame: iterations (PBD) or local iterations (PD)

    // `longestFirstPass`: the most threads of a first pass of any solver
    // (Solver::residualThreads), one partial sum per workgroup of them.
    ResidualTracker(const VulkanContext& ctx, uint32_t longestFirstPass, uint32_t frameSlots);
    ~ResidualTracker();

    void declarePasses(StepPlan& plan);  // "residual: sum"

    void setEnabled(bool enabled) { enabled_ = enabled; }
    bool enabled() const { return enabled_; }

    // Where the solvers' first passes write their per-workgroup sums.
    const GpuBuffer& partials() const { return partials_; }
    // Workgroups of a first pass over `count` elements (the partials it writes).
    static uint32_t groupsFor(uint32_t count);

    // World, around the solvers' recording into frame slot `slot`.
    void beginFrame(uint32_t slot);
    void endFrame(VkCommandBuffer cmd);  // makes the results visible to the host, when any were recorded
    // Instead of both: the commands last recorded for `slot` run again, and
    // write the same values (world/frame_commands.h).
    void replayFrame(uint32_t slot);
    // The solvers, after a first pass and its barrier: sums partials
    // [0, partialCount) into value `index` of `series` (scale * sum, or
    // scale * sqrt(sum)). Ends with no barrier: callers add one.
    void recordSum(StepRecorder& rec, Series series, uint32_t index, uint32_t partialCount, float scale,
                   bool takeSqrt);

    // For a solver's pass that writes `count` values of `series` itself
    // (each a fixed-order sum of its own, no second pass): the results
    // buffer of the frame being recorded and the index of the series' first
    // value in it. Notes the values as recorded (not when counting). The
    // pass ends with a barrier (StepRecorder::run), as recordSum's callers add.
    struct SeriesDestination {
        const GpuBuffer* results = nullptr;
        uint32_t firstIndex = 0;
    };
    SeriesDestination writeSeries(const StepRecorder& rec, Series series, uint32_t count);

    // Reads the values of the frame last recorded in `slot` (after its
    // fence); false when that frame recorded none (nothing read).
    bool collect(uint32_t slot);
    const std::vector<float>& last(Series series) const { return last_[static_cast<uint32_t>(series)]; }

private:
    struct Slot {
        GpuBuffer results;  // host-visible: kMaxValues floats per series
        uint32_t counts[kSeriesCount] = {};  // values recorded per series (highest index + 1)
        bool pending = false;
    };
    bool enabled_ = false;
    GpuBuffer partials_;
    std::unique_ptr<ComputeKernel> sum_;
    std::vector<Slot> slots_;
    uint32_t current_ = 0;
    uint32_t passId_ = UINT32_MAX;
    std::vector<float> last_[kSeriesCount];
};

}  // namespace vksim
