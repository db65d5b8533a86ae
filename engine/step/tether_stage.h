#pragma once
// Tethers after a solve (docs/physics.md §1, "Tethers"), for the solvers
// that have no constraint loop to project them in: projective dynamics and
// mass-spring cloths (PBD's tethers are attachment constraints in its
// iterations). Per substep, after a solver's solve and the contacts after
// the solves, before its collision projection and velocity update:
//
//   <prefix>tethers   each tethered particle of the range back within its
//                     tether's length of its anchor, its outward velocity removed
//
// so the velocity update sees the limited positions: (p - x)/h for projective
// dynamics and the implicit spring methods; the explicit integrators keep
// the velocity they had, less its outward part. Built only where some object
// has such tethers.
#include <cstdint>
#include <memory>
#include <string_view>

#include "model/shared_model.h"
#include "state/particle_range.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"

namespace vksim {

class ComputeKernel;
class VulkanContext;

class TetherStage {
public:
    TetherStage(const VulkanContext& ctx, const SharedModel& model);
    ~TetherStage();

    // The tethers of the particles of `range`: [first, first + count) of the list.
    using Slice = ListSlice;
    Slice sliceOf(ParticleRange range) const { return vksim::sliceOf(particles_, range); }

    // The pass of one solver's tethers ("pd: tethers").
    static uint32_t declare(StepPlan& plan, std::string_view prefix, std::string_view owner);
    // `solved`: the range's solved positions (relative to push's origin),
    // probed as `solvedName`; `velocities`: the store's.
    void record(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, Slice slice, const GpuBuffer& solved,
                const GpuBuffer& velocities, std::string_view solvedName, uint32_t substep) const;

private:
    std::vector<uint32_t> particles_;  // each tether's particle, ascending
    GpuBuffer tethers_;
    std::unique_ptr<ComputeKernel> kernel_;
};

}  // namespace vksim
