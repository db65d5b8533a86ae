#pragma once
// The workgroup solve (docs/physics.md §1, "Small objects in one workgroup";
// shaders/pbd/solve_in_workgroup.glsl): the kernel the workgroup path runs
// one workgroup per object with, and the cluster path one per cluster where
// clusters sit in shared memory; what the device fixes for it; and the
// buffers every kernel compiled from its source binds.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/sim_types.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ColliderSet;
class ContactStage;
class ParticleStore;
class PbdConstraints;
class VulkanContext;

// What the device fixes for PBD's workgroups.
struct PbdDeviceShape {
    bool cpuDevice = false;
    uint32_t sharedBytes = 0;  // maxComputeSharedMemorySize
    uint32_t maxTexels = 0;    // maxTexelBufferElements
    // The kernels' local_size_x: 256 on a GPU, 16 on a CPU driver
    // (pbdDeviceShape says why).
    uint32_t workgroupWidth = 16;
    bool wide() const { return workgroupWidth == 256; }
};
PbdDeviceShape pbdDeviceShape(const VulkanContext& ctx);

// The objects (or clusters) and their phases in one buffer, as the kernel
// reads them (a stage may bind 16 storage buffers): the objects, then the
// phases, each object's firstPhase counted from the buffer's start.
GpuBuffer makeWorkgroupPlanBuffer(const VulkanContext& ctx, std::vector<gpu::WorkgroupObject> objects,
                                  const std::vector<gpu::WorkgroupPhase>& phases, const std::string& name);

// What the workgroup path's substeps read of the contacts between objects
// (pbd/workgroup_contacts.glsl): the stage's detected and coloured set, and
// the objects' list regions (solvers/pbd/workgroup_contacts.h).
struct WorkgroupContactBuffers {
    const ContactStage& stage;
    const GpuBuffer& lists;
};

class WorkgroupSolve {
public:
    // Builds no kernel where there are no PBD particles.
    WorkgroupSolve(const VulkanContext& ctx, const PbdDeviceShape& device, const ParticleStore& particles,
                   const ColliderSet& colliders, const PbdConstraints& constraints);
    ~WorkgroupSolve();

    bool built() const { return kernel_ != nullptr; }
    const ComputeKernel& kernel() const { return *kernel_; }
    // Where its runs leave the solved positions: the store's p.
    const GpuBuffer& predicted() const;
    // Its specialization constants (kSharedFloats in solve_in_workgroup.glsl
    // and the collider shapes), which the CPU cluster sweep's kernels,
    // compiled from the same source, take too.
    const std::vector<SpecializationConstant>& specialization() const { return specialization_; }

    // One run of pass `pass`: `kernel` (this one or one compiled from its
    // source) over `workgroups` workgroups, with `plan` (makeWorkgroupPlanBuffer),
    // `contactLists` for the CPU cluster sweep (none elsewhere) and
    // `contacts` for the workgroup path's substeps with contacts (none elsewhere).
    void run(StepRecorder& rec, uint32_t pass, const ComputeKernel& kernel, const GpuBuffer& plan,
             uint32_t workgroups, const gpu::WorkgroupSolvePush& push, StepPosition at,
             const GpuBuffer* contactLists = nullptr, const WorkgroupContactBuffers* contacts = nullptr) const;

private:
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    const PbdConstraints& constraints_;
    std::vector<SpecializationConstant> specialization_;
    std::unique_ptr<ComputeKernel> kernel_;
    // What the bindings a run leaves unused take: the CPU sweep's contact
    // lists elsewhere, the contacts without them (never read then).
    GpuBuffer noContactLists_;
};

}  // namespace vksim
