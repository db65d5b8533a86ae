#include "solvers/pbd/pbd_splitting.h"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "solvers/pbd/pbd_constraints.h"
#include "state/particle_store.h"
#include "step/step_recorder.h"
#include "vk/compute_kernel.h"

namespace vksim {

namespace {

using EdgeMap = std::map<std::pair<uint32_t, uint32_t>, uint32_t>;

const gpu::SplitCloth* clothHolding(const std::vector<gpu::SplitCloth>& cloths, uint32_t particle) {
    for (const gpu::SplitCloth& c : cloths)
        if (particle >= c.firstParticle && particle < c.firstParticle + c.vertexCount + c.spareCount) return &c;
    return nullptr;
}

uint32_t cornerOf(const std::vector<uint32_t>& triangles, uint32_t t, uint32_t i) {
    for (uint32_t c = 0; c < 3; ++c)
        if (triangles[3 * size_t(t) + c] == i) return c;
    return 3;
}

// The corners a particle of a constraint over `set` follows: of the
// triangles around it, those holding the most of `set` (at most two, in
// index order) when they hold another of its particles; else the first
// one that shares an edge with a triangle holding another (a shear
// constraint across a quad). Constraints whose particles are all whole
// never disagree on them (docs/physics.md §1, "Tearing").
glm::uvec2 followedCorners(const SharedModel& model, uint32_t particle, std::span<const uint32_t> set) {
    const auto& tri = model.triangles;
    auto holds = [&](uint32_t t, uint32_t q) { return cornerOf(tri, t, q) < 3; };
    uint32_t best = 0;
    std::vector<uint32_t> found;
    for (uint32_t k = model.adjacencyOffsets[particle]; k < model.adjacencyOffsets[particle + 1]; ++k) {
        const uint32_t t = model.adjacentTriangles[k];
        uint32_t overlap = 0;
        for (uint32_t q : set) overlap += holds(t, q) ? 1 : 0;
        if (overlap > best) found.clear(), best = overlap;
        if (overlap == best) found.push_back(t);
    }
    auto corner = [&](uint32_t t) { return 3 * t + cornerOf(tri, t, particle); };
    if (best >= 2)
        return {corner(found[0]), found.size() > 1 ? corner(found[1]) : gpu::kSplitNone};
    for (uint32_t k = model.adjacencyOffsets[particle]; k < model.adjacencyOffsets[particle + 1]; ++k) {
        const uint32_t t = model.adjacentTriangles[k];
        for (uint32_t q : set) {
            if (q == particle) continue;
            for (uint32_t m = model.adjacencyOffsets[q]; m < model.adjacencyOffsets[q + 1]; ++m) {
                const uint32_t u = model.adjacentTriangles[m];
                uint32_t shared = 0;
                for (uint32_t c = 0; c < 3; ++c) shared += holds(u, tri[3 * size_t(t) + c]) ? 1 : 0;
                if (shared == 2) return {corner(t), gpu::kSplitNone};
            }
        }
    }
    return {gpu::kSplitNone, gpu::kSplitNone};
}

// The kept triangles around particle i in its row's order, each with its
// fan's number (fans numbered in the order of their first triangles), as
// pbd/split.comp finds them: counted only where an edge at i broke or a
// triangle of its row left the surface, else all one fan.
struct Fans {
    std::vector<uint32_t> triangles, fanOf;
    uint32_t count = 0;
};

Fans findFans(const SplitState& s, const SplitTopology& topo, uint32_t i) {
    const auto& tri = s.triangles;
    auto kept = [&](uint32_t t) {
        const uint32_t a = tri[3 * t], b = tri[3 * t + 1], c = tri[3 * t + 2];
        return a != b && b != c && a != c;
    };
    Fans fans;
    const uint32_t row = s.adjacencyRows[i];
    for (uint32_t k = topo.adjacencyOffsets[row]; k < topo.adjacencyOffsets[row + 1]; ++k) {
        const uint32_t t = topo.adjacentTriangles[k];
        if (fans.triangles.size() < gpu::kSplitMaxFan && cornerOf(tri, t, i) < 3 && kept(t))
            fans.triangles.push_back(t);
    }
    auto broken = [&](uint32_t j) { return j != gpu::kNoHinge && s.distance[j].restLength < 0.0f; };
    auto joined = [&](uint32_t ta, uint32_t tb) {
        const uint32_t ci = cornerOf(tri, ta, i);
        for (uint32_t k = 1; k < 3; ++k) {
            const uint32_t cj = (ci + k) % 3;
            if (cornerOf(tri, tb, tri[3 * ta + cj]) == 3) continue;
            if (!broken(topo.triangleInfo[ta][(ci + 1) % 3 == cj ? ci : cj])) return true;
        }
        return false;
    };
    const size_t n = fans.triangles.size();
    // The fans of a mesh's vertex are one until an edge at it breaks or a
    // triangle of its row leaves the surface (the shader's quickFans).
    bool count = false;
    for (uint32_t k = topo.adjacencyOffsets[row]; k < topo.adjacencyOffsets[row + 1]; ++k) {
        const uint32_t t = topo.adjacentTriangles[k];
        const uint32_t c = cornerOf(tri, t, i);
        count = count || !kept(t) ||
                (c < 3 && (broken(topo.triangleInfo[t][c]) || broken(topo.triangleInfo[t][(c + 2) % 3])));
    }
    if (!count) {
        fans.fanOf.assign(n, 0);
        fans.count = n > 0 ? 1 : 0;
        return fans;
    }
    fans.fanOf.assign(n, gpu::kSplitNone);
    for (size_t a = 0; a < n; ++a) {
        if (fans.fanOf[a] != gpu::kSplitNone) continue;
        fans.fanOf[a] = fans.count;
        std::vector<size_t> stack = {a};
        while (!stack.empty()) {
            const size_t x = stack.back();
            stack.pop_back();
            for (size_t b = 0; b < n; ++b)
                if (fans.fanOf[b] == gpu::kSplitNone && joined(fans.triangles[x], fans.triangles[b])) {
                    fans.fanOf[b] = fans.count;
                    stack.push_back(b);
                }
        }
        ++fans.count;
    }
    return fans;
}

}  // namespace

SplitTopology buildSplitTopology(const PbdModelView& model, const std::vector<gpu::DistanceConstraint>& distance,
                                 const std::vector<gpu::BendingConstraint>& bending) {
    const SharedModel& shared = model.shared;
    SplitTopology topo;
    topo.cloths = model.pbd.splitCloths;
    topo.adjacencyOffsets = shared.adjacencyOffsets;
    topo.adjacentTriangles = shared.adjacentTriangles;
    if (!topo.cloths.empty()) {
        const gpu::SplitCloth& last = topo.cloths.back();
        topo.particleThreads = last.firstThread + last.vertexCount + last.spareCount;
        topo.triangleThreads = last.firstTriangleThread + last.triangleCount;
    }
    EdgeMap edges;
    for (uint32_t j = 0; j < distance.size(); ++j)
        if (clothHolding(topo.cloths, distance[j].p0)) edges.emplace(std::minmax(distance[j].p0, distance[j].p1), j);
    auto edge = [&](uint32_t a, uint32_t b) {
        const auto found = edges.find(std::minmax(a, b));
        return found == edges.end() ? gpu::kNoHinge : found->second;
    };
    topo.triangleInfo.assign(std::max<size_t>(shared.triangleCount(), 1), glm::uvec4(0));
    for (const gpu::SplitCloth& cloth : topo.cloths)
        for (uint32_t t = cloth.firstTriangle; t < cloth.firstTriangle + cloth.triangleCount; ++t) {
            const uint32_t a = shared.triangles[3 * t], b = shared.triangles[3 * t + 1], c = shared.triangles[3 * t + 2];
            const glm::dvec3 pa(shared.positions[a]), pb(shared.positions[b]), pc(shared.positions[c]);
            const auto area = static_cast<float>(0.5 * glm::length(glm::cross(pb - pa, pc - pa)));
            topo.triangleInfo[t] = {edge(a, b), edge(b, c), edge(c, a), std::bit_cast<uint32_t>(area)};
        }
    const glm::uvec2 none(gpu::kSplitNone);
    topo.distanceFollow.assign(std::max<size_t>(distance.size(), 1), glm::uvec4(none, none));
    for (size_t j = 0; j < distance.size(); ++j) {
        if (!clothHolding(topo.cloths, distance[j].p0)) continue;
        const uint32_t set[] = {distance[j].p0, distance[j].p1};
        topo.distanceFollow[j] = {followedCorners(shared, set[0], set), followedCorners(shared, set[1], set)};
    }
    topo.bendingFollow.assign(std::max<size_t>(2 * bending.size(), 1), glm::uvec4(none, none));
    for (size_t j = 0; j < bending.size(); ++j) {
        const glm::uvec4 q = bending[j].particles;
        if (!clothHolding(topo.cloths, q.x)) continue;
        const uint32_t set[] = {q.x, q.y, q.z, q.w};
        topo.bendingFollow[2 * j] = {followedCorners(shared, q.x, set), followedCorners(shared, q.y, set)};
        topo.bendingFollow[2 * j + 1] = {followedCorners(shared, q.z, set), followedCorners(shared, q.w, set)};
    }
    return topo;
}

PbdSplitting::PbdSplitting(const VulkanContext& ctx, const PbdModelView& model, PbdConstraints& constraints,
                           ParticleStore& particles, const std::vector<gpu::DistanceConstraint>& distance,
                           const std::vector<gpu::BendingConstraint>& bending)
    : particles_(particles), constraints_(constraints), topology_(buildSplitTopology(model, distance, bending)) {
    const SplitTopology& t = topology_;
    clothBuffer_ = makeStorageBuffer<gpu::SplitCloth>(ctx, t.cloths, "split cloths");
    fillBuffer_ = makeStorageBuffer<uint32_t>(ctx, std::vector<uint32_t>(4 * t.cloths.size(), 0u), "split fill");
    triangleInfoBuffer_ = makeStorageBuffer<glm::uvec4>(ctx, t.triangleInfo, "split triangle edges");
    needsBuffer_ = makeStorageBuffer<uint32_t>(ctx, std::vector<uint32_t>(t.particleThreads + 1, 0u), "split needs");
    cornersBuffer_ = makeStorageBuffer<uint32_t>(
        ctx, std::vector<uint32_t>(std::max<size_t>(3 * model.shared.triangleCount(), 1), gpu::kSplitNone),
        "split corners");
    distanceFollowBuffer_ = makeStorageBuffer<glm::uvec4>(ctx, t.distanceFollow, "split stretch corners");
    bendingFollowBuffer_ = makeStorageBuffer<glm::uvec4>(ctx, t.bendingFollow, "split bending corners");
    scanTotal_ = makeStorageBuffer<uint32_t>(ctx, std::vector<uint32_t>(4, 0u), "split total");
    scan_ = std::make_unique<PrefixScan>(ctx, t.particleThreads + 1, "split needs");
    kernel_ = std::make_unique<ComputeKernel>(ctx, "pbd/split.comp", sizeof(gpu::SplitPush));
    reindex_ = std::make_unique<ComputeKernel>(ctx, "pbd/split_reindex.comp", sizeof(gpu::SplitPush));
}

PbdSplitting::~PbdSplitting() = default;

void PbdSplitting::recordFrameEnd(StepRecorder& rec, uint32_t pass) const {
    const GpuBuffer& distance = constraints_.constraints(gpu::kPbdFamilyDistance);
    const GpuBuffer& bending = constraints_.constraints(gpu::kPbdFamilyBending);
    const std::initializer_list<const GpuBuffer*> buffers = {
        &particles_.positions(),       &particles_.predicted(),        &particles_.velocities(),
        &particles_.triangleIndices(), &particles_.adjacencyOffsets(), &particles_.adjacentTriangles(),
        &particles_.adjacencyRows(),   &distance,                      &bending,
        &clothBuffer_,                 &fillBuffer_,                   &triangleInfoBuffer_,
        &needsBuffer_,                 &cornersBuffer_};
    const SplitTopology& t = topology_;
    const auto clothCount = static_cast<uint32_t>(t.cloths.size());
    gpu::SplitPush push{gpu::kSplitCount, clothCount, t.particleThreads, t.triangleThreads,
                        constraints_.count(gpu::kPbdFamilyDistance), constraints_.count(gpu::kPbdFamilyBending), 0, 0};
    rec.run(pass, *kernel_, buffers, t.particleThreads + 1, push);
    scan_->record(rec, pass, needsBuffer_, t.particleThreads + 1, scanTotal_, 0);
    push.stage = gpu::kSplitApply;
    rec.run(pass, *kernel_, buffers, t.particleThreads, push);
    push.stage = gpu::kSplitReindex;
    rec.run(pass, *reindex_,
            {&particles_.triangleIndices(), &distance, &bending, &clothBuffer_, &fillBuffer_, &cornersBuffer_,
             &distanceFollowBuffer_, &bendingFollowBuffer_},
            clothCount + t.triangleThreads + push.distanceCount + push.bendingCount, push);
}

void PbdSplitting::reset() {
    fillBuffer_.uploadArray<uint32_t>(std::vector<uint32_t>(4 * topology_.cloths.size(), 0u));
    particles_.resetAdjacencyRows();
}

void PbdSplitting::addStateBuffers(std::vector<GpuBuffer*>& out) {
    out.push_back(&fillBuffer_);
    out.push_back(&particles_.adjacencyRows());
}

std::vector<glm::uvec3> PbdSplitting::readFill() const {
    const std::vector<uint32_t> fill = fillBuffer_.downloadArray<uint32_t>();
    std::vector<glm::uvec3> out;
    for (size_t c = 0; c < topology_.cloths.size(); ++c) out.emplace_back(fill[4 * c], fill[4 * c + 1], fill[4 * c + 2]);
    return out;
}

std::string PbdSplitting::describe() const {
    glm::uvec3 sum(0);
    uint32_t spares = 0;
    for (const glm::uvec3& f : readFill()) sum += f;
    for (const gpu::SplitCloth& c : topology_.cloths) spares += c.spareCount;
    return fmt::format("splitting: {} of {} spare particles used, {} vertices refused a split ({} triangles dropped)",
                       sum.x, spares, sum.y, sum.z);
}

uint32_t fanCount(const SplitState& state, const SplitTopology& topology, uint32_t i) {
    return findFans(state, topology, i).count;
}

void splitReference(SplitState& s, const SplitTopology& topo) {
    const SplitState before = s;  // the GPU's runs read the frame's surface as the tear pass left it
    std::vector<uint32_t> corners(s.triangles.size(), gpu::kSplitNone);
    for (size_t c = 0; c < topo.cloths.size(); ++c) {
        const gpu::SplitCloth& cloth = topo.cloths[c];
        uint32_t base = s.fill[4 * c];
        for (uint32_t i = cloth.firstParticle; i < cloth.firstParticle + cloth.vertexCount + cloth.spareCount; ++i) {
            const uint32_t row = before.adjacencyRows[i];
            for (uint32_t k = topo.adjacencyOffsets[row]; k < topo.adjacencyOffsets[row + 1]; ++k) {
                const uint32_t t = topo.adjacentTriangles[k];
                const uint32_t* v = &before.triangles[3 * t];
                if (v[0] != v[1] && v[1] != v[2] && v[0] != v[2]) continue;
                for (uint32_t e = 0; e < 3; ++e)
                    if (v[e] == i) corners[3 * t + e] = gpu::kSplitDrop;
            }
            const Fans fans = findFans(before, topo, i);
            const uint32_t need = fans.count > 1 ? fans.count - 1 : 0;
            const bool fits = base + need <= cloth.spareCount;
            const uint32_t firstNew = cloth.firstParticle + cloth.vertexCount + base;
            if (need > 0 && fits) {
                s.fill[4 * c + 3] = std::max(s.fill[4 * c + 3], base + need);
                std::vector<double> areas(fans.count, 0.0);
                double total = 0.0;
                for (size_t a = 0; a < fans.triangles.size(); ++a) {
                    const double area = std::bit_cast<float>(topo.triangleInfo[fans.triangles[a]].w);
                    areas[fans.fanOf[a]] += area;
                    total += area;
                }
                const glm::dvec4 x = before.x[i], p = before.p[i], v = before.v[i];
                for (uint32_t f = 0; f < fans.count; ++f) {
                    const double w = x.w > 0.0 && areas[f] > 0.0 ? x.w * (total / areas[f]) : x.w;
                    const uint32_t to = f == 0 ? i : firstNew + f - 1;
                    s.x[to] = glm::dvec4(glm::dvec3(x), w);
                    s.p[to] = glm::dvec4(glm::dvec3(p), w);
                    s.v[to] = v;
                    s.adjacencyRows[to] = row;
                }
            } else if (need > 0) {
                s.fill[4 * c + 1] += 1;
                for (uint32_t f : fans.fanOf) s.fill[4 * c + 2] += f > 0 ? 1 : 0;
            }
            for (size_t a = 0; a < fans.triangles.size(); ++a) {
                const uint32_t t = fans.triangles[a], f = fans.fanOf[a];
                corners[3 * t + cornerOf(before.triangles, t, i)] =
                    f == 0 ? i : fits ? firstNew + f - 1 : gpu::kSplitDrop;
            }
            // The scan: the next particle's offset follows this one's needs, met or not.
            base += need;
        }
        s.fill[4 * c] = s.fill[4 * c + 3];
        for (uint32_t t = cloth.firstTriangle; t < cloth.firstTriangle + cloth.triangleCount; ++t) {
            const bool drop = corners[3 * t] == gpu::kSplitDrop || corners[3 * t + 1] == gpu::kSplitDrop ||
                              corners[3 * t + 2] == gpu::kSplitDrop;
            for (uint32_t e = 0; e < 3; ++e) s.triangles[3 * t + e] = drop ? before.triangles[3 * t] : corners[3 * t + e];
        }
    }
    auto followed = [&](uint32_t first, uint32_t fallback, uint32_t own) {
        uint32_t to = first != gpu::kSplitNone ? corners[first] : gpu::kSplitDrop;
        if (to == gpu::kSplitDrop && fallback != gpu::kSplitNone) to = corners[fallback];
        return to == gpu::kSplitDrop ? own : to;
    };
    for (size_t j = 0; j < s.distance.size(); ++j) {
        gpu::DistanceConstraint& d = s.distance[j];
        if (d.restLength < 0.0f) continue;
        const glm::uvec4 f = topo.distanceFollow[j];
        d.p0 = followed(f.x, f.y, d.p0);
        d.p1 = followed(f.z, f.w, d.p1);
    }
    for (size_t j = 0; j < s.bending.size(); ++j) {
        gpu::BendingConstraint& b = s.bending[j];
        if (b.scale < 0.0f) continue;
        const glm::uvec4 f0 = topo.bendingFollow[2 * j], f1 = topo.bendingFollow[2 * j + 1];
        const glm::uvec4 q = b.particles;
        b.particles = {followed(f0.x, f0.y, q.x), followed(f0.z, f0.w, q.y), followed(f1.x, f1.y, q.z),
                       followed(f1.z, f1.w, q.w)};
    }
}

}  // namespace vksim
