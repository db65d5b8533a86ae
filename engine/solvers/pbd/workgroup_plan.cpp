#include "solvers/pbd/workgroup_plan.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/colour_steps.h"
#include "solvers/pbd/pbd_clusters.h"
#include "vk/buffer.h"

namespace vksim {

namespace {

uint32_t particleOf(const gpu::DistanceConstraint& c) { return c.p0; }
uint32_t particleOf(const gpu::BendingConstraint& c) { return c.particles.x; }
uint32_t particleOf(const gpu::AttachmentConstraint& c) { return c.particle; }
uint32_t particleOf(const gpu::TetrahedronConstraint& c) { return c.particles.x; }

// Per object, the runs of constraints [range) that belong to it, in array
// order (one run per object where the family lists objects one after
// another, as the model builder does).
template <typename Constraint>
std::vector<std::vector<ColourRange>> runsByObject(std::span<const Constraint> constraints, ColourRange range,
                                                  const std::vector<const ObjectRange*>& objects) {
    std::vector<std::vector<ColourRange>> runsOf(objects.size());
    size_t current = objects.size();  // the object whose run is open, none yet
    for (uint32_t j = range.first; j < range.first + range.count; ++j) {
        const uint32_t particle = particleOf(constraints[j]);
        // The last object starting at or below the particle.
        const auto next = std::upper_bound(objects.begin(), objects.end(), particle,
                                           [](uint32_t p, const ObjectRange* o) { return p < o->firstParticle; });
        const size_t owner = static_cast<size_t>(next - objects.begin()) - 1;
        if (next == objects.begin() || particle >= objects[owner]->firstParticle + objects[owner]->particleCount)
            throw std::logic_error(fmt::format("workgroup plan: constraint {} is not on a PBD object", j));
        if (owner != current) {
            runsOf[owner].push_back({j, 0});
            current = owner;
        }
        ++runsOf[owner].back().count;
    }
    return runsOf;
}

// Per object, the phases of the model's colour steps (solvers/pbd/colour_steps.h),
// each restricted to the object's constraints. A colour's runs of one object
// share phases whatever their family (run r of each in phase r); an
// overflow step is walked in order, so each of its runs is a phase of its
// own, family by family (the order the CPU reference walks).
std::vector<std::vector<gpu::WorkgroupPhase>> objectPhases(const PbdModelView& model, const ClusterPlan& arrays,
                                                           const std::vector<const ObjectRange*>& objects) {
    const auto distance = permuted(model.pbd.distance, arrays.distance);
    const auto bending = permuted(model.pbd.bending, arrays.bending);
    const auto attachments = permuted(model.pbd.attachments, arrays.attachment);
    const auto tetrahedra = permuted(model.pbd.tetrahedra, arrays.tetrahedron);
    std::vector<std::vector<gpu::WorkgroupPhase>> phasesOf(objects.size());
    for (const ColourStep& step : colourSteps(model)) {
        const std::array<std::vector<std::vector<ColourRange>>, kPbdFamilies> runs = {
            runsByObject<gpu::DistanceConstraint>(
                distance, step.range(model.pbd.distanceGroups, gpu::kPbdFamilyDistance), objects),
            runsByObject<gpu::BendingConstraint>(bending, step.range(model.pbd.bendingGroups, gpu::kPbdFamilyBending),
                                                 objects),
            runsByObject<gpu::AttachmentConstraint>(
                attachments, step.range(model.pbd.attachmentGroups, gpu::kPbdFamilyAttachment), objects),
            runsByObject<gpu::TetrahedronConstraint>(
                tetrahedra, step.range(model.pbd.tetrahedronGroups, gpu::kPbdFamilyTetrahedron), objects)};
        for (size_t o = 0; o < objects.size(); ++o) {
            if (step.serial) {
                for (uint32_t f = 0; f < kPbdFamilies; ++f)
                    for (const ColourRange& run : runs[f][o]) {
                        gpu::WorkgroupPhase phase{};
                        phase.serial = 1;
                        phase.first[f] = run.first;
                        phase.count[f] = run.count;
                        phasesOf[o].push_back(phase);
                    }
                continue;
            }
            size_t most = 0;
            for (uint32_t f = 0; f < kPbdFamilies; ++f) most = std::max(most, runs[f][o].size());
            for (size_t r = 0; r < most; ++r) {
                gpu::WorkgroupPhase phase{};
                for (uint32_t f = 0; f < kPbdFamilies; ++f)
                    if (r < runs[f][o].size()) {
                        phase.first[f] = runs[f][o][r].first;
                        phase.count[f] = runs[f][o][r].count;
                    }
                phasesOf[o].push_back(phase);
            }
        }
    }
    return phasesOf;
}

}  // namespace

uint32_t workgroupParticleCapacity(uint32_t sharedMemoryBytes) { return sharedMemoryBytes / 12; }

uint32_t clusterParticleCapacity(uint32_t sharedMemoryBytes, bool cpuDevice, uint32_t largestObject,
                                 uint32_t largestSpan) {
    const uint32_t workgroup = workgroupParticleCapacity(sharedMemoryBytes);
    if (!cpuDevice) {
        // The smallest equal clusters of the largest object that are each at
        // least kGpuClusterParticles and twice the span.
        const uint64_t smallest = std::max<uint64_t>(kGpuClusterParticles, 2 * uint64_t{largestSpan});
        if (smallest >= workgroup) return workgroup;
        const uint64_t clusters = std::max<uint64_t>(largestObject / smallest, 1);
        const uint64_t size = (largestObject + clusters - 1) / clusters;
        return static_cast<uint32_t>(std::clamp<uint64_t>(size, smallest, workgroup));
    }
    const uint32_t fewClusters = (largestObject + kCpuClustersPerObject - 1) / kCpuClustersPerObject;
    return std::max({workgroup / 2, fewClusters, 2u});
}

uint32_t shapeMatchScratchParticles(uint32_t workgroupSize) { return (4 * workgroupSize + 2) / 3; }

namespace {

// The shape-matching group of the object starting at `firstParticle`, or kNoShapeMatch.
uint32_t shapeMatchGroupOf(const PbdModelView& model, uint32_t firstParticle) {
    for (size_t g = 0; g < model.pbd.shapeMatchGroups.size(); ++g)
        if (model.pbd.shapeMatchGroups[g].firstParticle == firstParticle) return static_cast<uint32_t>(g);
    return gpu::kNoShapeMatch;
}

}  // namespace

WorkgroupPlan buildWorkgroupPlan(const PbdModelView& model, const ClusterPlan& arrays) {
    const std::vector<const ObjectRange*> objects = pbdObjects(model);
    const std::vector<std::vector<gpu::WorkgroupPhase>> phasesOf = objectPhases(model, arrays, objects);
    WorkgroupPlan plan;
    for (size_t o = 0; o < objects.size(); ++o) {
        gpu::WorkgroupObject object{};
        object.firstParticle = objects[o]->firstParticle;
        object.particleCount = objects[o]->particleCount;
        appendPhases(object, plan.phases, phasesOf[o]);
        object.shapeMatchGroup = shapeMatchGroupOf(model, object.firstParticle);
        object.drag = objects[o]->drag;
        const glm::vec4 gravity = ownGravity(*objects[o]);
        object.gravityX = gravity.x;
        object.gravityY = gravity.y;
        object.gravityZ = gravity.z;
        object.twiceGravity = gravity.w;
        plan.objects.push_back(object);
    }
    return plan;
}

std::optional<std::string> workgroupMisfit(const PbdModelView& model, uint32_t capacity, uint32_t scratchParticles) {
    // A workgroup steps its object through the whole frame, and the bodies
    // take the particles' impulses after every substep.
    if (model.shared.bodyCount > 0 && !pbdObjects(model).empty())
        return fmt::format("the scene has {} rigid bod{}, which exchange{} impulses with the particles every substep",
                           model.shared.bodyCount, model.shared.bodyCount == 1 ? "y" : "ies",
                           model.shared.bodyCount == 1 ? "s" : "");
    // A workgroup's frame would meet the colliders where they are at its
    // start: the kinematic ones move every substep.
    if (!model.shared.keyframeTracks.empty() && !pbdObjects(model).empty())
        return fmt::format("the scene has {} collider{} with keyframes, which move{} every substep",
                           model.shared.keyframeTracks.size(), model.shared.keyframeTracks.size() == 1 ? "" : "s",
                           model.shared.keyframeTracks.size() == 1 ? "s" : "");
    for (const ObjectRange* object : pbdObjects(model)) {
        // The attached points move with their bodies' and colliders' rows,
        // which the workgroup would read once for its whole frame.
        for (const gpu::FrameAttachment& a : model.shared.frameAttachments)
            if (a.particle >= object->firstParticle && a.particle < object->firstParticle + object->particleCount)
                return fmt::format("'{}' is attached to a body or collider (\"attachments\"), whose pose the "
                                   "attachment pass reads every iteration",
                                   clipInput(object->name));
        // The wind passes run between substeps, outside a workgroup's frame.
        if (object->aero.feelsWind())
            return fmt::format("'{}' feels the wind (\"aero\"), whose passes run before every substep",
                               clipInput(object->name));
        const bool shapeMatched = shapeMatchGroupOf(model, object->firstParticle) != gpu::kNoShapeMatch;
        const uint32_t room = shapeMatched ? (capacity > scratchParticles ? capacity - scratchParticles : 0) : capacity;
        if (object->particleCount > room)
            return fmt::format(
                "'{}' has {} particles and one workgroup holds at most {} on this device "
                "(maxComputeSharedMemorySize / 12 bytes{})",
                clipInput(object->name), object->particleCount, room,
                shapeMatched ? fmt::format(", less {} for shape matching's sums", scratchParticles) : "");
    }
    return std::nullopt;
}

// The CPU cluster sweep's texel readers (pbd/solve_in_workgroup.glsl,
// VKSIM_CLUSTER_SWEEP_CPU) rebuild these records from 16-byte texels field
// by field, in this layout: a field moved here must move there.
static_assert(offsetof(gpu::ConstraintMaterial, mode) == 0 && offsetof(gpu::ConstraintMaterial, stiffness) == 4 &&
              offsetof(gpu::ConstraintMaterial, compliance) == 8);
static_assert(offsetof(gpu::DistanceConstraint, p0) == 0 && offsetof(gpu::DistanceConstraint, p1) == 4 &&
              offsetof(gpu::DistanceConstraint, restLength) == 8 && offsetof(gpu::DistanceConstraint, material) == 12);
static_assert(offsetof(gpu::BendingConstraint, particles) == 0 && offsetof(gpu::BendingConstraint, K) == 16 &&
              offsetof(gpu::BendingConstraint, scale) == 32 && offsetof(gpu::BendingConstraint, material) == 36);
static_assert(offsetof(gpu::AttachmentConstraint, target) == 0 && offsetof(gpu::AttachmentConstraint, particle) == 16 &&
              offsetof(gpu::AttachmentConstraint, material) == 20 &&
              offsetof(gpu::AttachmentConstraint, maxDistance) == 24);
static_assert(offsetof(gpu::TetrahedronConstraint, particles) == 0 && offsetof(gpu::TetrahedronConstraint, g1) == 16 &&
              offsetof(gpu::TetrahedronConstraint, g2) == 32 && offsetof(gpu::TetrahedronConstraint, g3) == 48 &&
              offsetof(gpu::TetrahedronConstraint, elasticRow) == 64 &&
              offsetof(gpu::TetrahedronConstraint, volumeMaterial) == 68 &&
              offsetof(gpu::TetrahedronConstraint, lambda) == 72);
static_assert(offsetof(gpu::ElasticMaterialRow, model) == 0 && offsetof(gpu::ElasticMaterialRow, mu) == 4 &&
              offsetof(gpu::ElasticMaterialRow, lambda) == 8);

std::optional<std::string> clusterTexelMisfit(const PbdModelView& model, uint32_t maxTexels) {
    const struct {
        const char* what;
        size_t records, bytes;
    } arrays[] = {{"particles", model.shared.positions.size(), sizeof(glm::vec4)},
                  {"distance constraints", model.pbd.distance.size(), sizeof(gpu::DistanceConstraint)},
                  {"bending constraints", model.pbd.bending.size(), sizeof(gpu::BendingConstraint)},
                  {"attachments", model.pbd.attachments.size(), sizeof(gpu::AttachmentConstraint)},
                  {"constraint materials", model.pbd.materials.size(), sizeof(gpu::ConstraintMaterial)},
                  // Their rows and multipliers (pbd_constraints.h) add under a texel each per tetrahedron.
                  {"tetrahedra", model.pbd.tetrahedra.size(), sizeof(gpu::TetrahedronConstraint) + 16}};
    for (const auto& a : arrays) {
        const uint64_t texels = uint64_t{a.records} * (a.bytes / GpuBuffer::kTexelBytes);
        if (texels > maxTexels)
            return fmt::format("its {} {} are {} texels of 16 bytes, and this device's texel buffers hold at most {}",
                               a.records, a.what, texels, maxTexels);
    }
    return std::nullopt;
}

}  // namespace vksim
