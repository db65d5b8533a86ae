#include "solvers/pbd/pbd_clusters.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

#include "shaders/pbd/pbd_types.h"

namespace vksim {

std::vector<const ObjectRange*> pbdObjects(const PbdModelView& model) {
    std::vector<const ObjectRange*> objects;
    for (const ObjectRange& object : model.shared.objects)
        if (object.particleCount > 0 && object.firstParticle >= model.pbd.firstParticle &&
            object.firstParticle < model.pbd.firstParticle + model.pbd.particleCount)
            objects.push_back(&object);
    std::sort(objects.begin(), objects.end(),
              [](const ObjectRange* a, const ObjectRange* b) { return a->firstParticle < b->firstParticle; });
    return objects;
}

void appendPhases(gpu::WorkgroupObject& workgroup, std::vector<gpu::WorkgroupPhase>& all,
                  const std::vector<gpu::WorkgroupPhase>& phases) {
    workgroup.firstPhase = static_cast<uint32_t>(all.size());
    workgroup.phaseCount = static_cast<uint32_t>(phases.size());
    all.insert(all.end(), phases.begin(), phases.end());
}

namespace {

constexpr uint32_t kNoCluster = std::numeric_limits<uint32_t>::max();

// The lowest and highest particle a constraint touches.
struct ParticleSpan {
    uint32_t lo, hi;
};
ParticleSpan spanOf(const gpu::DistanceConstraint& c) { return {std::min(c.p0, c.p1), std::max(c.p0, c.p1)}; }
ParticleSpan spanOf(const gpu::BendingConstraint& c) {
    const glm::uvec4 p = c.particles;
    return {std::min(std::min(p.x, p.y), std::min(p.z, p.w)), std::max(std::max(p.x, p.y), std::max(p.z, p.w))};
}
ParticleSpan spanOf(const gpu::AttachmentConstraint& c) { return {c.particle, c.particle}; }
ParticleSpan spanOf(const gpu::TetrahedronConstraint& c) {
    const glm::uvec4 p = c.particles;
    return {std::min(std::min(p.x, p.y), std::min(p.z, p.w)), std::max(std::max(p.x, p.y), std::max(p.z, p.w))};
}

// Where one object's clusters are. An object of n particles is cut into
// ceil(n / L) clusters of equal size S (the last may be a few particles
// short), so that the workgroups of a sweep take equal time: with clusters
// of the largest size L, a 64 x 64 cloth was 2730 + 1366 particles on
// lavapipe, and one core did two thirds of each sweep. The first partition
// cuts the object at first + k S, the second at first + S/2 + k S. The
// second covers the whole object, though its cluster below S/2 and any past
// the last cut of the first hold no constraint (they are inside a cluster
// of the first), and an object of one cluster is one cluster of each
// partition, so that the second sweep can project the collision
// constraints of every particle (ClusterPlan).
struct ObjectClusters {
    uint32_t firstParticle, particleCount;
    uint32_t size;                             // S
    uint32_t firstSweepBase, secondSweepBase;  // global index of each partition's cluster 0
    bool split;                                // more than one cluster
};

class Partition {
public:
    Partition(const PbdModelView& model, uint32_t clusterParticles, ClusterPlan& plan) : L_(clusterParticles) {
        for (const ObjectRange* object : pbdObjects(model)) {
            const uint32_t n = object->particleCount, clusters = (n + L_ - 1) / L_;
            ObjectClusters o{object->firstParticle, n, (n + clusters - 1) / clusters, 0, 0, clusters > 1};
            o.firstSweepBase = static_cast<uint32_t>(plan.clusters.size());
            for (uint32_t at = 0; at < n; at += o.size) add(plan, o.firstParticle + at, std::min(o.size, n - at));
            objects_.push_back(o);
        }
        plan.firstSweepClusters = static_cast<uint32_t>(plan.clusters.size());
        uint32_t covered = 0;
        for (ObjectClusters& o : objects_) {
            o.secondSweepBase = static_cast<uint32_t>(plan.clusters.size());
            covered += o.particleCount;
            if (!o.split) {
                add(plan, o.firstParticle, o.particleCount);
                continue;
            }
            const uint32_t half = o.size / 2;
            add(plan, o.firstParticle, half);
            for (uint32_t at = half; at < o.particleCount; at += o.size)
                add(plan, o.firstParticle + at, std::min(o.size, o.particleCount - at));
        }
        plan.secondSweepClusters = static_cast<uint32_t>(plan.clusters.size()) - plan.firstSweepClusters;
        plan.secondSweepCoversEveryParticle = covered == model.pbd.particleCount;
    }

    // The cluster that holds every particle of `span` (the first partition's
    // if one does), or kNoCluster.
    uint32_t clusterOf(ParticleSpan span) const {
        auto next = std::upper_bound(objects_.begin(), objects_.end(), span.lo,
                                     [](uint32_t p, const ObjectClusters& o) { return p < o.firstParticle; });
        if (next == objects_.begin()) throw std::logic_error("cluster plan: a constraint is not on a PBD object");
        const ObjectClusters& o = *(next - 1);
        if (span.hi >= o.firstParticle + o.particleCount)
            throw std::logic_error("cluster plan: a constraint is not on a PBD object, or spans two");
        const uint32_t lo = span.lo - o.firstParticle, hi = span.hi - o.firstParticle, S = o.size;
        if (lo / S == hi / S) return o.firstSweepBase + lo / S;
        const uint32_t half = S / 2;
        // + 1: the second partition's cluster below S/2 comes first.
        if (lo >= half && (lo - half) / S == (hi - half) / S) return o.secondSweepBase + 1 + (lo - half) / S;
        return kNoCluster;
    }

private:
    void add(ClusterPlan& plan, uint32_t first, uint32_t count) {
        gpu::WorkgroupObject cluster{};
        cluster.firstParticle = first;
        cluster.particleCount = count;
        cluster.shapeMatchGroup = gpu::kNoShapeMatch;
        plan.clusters.push_back(cluster);
    }

    uint32_t L_;
    std::vector<ObjectClusters> objects_;
};

// One family: per cluster and colour, the cluster's share of the colour
// (one range of the permuted array, maybe empty); its permutation, sweeps
// and coloured share.
template <typename Constraint>
std::vector<std::vector<ColourRange>> planFamily(const std::vector<Constraint>& constraints, const ColourGroups& groups,
                                                const Partition& partition, const ClusterPlan& plan,
                                                FamilyClusters& family) {
    std::vector<uint32_t> clusterOf(constraints.size(), kNoCluster);  // the overflow group stays coloured
    for (const ColourRange& color : groups.colours)
        for (uint32_t j = color.first; j < color.first + color.count; ++j)
            clusterOf[j] = partition.clusterOf(spanOf(constraints[j]));
    family.sweepOf.resize(constraints.size());
    for (size_t j = 0; j < constraints.size(); ++j)
        family.sweepOf[j] = clusterOf[j] == kNoCluster               ? ClusterSweep::Coloured
                            : clusterOf[j] < plan.firstSweepClusters ? ClusterSweep::First
                                                                     : ClusterSweep::Second;
    family.order.resize(constraints.size());
    for (uint32_t j = 0; j < family.order.size(); ++j) family.order[j] = j;

    std::vector<std::vector<ColourRange>> shareOf(plan.clusters.size(), std::vector<ColourRange>(groups.colours.size()));
    for (size_t c = 0; c < groups.colours.size(); ++c) {
        const ColourRange color = groups.colours[c];
        const auto begin = family.order.begin() + color.first, end = begin + color.count;
        std::stable_sort(begin, end, [&](uint32_t a, uint32_t b) { return clusterOf[a] < clusterOf[b]; });
        ColourRange coloured{color.first + color.count, 0};
        for (uint32_t k = color.first; k < color.first + color.count;) {
            const uint32_t cluster = clusterOf[family.order[k]];
            uint32_t run = k;
            while (run < color.first + color.count && clusterOf[family.order[run]] == cluster) ++run;
            if (cluster == kNoCluster)
                coloured = {k, run - k};
            else
                shareOf[cluster][c] = {k, run - k};
            k = run;
        }
        family.coloured.colours.push_back(coloured);
    }
    family.coloured.overflow = groups.overflow;
    return shareOf;
}

}  // namespace

uint32_t largestConstraintSpan(const PbdModelView& model) {
    uint32_t span = 0;
    auto widen = [&span](const auto& constraints) {
        for (const auto& c : constraints) {
            const ParticleSpan s = spanOf(c);
            span = std::max(span, s.hi - s.lo);
        }
    };
    widen(model.pbd.distance);
    widen(model.pbd.bending);
    widen(model.pbd.tetrahedra);
    return span;
}

ClusterPlan buildClusterPlan(const PbdModelView& model, uint32_t clusterParticles) {
    if (clusterParticles < 2) throw std::invalid_argument("cluster plan: a cluster needs room for 2 particles");
    ClusterPlan plan;
    plan.clusterParticles = clusterParticles;
    const Partition partition(model, clusterParticles, plan);
    const std::array<std::vector<std::vector<ColourRange>>, kPbdFamilies> shareOf = {
        planFamily(model.pbd.distance, model.pbd.distanceGroups, partition, plan, plan.distance),
        planFamily(model.pbd.bending, model.pbd.bendingGroups, partition, plan, plan.bending),
        planFamily(model.pbd.attachments, model.pbd.attachmentGroups, partition, plan, plan.attachment),
        planFamily(model.pbd.tetrahedra, model.pbd.tetrahedronGroups, partition, plan, plan.tetrahedron)};
    // Each cluster's phases: its share of every colour step, in the sweep's
    // order (the overflow groups stay with the coloured sweep).
    const std::vector<ColourStep> steps = colourSteps(model);
    for (size_t g = 0; g < plan.clusters.size(); ++g) {
        std::vector<gpu::WorkgroupPhase> phases;
        for (const ColourStep& step : steps) {
            if (step.serial) continue;
            gpu::WorkgroupPhase phase{};
            bool any = false;
            for (uint32_t f = 0; f < kPbdFamilies; ++f) {
                if (!step.families[f]) continue;
                const ColourRange share = shareOf[f][g][step.colour];
                phase.first[f] = share.first;
                phase.count[f] = share.count;
                any = any || share.count > 0;
            }
            if (any) phases.push_back(phase);
        }
        appendPhases(plan.clusters[g], plan.phases, phases);
    }
    return plan;
}

}  // namespace vksim
