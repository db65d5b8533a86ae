#include "solvers/pbd/workgroup_solve.h"

#include <array>
#include <cstring>

#include "contacts/contact_stage.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/pbd_dispatch_path.h"
#include "state/collider_set.h"
#include "state/particle_store.h"
#include "vk/context.h"

namespace vksim {

// A CPU driver runs a workgroup on one core and pays per SIMD vector at
// every barrier, so few invocations are fastest there; lavapipe 22.3
// computes wrong results with one vector (8) once the shared array passes
// 16 KiB, so 16 (docs/benchmarks-history.md). A GPU wants many.
PbdDeviceShape pbdDeviceShape(const VulkanContext& ctx) {
    const VkPhysicalDeviceProperties& properties = ctx.properties();
    PbdDeviceShape device;
    device.cpuDevice = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    device.sharedBytes = properties.limits.maxComputeSharedMemorySize;
    device.maxTexels = properties.limits.maxTexelBufferElements;
    const bool wide = !device.cpuDevice && properties.limits.maxComputeWorkGroupInvocations >= 256 &&
                      properties.limits.maxComputeWorkGroupSize[0] >= 256;
    device.workgroupWidth = wide ? 256 : 16;
    return device;
}

WorkgroupSolve::WorkgroupSolve(const VulkanContext& ctx, const PbdDeviceShape& device, const ParticleStore& particles,
                               const ColliderSet& colliders, const PbdConstraints& constraints)
    : particles_(particles), colliders_(colliders), constraints_(constraints) {
    if (constraints.range().count == 0) return;
    noContactLists_ = GpuBuffer(ctx, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal,
                                "no workgroup contacts");
    specialization_ = {{0, device.sharedBytes / 4}};
    for (const SpecializationConstant& constant : colliders.particleSpecialization()) specialization_.push_back(constant);
    kernel_ = std::make_unique<ComputeKernel>(
        ctx, device.wide() ? "pbd/solve_in_workgroup_256.comp" : "pbd/solve_in_workgroup_16.comp",
        sizeof(gpu::WorkgroupSolvePush), specialization_);
}

WorkgroupSolve::~WorkgroupSolve() = default;

const GpuBuffer& WorkgroupSolve::predicted() const { return particles_.predicted(); }

GpuBuffer makeWorkgroupPlanBuffer(const VulkanContext& ctx, std::vector<gpu::WorkgroupObject> objects,
                                  const std::vector<gpu::WorkgroupPhase>& phases, const std::string& name) {
    static_assert(sizeof(gpu::WorkgroupObject) == sizeof(gpu::WorkgroupPhase), "the plan buffer is one array");
    std::vector<gpu::WorkgroupObject> data;
    data.reserve(objects.size() + phases.size());
    for (gpu::WorkgroupObject& object : objects) object.firstPhase += static_cast<uint32_t>(objects.size());
    data = std::move(objects);
    for (const gpu::WorkgroupPhase& phase : phases) {
        gpu::WorkgroupObject slot{};
        std::memcpy(&slot, &phase, sizeof(phase));
        data.push_back(slot);
    }
    return makeStorageBuffer<gpu::WorkgroupObject>(ctx, data, name);
}

void WorkgroupSolve::run(StepRecorder& rec, uint32_t pass, const ComputeKernel& kernel, const GpuBuffer& plan,
                         uint32_t workgroups, const gpu::WorkgroupSolvePush& push, StepPosition at,
                         const GpuBuffer* contactLists, const WorkgroupContactBuffers* contacts) const {
    const GpuBuffer& p = particles_.predicted();
    const PbdConstraints& c = constraints_;
    const GpuBuffer* none = &noContactLists_;
    std::array<const GpuBuffer*, 9> set = {none, none, none, none, none, none, none, none, none};
    if (contacts) {
        const ContactStage& stage = contacts->stage;
        const ContactConstraints& constraints = stage.constraints();
        set = {&stage.particles(),
               &stage.detection().constraints(),
               &constraints.triangleContacts(stage.triangleDetection()),
               &stage.detection().totals(),
               &constraints.colours(),
               &constraints.incidenceStart(),
               &constraints.incidenceCount(),
               &constraints.incidence(),
               &contacts->lists};
    }
    const std::array<const GpuBuffer*, 30> buffers = {
        &particles_.positions(), &particles_.velocities(), &p, &colliders_.colliders(), &particles_.contacts(),
        &colliders_.meshSdfGrids(), &c.materials(), &c.constraints(gpu::kPbdFamilyDistance),
        &c.constraints(gpu::kPbdFamilyBending), &c.constraints(gpu::kPbdFamilyAttachment),
        &c.lambdas(gpu::kPbdFamilyDistance), &c.lambdas(gpu::kPbdFamilyBending),
        &c.lambdas(gpu::kPbdFamilyAttachment), &plan, &c.constraints(gpu::kPbdFamilyTetrahedron),
        &c.shapeMatchData(), &p, contactLists ? contactLists : none, &particles_.bodyPushes(),
        &c.constraints(gpu::kPbdFamilyTetrahedron), &particles_.copies(),
        // 21-29: the contacts in the workgroup path's iterations (pbd/workgroup_contacts.glsl).
        set[0], set[1], set[2], set[3], set[4], set[5], set[6], set[7], set[8]};
    rec.run(pass, kernel, std::span<const GpuBuffer* const>(buffers), workgroups * kernel.workgroupSize(), push, at,
            {&p, kPbdWorkingName}, {&particles_.velocities(), "velocity"});
}

}  // namespace vksim
