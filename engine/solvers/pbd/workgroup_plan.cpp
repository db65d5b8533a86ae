#include "solvers/pbd/workgroup_plan.h"

#include <algorithm>
#include <cstddef>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "sim/pbd_clusters.h"
#include "sim/sim_model.h"
#include "vk/buffer.h"

namespace vksim {

namespace {

uint32_t particleOf(const gpu::DistanceConstraint& c) { return c.p0; }
uint32_t particleOf(const gpu::BendingConstraint& c) { return c.particles.x; }
uint32_t particleOf(const gpu::AttachmentConstraint& c) { return c.particle; }

// Appends, per object, the phases of constraints [range) that belong to it:
// one per run of the array that is the object's (one colour, or the overflow
// group: a phase never spans two).
template <typename Constraint>
void splitByObject(std::span<const Constraint> constraints, ColorRange range, uint32_t serial,
                   const std::vector<const ObjectRange*>& objects,
                   std::vector<std::vector<gpu::WorkgroupPhase>>& phasesOf) {
    size_t current = objects.size();  // the object whose phase is open, none yet
    for (uint32_t j = range.first; j < range.first + range.count; ++j) {
        const uint32_t particle = particleOf(constraints[j]);
        // The last object starting at or below the particle.
        const auto next = std::upper_bound(objects.begin(), objects.end(), particle,
                                           [](uint32_t p, const ObjectRange* o) { return p < o->firstParticle; });
        const size_t owner = static_cast<size_t>(next - objects.begin()) - 1;
        if (next == objects.begin() || particle >= objects[owner]->firstParticle + objects[owner]->particleCount)
            throw std::logic_error(fmt::format("workgroup plan: constraint {} is not on a PBD object", j));
        if (owner != current) {
            phasesOf[owner].push_back({j, 0, serial, 0});
            current = owner;
        }
        ++phasesOf[owner].back().count;
    }
}

// Per object, the phases of one family: its colours, then its overflow group.
template <typename Constraint>
std::vector<std::vector<gpu::WorkgroupPhase>> familyPhases(const std::vector<Constraint>& constraints,
                                                           const ColorGroups& groups,
                                                           const std::vector<const ObjectRange*>& objects) {
    std::vector<std::vector<gpu::WorkgroupPhase>> phasesOf(objects.size());
    const std::span<const Constraint> all(constraints);
    for (const ColorRange& color : groups.colors) splitByObject(all, color, 0, objects, phasesOf);
    splitByObject(all, groups.overflow, 1, objects, phasesOf);
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
uint32_t shapeMatchGroupOf(const SimModel& model, uint32_t firstParticle) {
    for (size_t g = 0; g < model.shapeMatchGroups.size(); ++g)
        if (model.shapeMatchGroups[g].firstParticle == firstParticle) return static_cast<uint32_t>(g);
    return gpu::kNoShapeMatch;
}

}  // namespace

WorkgroupPlan buildWorkgroupPlan(const SimModel& model, const ClusterPlan& arrays) {
    const std::vector<const ObjectRange*> objects = pbdObjects(model);
    const auto distance = familyPhases(permuted(model.distance, arrays.distance), model.distanceGroups, objects);
    const auto bending = familyPhases(permuted(model.bending, arrays.bending), model.bendingGroups, objects);
    const auto attachment =
        familyPhases(permuted(model.attachments, arrays.attachment), model.attachmentGroups, objects);
    WorkgroupPlan plan;
    for (size_t o = 0; o < objects.size(); ++o) {
        gpu::WorkgroupObject object{};
        object.firstParticle = objects[o]->firstParticle;
        object.particleCount = objects[o]->particleCount;
        appendPhases(object, plan.phases, distance[o], bending[o], attachment[o]);
        object.shapeMatchGroup = shapeMatchGroupOf(model, object.firstParticle);
        plan.objects.push_back(object);
    }
    return plan;
}

std::optional<std::string> workgroupMisfit(const SimModel& model, uint32_t capacity, uint32_t scratchParticles) {
    for (const ObjectRange* object : pbdObjects(model)) {
        const bool shapeMatched = shapeMatchGroupOf(model, object->firstParticle) != gpu::kNoShapeMatch;
        const uint32_t room = shapeMatched ? (capacity > scratchParticles ? capacity - scratchParticles : 0) : capacity;
        if (object->particleCount > room)
            return fmt::format("'{}' has {} particles and one workgroup holds at most {} on this device "
                               "(maxComputeSharedMemorySize / 12 bytes{})",
                               object->name, object->particleCount, room,
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
              offsetof(gpu::AttachmentConstraint, material) == 20);

std::optional<std::string> clusterTexelMisfit(const SimModel& model, uint32_t maxTexels) {
    const struct {
        const char* what;
        size_t records, bytes;
    } arrays[] = {{"particles", model.positions.size(), sizeof(glm::vec4)},
                  {"distance constraints", model.distance.size(), sizeof(gpu::DistanceConstraint)},
                  {"bending constraints", model.bending.size(), sizeof(gpu::BendingConstraint)},
                  {"attachments", model.attachments.size(), sizeof(gpu::AttachmentConstraint)},
                  {"constraint materials", model.materials.size(), sizeof(gpu::ConstraintMaterial)}};
    for (const auto& a : arrays) {
        const uint64_t texels = uint64_t{a.records} * (a.bytes / GpuBuffer::kTexelBytes);
        if (texels > maxTexels)
            return fmt::format("its {} {} are {} texels of 16 bytes, and this device's texel buffers hold at most {}",
                               a.records, a.what, texels, maxTexels);
    }
    return std::nullopt;
}

}  // namespace vksim
