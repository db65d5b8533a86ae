#include "solvers/pbd/pbd_tearing.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/pbd_splitting.h"
#include "state/particle_store.h"
#include "step/step_recorder.h"
#include "vk/barriers.h"
#include "vk/compute_kernel.h"

namespace vksim {

namespace {

// The stretch constraints of the tearing cloths (strain > 0) by their edge.
using EdgeMap = std::map<std::pair<uint32_t, uint32_t>, uint32_t>;
EdgeMap tearingEdges(const std::vector<gpu::DistanceConstraint>& distance, const std::vector<float>& strains) {
    EdgeMap edges;
    for (uint32_t j = 0; j < distance.size(); ++j)
        if (strains[distance[j].material] > 0.0f) edges.emplace(std::minmax(distance[j].p0, distance[j].p1), j);
    return edges;
}

uint32_t edgeConstraint(const EdgeMap& edges, uint32_t a, uint32_t b) {
    const auto found = edges.find(std::minmax(a, b));
    return found == edges.end() ? gpu::kNoHinge : found->second;
}

// Per bending constraint, the stretch constraint on its hinge edge (x, y).
std::vector<uint32_t> findHinges(const EdgeMap& edges, const std::vector<gpu::BendingConstraint>& bending) {
    std::vector<uint32_t> hinges(bending.size(), gpu::kNoHinge);
    for (size_t j = 0; j < bending.size(); ++j)
        hinges[j] = edgeConstraint(edges, bending[j].particles.x, bending[j].particles.y);
    return hinges;
}

// The triangles with an edge that can tear, each with its edges' constraints,
// but those of the cloths that split vertices (their torn triangles stay).
std::vector<glm::uvec4> findTriangleEdges(const EdgeMap& edges, const std::vector<uint32_t>& triangles,
                                          const std::vector<gpu::SplitCloth>& splitting) {
    std::vector<glm::uvec4> out;
    for (uint32_t t = 0; 3 * t + 2 < triangles.size(); ++t) {
        const bool splits = std::any_of(splitting.begin(), splitting.end(), [t](const gpu::SplitCloth& c) {
            return t >= c.firstTriangle && t < c.firstTriangle + c.triangleCount;
        });
        const uint32_t a = triangles[3 * t], b = triangles[3 * t + 1], c = triangles[3 * t + 2];
        const glm::uvec4 entry(splits ? t | gpu::kTearSplitTriangle : t, edgeConstraint(edges, a, b),
                               edgeConstraint(edges, b, c), edgeConstraint(edges, c, a));
        if (entry.y != gpu::kNoHinge || entry.z != gpu::kNoHinge || entry.w != gpu::kNoHinge) out.push_back(entry);
    }
    return out;
}

// The rows' strains, one per material row (PbdModel::tearStrains is shorter
// where solids' rows follow the cloths').
std::vector<float> strainRows(const PbdModel& model) {
    std::vector<float> strains = model.tearStrains;
    strains.resize(std::max<size_t>(model.materials.size(), 1), 0.0f);
    return strains;
}

}  // namespace

bool PbdTearing::anyTears(const PbdModel& model) {
    return !model.distance.empty() &&
           std::any_of(model.tearStrains.begin(), model.tearStrains.end(), [](float s) { return s > 0.0f; });
}

PbdTearing::PbdTearing(const VulkanContext& ctx, const PbdModelView& model, PbdConstraints& constraints,
                       ParticleStore& particles)
    : particles_(particles), constraints_(constraints), strains_(strainRows(model.pbd)) {
    // In the order the GPU holds them (the cluster plan's, PbdConstraints).
    initialDistance_ = constraints.constraints(gpu::kPbdFamilyDistance).downloadArray<gpu::DistanceConstraint>();
    initialDistance_.resize(constraints.count(gpu::kPbdFamilyDistance));
    initialBending_ = constraints.constraints(gpu::kPbdFamilyBending).downloadArray<gpu::BendingConstraint>();
    initialBending_.resize(constraints.count(gpu::kPbdFamilyBending));
    const EdgeMap edges = tearingEdges(initialDistance_, strains_);
    hinges_ = findHinges(edges, initialBending_);
    triangleEdges_ = findTriangleEdges(edges, model.shared.triangles, model.pbd.splitCloths);
    strainBuffer_ = makeStorageBuffer<float>(ctx, strains_, "tear strains");
    hingeBuffer_ = makeStorageBuffer<uint32_t>(ctx, hinges_, "bending hinges");
    triangleEdgeBuffer_ = makeStorageBuffer<glm::uvec4>(ctx, triangleEdges_, "tearing triangle edges");
    kernel_ = std::make_unique<ComputeKernel>(ctx, "pbd/tear.comp", sizeof(gpu::TearPush));
    if (!model.pbd.splitCloths.empty())
        splitting_ = std::make_unique<PbdSplitting>(ctx, model, constraints, particles, initialDistance_,
                                                    initialBending_);
}

PbdTearing::~PbdTearing() = default;

void PbdTearing::declarePasses(StepPlan& plan) {
    pass_ = plan.declare("pbd: tear", StageKind::Solve, "pbd");
    if (splitting_) splitPass_ = plan.declare("pbd: split", StageKind::Solve, "pbd");
}

void PbdTearing::setStrains(const std::vector<float>& strains) {
    if (strains.size() != strains_.size()) throw std::invalid_argument("tear strain rows cannot change at run time");
    strains_ = strains;
    pendingStrains_ = strains;
}

// Like the material edits (PbdConstraints::recordFrameStart): one-time work
// before the frame's first pass, untimed.
void PbdTearing::recordFrameStart(StepRecorder& rec) {
    if (!pendingStrains_ || rec.counting()) return;
    rec.recordedOneTimeWork();
    computeToTransferWriteBarrier(rec.cmd());
    vkCmdUpdateBuffer(rec.cmd(), strainBuffer_.handle(), 0, pendingStrains_->size() * sizeof(float),
                      pendingStrains_->data());
    transferWriteToComputeBarrier(rec.cmd());
    pendingStrains_.reset();
}

// The stretch run, then one run over the bending constraints and the
// triangles, which read the flags the first wrote.
void PbdTearing::recordFrameEnd(StepRecorder& rec) const {
    const std::initializer_list<const GpuBuffer*> buffers = {
        &particles_.positions(),  &constraints_.constraints(gpu::kPbdFamilyDistance),
        &constraints_.constraints(gpu::kPbdFamilyBending), &strainBuffer_, &hingeBuffer_, &triangleEdgeBuffer_,
        &particles_.triangleIndices()};
    const uint32_t distanceCount = constraints_.count(gpu::kPbdFamilyDistance);
    const uint32_t bendingCount = constraints_.count(gpu::kPbdFamilyBending);
    const auto triangleCount = static_cast<uint32_t>(triangleEdges_.size());
    rec.run(pass_, *kernel_, buffers, distanceCount, gpu::TearPush{gpu::kPbdFamilyDistance, distanceCount, 0, 0});
    if (bendingCount + triangleCount > 0)
        rec.run(pass_, *kernel_, buffers, bendingCount + triangleCount,
                gpu::TearPush{gpu::kPbdFamilyBending, bendingCount + triangleCount, bendingCount, 0});
    if (splitting_) splitting_->recordFrameEnd(rec, splitPass_);
}

void PbdTearing::reset(const SharedModel& model) {
    constraints_.constraints(gpu::kPbdFamilyDistance).uploadArray<gpu::DistanceConstraint>(initialDistance_);
    if (!initialBending_.empty())
        constraints_.constraints(gpu::kPbdFamilyBending).uploadArray<gpu::BendingConstraint>(initialBending_);
    if (!model.triangles.empty()) particles_.triangleIndices().uploadArray<uint32_t>(model.triangles);
    if (splitting_) splitting_->reset();
}

void PbdTearing::addStateBuffers(std::vector<GpuBuffer*>& out) {
    out.push_back(&constraints_.constraints(gpu::kPbdFamilyDistance));
    out.push_back(&constraints_.constraints(gpu::kPbdFamilyBending));
    out.push_back(&particles_.triangleIndices());
    if (splitting_) splitting_->addStateBuffers(out);
}

std::string PbdTearing::describe() const {
    const auto distance = constraints_.constraints(gpu::kPbdFamilyDistance).downloadArray<gpu::DistanceConstraint>();
    const auto bending = constraints_.constraints(gpu::kPbdFamilyBending).downloadArray<gpu::BendingConstraint>();
    const auto triangles = particles_.triangleIndices().downloadArray<uint32_t>();
    size_t stretchBroken = 0, bendingBroken = 0, dropped = 0;
    for (size_t j = 0; j < initialDistance_.size(); ++j) stretchBroken += distance[j].restLength < 0.0f ? 1 : 0;
    for (size_t j = 0; j < initialBending_.size(); ++j) bendingBroken += bending[j].scale < 0.0f ? 1 : 0;
    for (const glm::uvec4& e : triangleEdges_) {
        const uint32_t* corners = &triangles[3 * size_t(e.x & ~gpu::kTearSplitTriangle)];
        dropped += corners[0] == corners[1] && corners[1] == corners[2] ? 1 : 0;
    }
    std::string line =
        fmt::format("tearing: {} of {} stretch constraints broken (and {} bending), {} of {} triangles dropped",
                    stretchBroken, initialDistance_.size(), bendingBroken, dropped, triangleEdges_.size());
    return splitting_ ? line + "\n" + splitting_->describe() : line;
}

uint32_t tearReference(std::vector<gpu::DistanceConstraint>& distance, std::vector<gpu::BendingConstraint>& bending,
                       std::vector<uint32_t>& triangles, const std::vector<glm::dvec3>& x,
                       const std::vector<float>& strains, const std::vector<uint32_t>& hinges,
                       const std::vector<glm::uvec4>& triangleEdges) {
    const auto broken = [&](uint32_t j) { return j != gpu::kNoHinge && distance[j].restLength < 0.0f; };
    uint32_t count = 0;
    for (gpu::DistanceConstraint& c : distance) {
        const double strain = strains[c.material];
        if (strain > 0.0 && c.restLength > 0.0f && ref::distanceTears(x[c.p0], x[c.p1], c.restLength, strain)) {
            c.restLength = -c.restLength;
            ++count;
        }
    }
    for (size_t j = 0; j < bending.size(); ++j)
        if (broken(hinges[j]) && bending[j].scale > 0.0f) bending[j].scale = -bending[j].scale;
    dropTornTriangles(triangles, distance, triangleEdges);
    return count;
}

void dropTornTriangles(std::vector<uint32_t>& triangles, const std::vector<gpu::DistanceConstraint>& distance,
                       const std::vector<glm::uvec4>& triangleEdges) {
    const auto broken = [&](uint32_t j) { return j != gpu::kNoHinge && distance[j].restLength < 0.0f ? 1u : 0u; };
    for (const glm::uvec4& e : triangleEdges) {
        const uint32_t t = e.x & ~gpu::kTearSplitTriangle;
        if (broken(e.y) + broken(e.z) + broken(e.w) >= ((e.x & gpu::kTearSplitTriangle) != 0 ? 2u : 1u))
            triangles[3 * t + 1] = triangles[3 * t + 2] = triangles[3 * t];
    }
}

}  // namespace vksim
