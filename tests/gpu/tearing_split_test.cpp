// Splitting torn vertices (docs/physics.md §1, "Tearing") on the GPU: the
// split pass against its double-precision reference frame by frame, with a
// reserve that holds every split and with one that runs out; the torn
// surface a manifold of whole triangles with every fan in one piece; the
// mass kept; the colouring valid on the buffers read back; the same bits on
// the per-colour and workgroup paths; reset back to the untorn mesh; the
// cluster path refused. Each test prints what it measured.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/pbd_splitting.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/sim_model.h"
#include "torn_sheet.h"

namespace vksim::test {
namespace {

class TearingSplit : public GpuTest {};

constexpr uint32_t kFrames = 20;
constexpr uint32_t kVertices = kTornSheetVertices;

const PbdTearing& tearingOf(GpuRun& run) { return *run.stepper().solver<PbdSolver>().tearing(); }
const PbdSplitting& splittingOf(GpuRun& run) { return *tearingOf(run).splitting(); }

template <typename T>
std::vector<T> download(const GpuBuffer& buffer, size_t count) {
    std::vector<T> values = buffer.downloadArray<T>();
    values.resize(count);
    return values;
}

std::vector<glm::dvec4> widenedWithW(const std::vector<glm::vec4>& values) {
    return std::vector<glm::dvec4>(values.begin(), values.end());
}

// What the split pass reads and writes, read back.
SplitState readState(GpuRun& run) {
    const ParticleStore& particles = run.stepper().particles();
    const PbdConstraints& c = run.stepper().solver<PbdSolver>().constraints();
    const uint32_t n = particles.particleCount();
    SplitState s;
    s.x = widenedWithW(particles.readPositions());
    s.p = widenedWithW(download<glm::vec4>(particles.predicted(), n));
    s.v = widenedWithW(particles.readVelocities());
    s.triangles = download<uint32_t>(particles.triangleIndices(), 3 * size_t(particles.triangleCount()));
    s.adjacencyRows = download<uint32_t>(particles.adjacencyRows(), n);
    s.distance = download<gpu::DistanceConstraint>(c.constraints(gpu::kPbdFamilyDistance),
                                                   c.count(gpu::kPbdFamilyDistance));
    s.bending =
        download<gpu::BendingConstraint>(c.constraints(gpu::kPbdFamilyBending), c.count(gpu::kPbdFamilyBending));
    for (const glm::uvec3& f : splittingOf(run).readFill()) s.fill.insert(s.fill.end(), {f.x, f.y, f.z, f.x});
    return s;
}

// Per particle, how many pieces its kept triangles make, joined where two
// share another vertex: the mesh's own connectivity, whatever broke.
std::vector<uint32_t> fanPieces(const std::vector<uint32_t>& t, size_t particles) {
    std::vector<std::vector<uint32_t>> fans(particles);
    for (uint32_t k = 0; 3 * k < t.size(); ++k) {
        const uint32_t* v = &t[3 * k];
        if (v[0] != v[1] && v[1] != v[2] && v[0] != v[2])
            for (uint32_t c = 0; c < 3; ++c) fans[v[c]].push_back(k);
    }
    std::vector<uint32_t> pieces(particles, 0);
    for (uint32_t p = 0; p < particles; ++p) {
        const std::vector<uint32_t>& fan = fans[p];
        std::vector<uint32_t> group(fan.size());
        for (uint32_t a = 0; a < fan.size(); ++a) group[a] = a;
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t a = 0; a < fan.size(); ++a)
                for (size_t b = 0; b < fan.size(); ++b) {
                    bool shared = false;
                    for (uint32_t c = 0; c < 3; ++c)
                        for (uint32_t e = 0; e < 3; ++e)
                            shared = shared || (t[3 * fan[a] + c] == t[3 * fan[b] + e] && t[3 * fan[a] + c] != p);
                    if (shared && group[b] > group[a]) {
                        group[b] = group[a];
                        changed = true;
                    }
                }
        }
        pieces[p] = static_cast<uint32_t>(std::set<uint32_t>(group.begin(), group.end()).size());
    }
    return pieces;
}

// The cloth's mass, sum of 1/w over its free particles.
double massOf(const std::vector<glm::dvec4>& x) {
    double m = 0.0;
    for (const glm::dvec4& p : x) m += p.w > 0.0 ? 1.0 / p.w : 0.0;
    return m;
}

// The split pass against splitReference, frame by frame: the state read
// back after the previous frame, with the frame's end positions (whose xyz
// the split pass leaves as they are on the particles it splits) and its
// broken flags (the tear pass, tested against its own reference in
// tearing_test.cpp), gives the reference's state, which must equal the
// GPU's bit for bit in every index, position, velocity and counter; the
// inverse masses, shared by area in float on the GPU and in double here,
// within 1e-6 relative (a few float roundings of w A / A_f). The cloth's
// mass, the sum of 1/w, is kept to the same tolerance.
void followReference(GpuRun& run, const SimModel& model, const char* label) {
    pullTornSheet(run, model);
    const SplitTopology& topology = splittingOf(run).topology();
    SplitState before = readState(run);
    const double mass0 = massOf(before.x);
    uint32_t differ = 0;
    double worstW = 0.0, worstMass = 0.0;
    for (uint32_t frame = 0; frame < kFrames; ++frame) {
        run.frames(1);
        const SplitState gpu = readState(run);
        SplitState ref = before;
        for (size_t i = 0; i < ref.x.size(); ++i) {
            ref.x[i] = glm::dvec4(glm::dvec3(gpu.x[i]), before.x[i].w);
            ref.p[i] = glm::dvec4(glm::dvec3(gpu.p[i]), before.p[i].w);
            ref.v[i] = gpu.v[i];
        }
        for (size_t j = 0; j < ref.distance.size(); ++j) ref.distance[j].restLength = gpu.distance[j].restLength;
        for (size_t j = 0; j < ref.bending.size(); ++j) ref.bending[j].scale = gpu.bending[j].scale;
        dropTornTriangles(ref.triangles, ref.distance, tearingOf(run).triangleEdges());
        splitReference(ref, topology);
        for (size_t i = 0; i < ref.x.size(); ++i) {
            for (int k = 0; k < 3; ++k)
                differ += (ref.x[i][k] != gpu.x[i][k] || ref.p[i][k] != gpu.p[i][k] || ref.v[i][k] != gpu.v[i][k]);
            for (double w : {gpu.x[i].w, gpu.p[i].w}) {
                const double e = std::abs(w - ref.x[i].w) / std::max(ref.x[i].w, 1e-30);
                worstW = std::max(worstW, ref.x[i].w > 0.0 ? e : std::abs(w));
            }
        }
        differ += ref.triangles != gpu.triangles ? 1 : 0;
        differ += ref.adjacencyRows != gpu.adjacencyRows ? 1 : 0;
        for (size_t c = 0; c < topology.cloths.size(); ++c)
            for (uint32_t k = 0; k < 3; ++k) differ += ref.fill[4 * c + k] != gpu.fill[4 * c + k] ? 1 : 0;
        differ += std::memcmp(ref.distance.data(), gpu.distance.data(), ref.distance.size() * 16) != 0 ? 1 : 0;
        for (size_t j = 0; j < ref.bending.size(); ++j)
            differ += ref.bending[j].particles != gpu.bending[j].particles ? 1 : 0;
        worstMass = std::max(worstMass, std::abs(massOf(gpu.x) - mass0) / mass0);
        before = gpu;
    }
    const glm::uvec3 fill = splittingOf(run).readFill()[0];
    std::cout << fmt::format("[split] {}: over {} frames {} stretch constraints broke, {} of {} spare particles "
                             "taken, {} vertices refused ({} triangles dropped); GPU and reference differ in {} "
                             "values, inverse masses by {:.2e} relative; the mass drifts by {:.2e} relative\n",
                             label, kFrames, brokenCount(before.distance), fill.x, topology.cloths[0].spareCount,
                             fill.y, fill.z, differ, worstW, worstMass);
    EXPECT_GT(fill.x, 0u);
    EXPECT_EQ(differ, 0u);
    EXPECT_LT(worstW, 1e-6);
    EXPECT_LT(worstMass, 1e-6);
}

TEST_F(TearingSplit, PassFollowsTheReference) {
    const Scene scene = tornSheet(PbdPath::PerColour, float(kVertices));
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    followReference(run, model, "a reserve of 60");
    EXPECT_EQ(splittingOf(run).readFill()[0].y, 0u);
}

// Past its capacity a vertex keeps one fan and its other fans' triangles
// leave the surface, on the GPU as in the reference.
TEST_F(TearingSplit, OutOfCapacityDropsTheOtherFans) {
    const Scene scene = tornSheet(PbdPath::PerColour, 3.0f);
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    followReference(run, model, "a reserve of 3");
    const glm::uvec3 fill = splittingOf(run).readFill()[0];
    EXPECT_LE(fill.x, 3u);
    EXPECT_GT(fill.y, 0u);
    EXPECT_GT(fill.z, 0u);
}

// The surface drawn after tearing (the triangle indices read back), with a
// reserve that holds every split and with one that runs out: no triangle
// has two equal indices but the dropped ones (all three equal), no edge is
// in more than two triangles, and every particle's kept triangles are one
// fan (joined through shared edges: the mesh's connectivity, not the split
// pass's rule). No kept triangle has two broken edges (its third corner
// would hang on nothing: such a triangle leaves the surface, and with a
// reserve that holds every split those are all that leave it). No unused
// spare particle is in a triangle or moves.
TEST_F(TearingSplit, TornSurfaceIsAManifold) {
    for (float capacity : {float(kVertices), 3.0f}) {
        const Scene scene = tornSheet(PbdPath::PerColour, capacity);
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, scene.solver);
        pullTornSheet(run, model);
        run.frames(kFrames);
        const SplitState s = readState(run);
        const SplitTopology& topology = splittingOf(run).topology();
        const gpu::SplitCloth& cloth = topology.cloths[0];
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> edgeUse;
        uint32_t dropped = 0, degenerate = 0, overused = 0, pieces = 0, split = 0, unusedTouched = 0;
        uint32_t lone = 0, looseKept = 0;
        const auto broken = [&](uint32_t j) { return j != gpu::kNoHinge && s.distance[j].restLength < 0 ? 1u : 0u; };
        for (const glm::uvec4& e : tearingOf(run).triangleEdges()) {
            const uint32_t* corners = &s.triangles[3 * size_t(e.x & ~gpu::kTearSplitTriangle)];
            const bool kept = corners[0] != corners[1] || corners[1] != corners[2];
            const bool loose = broken(e.y) + broken(e.z) + broken(e.w) >= 2;
            lone += loose ? 1 : 0;
            looseKept += loose && kept ? 1 : 0;
        }
        for (size_t k = 0; k < s.triangles.size(); k += 3) {
            const uint32_t a = s.triangles[k], b = s.triangles[k + 1], c = s.triangles[k + 2];
            if (a == b && b == c) {
                ++dropped;
                continue;
            }
            degenerate += (a == b || b == c || a == c) ? 1 : 0;
            for (auto [u, v] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}})
                overused += ++edgeUse[std::minmax(u, v)] > 2 ? 1 : 0;
            for (uint32_t v : {a, b, c})
                unusedTouched += v >= cloth.firstParticle + cloth.vertexCount + s.fill[0] ? 1 : 0;
        }
        for (uint32_t n : fanPieces(s.triangles, s.x.size())) pieces += n > 1 ? 1 : 0;
        for (uint32_t i = cloth.vertexCount; i < cloth.vertexCount + cloth.spareCount; ++i) {
            if (i < cloth.vertexCount + s.fill[0]) ++split;
            else unusedTouched += s.x[i] != glm::dvec4(model.positions[i]) ? 1 : 0;
        }
        std::cout << fmt::format("[split] capacity {}: {} broken, {} particles split off, {} of {} triangles "
                                 "dropped ({} with two broken edges, {} of them kept); {} kept degenerate, {} edges "
                                 "in more than two, {} particles whose fan is in several pieces, {} unused spare "
                                 "particles touched\n",
                                 capacity, brokenCount(s.distance), split, dropped, s.triangles.size() / 3, lone,
                                 looseKept, degenerate, overused, pieces, unusedTouched);
        EXPECT_GT(split, 0u);
        EXPECT_EQ(looseKept, 0u);
        if (capacity == float(kVertices)) EXPECT_EQ(dropped, lone);
        else EXPECT_GT(dropped, lone);
        EXPECT_EQ(degenerate, 0u);
        EXPECT_EQ(overused, 0u);
        // Past the capacity, a triangle dropped this frame can leave a
        // neighbour's fan in pieces until the next frame splits or drops it.
        if (capacity == float(kVertices)) {
            EXPECT_EQ(pieces, 0u);
        }
        EXPECT_EQ(unusedTouched, 0u);
    }
}

// Moving constraints to new particles keeps every colour valid: read back
// after the splits, no colour step (per family or across families) has two
// constraints sharing a particle, and every particle a constraint moved to
// is a spare one.
TEST_F(TearingSplit, ColouringStaysValid) {
    for (PbdColouring colouring : {PbdColouring::PerFamily, PbdColouring::AcrossFamilies}) {
        Scene scene = tornSheet(PbdPath::PerColour, float(kVertices));
        scene.solver.pbd.colouring = colouring;
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, scene.solver);
        const SplitState s0 = readState(run);
        pullTornSheet(run, model);
        run.frames(kFrames);
        const SplitState s = readState(run);
        const PbdConstraints& c = run.stepper().solver<PbdSolver>().constraints();
        const FamilyGroups groups = c.groups();
        uint32_t clashes = 0, steps = 0, moved = 0, strayed = 0;
        auto movedTo = [&](uint32_t from, uint32_t to) {
            if (from == to) return;
            ++moved;
            strayed += to < kVertices ? 1 : 0;
        };
        for (const ColourStep& step : c.steps()) {
            if (step.serial) continue;
            std::set<uint32_t> seen;
            auto take = [&](uint32_t p) { clashes += seen.insert(p).second ? 0 : 1; };
            if (step.families[gpu::kPbdFamilyDistance]) {
                const ColourRange r = groups[gpu::kPbdFamilyDistance]->colours[step.colour];
                for (uint32_t j = r.first; j < r.first + r.count; ++j) {
                    take(s.distance[j].p0);
                    take(s.distance[j].p1);
                }
            }
            if (step.families[gpu::kPbdFamilyBending]) {
                const ColourRange r = groups[gpu::kPbdFamilyBending]->colours[step.colour];
                for (uint32_t j = r.first; j < r.first + r.count; ++j)
                    for (int k = 0; k < 4; ++k) take(s.bending[j].particles[k]);
            }
            ++steps;
        }
        for (size_t j = 0; j < s.distance.size(); ++j) {
            movedTo(s0.distance[j].p0, s.distance[j].p0);
            movedTo(s0.distance[j].p1, s.distance[j].p1);
        }
        for (size_t j = 0; j < s.bending.size(); ++j)
            for (int k = 0; k < 4; ++k) movedTo(s0.bending[j].particles[k], s.bending[j].particles[k]);
        std::cout << fmt::format("[split] {}: {} spare particles taken; {} colour steps checked, {} particles shared "
                                 "within a colour; {} constraint ends moved, {} of them not to a spare particle\n",
                                 kPbdColouringNames[static_cast<size_t>(colouring)], s.fill[0], steps, clashes, moved,
                                 strayed);
        EXPECT_GT(moved, 0u);
        EXPECT_EQ(clashes, 0u);
        EXPECT_EQ(strayed, 0u);
    }
}

// The workgroup path (the cloth's range, its spare particles with it, in
// shared memory) steps the per-colour path's bits, splits included: the
// same positions, constraints and triangles after 20 frames. "auto" takes
// no cluster path for a cloth that splits, and "clusters" is refused.
TEST_F(TearingSplit, SameBitsOnThePerColourAndWorkgroupPaths) {
    std::vector<SplitState> states;
    for (PbdPath path : {PbdPath::PerColour, PbdPath::Workgroup}) {
        const Scene scene = tornSheet(path, float(kVertices));
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, scene.solver);
        const PbdSolver& solver = run.stepper().solver<PbdSolver>();
        ASSERT_FALSE(solver.pathMisfit(path));
        ASSERT_TRUE(solver.pathMisfit(PbdPath::Clusters));
        SolverSettings automatic = scene.solver;
        automatic.pbd.path = PbdPath::Auto;
        EXPECT_NE(solver.pathFor(automatic), PbdPath::Clusters);
        pullTornSheet(run, model);
        run.frames(kFrames);
        states.push_back(readState(run));
    }
    const SplitState &a = states[0], &b = states[1];
    uint32_t positions = 0;
    for (size_t i = 0; i < a.x.size(); ++i) positions += (a.x[i] != b.x[i] || a.v[i] != b.v[i]) ? 1 : 0;
    const bool constraints =
        std::memcmp(a.distance.data(), b.distance.data(), a.distance.size() * sizeof(gpu::DistanceConstraint)) == 0 &&
        std::memcmp(a.bending.data(), b.bending.data(), a.bending.size() * sizeof(gpu::BendingConstraint)) == 0;
    std::cout << fmt::format("[split] per colour against workgroup: {} spare particles taken; {} particles differ, "
                             "constraints {}, triangles {}\n",
                             a.fill[0], positions, constraints ? "equal" : "differ",
                             a.triangles == b.triangles ? "equal" : "differ");
    EXPECT_GT(a.fill[0], 0u);
    EXPECT_EQ(positions, 0u);
    EXPECT_TRUE(constraints);
    EXPECT_EQ(a.triangles, b.triangles);
    EXPECT_EQ(a.fill, b.fill);
}

// Reset takes the world back to the untorn mesh: the model's triangles,
// constraints, positions, no spare particle used, every particle its own
// adjacency row; and the frames after it are the first run's, bit for bit.
TEST_F(TearingSplit, ResetRestoresTheUntornMesh) {
    const Scene scene = tornSheet(PbdPath::PerColour, float(kVertices));
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    const SplitState untorn = readState(run);
    pullTornSheet(run, model);
    run.frames(kFrames);
    const SplitState torn = readState(run);
    run.reset(model);
    const SplitState back = readState(run);
    pullTornSheet(run, model);
    run.frames(kFrames);
    const SplitState again = readState(run);
    std::vector<uint32_t> identity(model.particleCount());
    for (uint32_t i = 0; i < identity.size(); ++i) identity[i] = i;
    const bool restored = back.triangles == model.triangles && back.adjacencyRows == identity &&
                          back.x == untorn.x && back.fill == untorn.fill &&
                          std::memcmp(back.distance.data(), untorn.distance.data(), untorn.distance.size() * 16) == 0;
    std::cout << fmt::format("[split] {} spare particles taken, then reset: untorn mesh {}; the second run {} the "
                             "first\n",
                             torn.fill[0], restored ? "restored" : "NOT restored",
                             again.x == torn.x && again.triangles == torn.triangles ? "repeats" : "differs from");
    EXPECT_GT(torn.fill[0], 0u);
    EXPECT_TRUE(restored);
    EXPECT_EQ(again.x, torn.x);
    EXPECT_EQ(again.triangles, torn.triangles);
    EXPECT_EQ(again.fill, torn.fill);
}

}  // namespace
}  // namespace vksim::test
