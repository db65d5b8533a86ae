// Tearing of PBD cloths (docs/physics.md §1, "Tearing") on the GPU: a sheet
// stretched along its length breaks at the threshold strain; the tear pass
// against its double-precision reference; the colouring valid on the
// constraint buffers read back after tearing; the same bits on the
// per-colour and workgroup paths; the live threshold edit. Each test prints
// what it measured.
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
#include "solvers/pbd/pbd_materials.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/sim_model.h"
#include "torn_sheet.h"
#include "widened.h"

namespace vksim::test {
namespace {

class Tearing : public GpuTest {};

constexpr float kStrain = kTornSheetStrain;

const PbdConstraints& constraintsOf(GpuRun& run) { return run.stepper().solver<PbdSolver>().constraints(); }

std::vector<gpu::DistanceConstraint> distanceOf(GpuRun& run) {
    const PbdConstraints& c = constraintsOf(run);
    std::vector<gpu::DistanceConstraint> d =
        c.constraints(gpu::kPbdFamilyDistance).downloadArray<gpu::DistanceConstraint>();
    d.resize(c.count(gpu::kPbdFamilyDistance));
    return d;
}

std::vector<gpu::BendingConstraint> bendingOf(GpuRun& run) {
    const PbdConstraints& c = constraintsOf(run);
    std::vector<gpu::BendingConstraint> b =
        c.constraints(gpu::kPbdFamilyBending).downloadArray<gpu::BendingConstraint>();
    b.resize(c.count(gpu::kPbdFamilyBending));
    return b;
}

std::vector<uint32_t> trianglesOf(GpuRun& run) {
    std::vector<uint32_t> t = run.stepper().particles().triangleIndices().downloadArray<uint32_t>();
    t.resize(3 * size_t(run.stepper().particles().triangleCount()));
    return t;
}

// (|x0 - x1| - d) / d of a constraint of rest length |restLength|.
double strainOf(const gpu::DistanceConstraint& c, const std::vector<glm::dvec3>& x) {
    const double rest = std::abs(double(c.restLength));
    return (glm::length(x[c.p0] - x[c.p1]) - rest) / rest;
}

// The constraints tear at the end of the first frame whose positions strain
// them past the threshold, and not before: each constraint that broke in
// that frame was strained at most kStrain at the previous frame's end and
// more than kStrain at this one's, and none of those left whole is past it.
// The tear pass reads the end-of-frame positions, which are what is read
// back. The bound on the strain at the break is the threshold plus the
// strain of one frame (the largest increase of a broken constraint's strain
// over its frame, printed); rounding: strains within 1e-6 of the threshold
// are not judged (float lengths near 0.1 m round at 1e-8 relative).
TEST_F(Tearing, SheetPulledApartBreaksAtTheThresholdStrain) {
    const Scene scene = tornSheet(PbdPath::PerColour);
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    pullTornSheet(run, model);
    std::vector<glm::dvec3> before = widened(run.positions());
    uint32_t frame = 0;
    for (; frame < 60; ++frame) {
        run.frames(1);
        const std::vector<gpu::DistanceConstraint> d = distanceOf(run);
        const std::vector<glm::dvec3> x = widened(run.positions());
        const uint32_t broken = brokenCount(d);
        if (broken == 0) {
            for (const auto& c : d) ASSERT_LE(strainOf(c, x), kStrain + 1e-6);
            before = x;
            continue;
        }
        double lowest = 1e30, highest = 0.0, step = 0.0, whole = -1e30;
        for (const auto& c : d) {
            if (c.restLength < 0.0f) {
                lowest = std::min(lowest, strainOf(c, x));
                highest = std::max(highest, strainOf(c, x));
                step = std::max(step, strainOf(c, x) - strainOf(c, before));
                EXPECT_LE(strainOf(c, before), kStrain + 1e-6);
            } else {
                whole = std::max(whole, strainOf(c, x));
            }
        }
        std::cout << fmt::format(
            "[tearing] first break at frame {}: {} of {} stretch constraints, strain at the break {:.4f} to {:.4f} "
            "(threshold {}, one frame adds up to {:.4f}); the largest strain left whole {:.4f}\n",
            frame, broken, d.size(), lowest, highest, kStrain, step, whole);
        EXPECT_GT(lowest, kStrain - 1e-6);
        EXPECT_LT(highest, kStrain + step + 1e-6);
        EXPECT_LE(whole, kStrain + 1e-6);
        break;
    }
    EXPECT_LT(frame, 60u) << "the sheet never tore";
}

// The tear pass against tearReference (double), frame by frame while the
// sheet tears: the constraints before the frame's tear (read back after the
// previous frame) and the frame's end positions give the reference's
// constraints, which must equal the GPU's bit for bit but where a strain is
// within 1e-6 of the threshold (float against double length; none expected).
TEST_F(Tearing, PassFollowsTheReference) {
    const Scene scene = tornSheet(PbdPath::PerColour);
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    pullTornSheet(run, model);
    const PbdTearing& tearing = *run.stepper().solver<PbdSolver>().tearing();
    std::vector<gpu::DistanceConstraint> d = distanceOf(run);
    std::vector<gpu::BendingConstraint> b = bendingOf(run);
    std::vector<uint32_t> t = trianglesOf(run);
    uint32_t differ = 0, close = 0, brokeTotal = 0, bendingBroken = 0, dropped = 0;
    for (uint32_t frame = 0; frame < 20; ++frame) {
        run.frames(1);
        const std::vector<glm::dvec3> x = widened(run.positions());
        brokeTotal += tearReference(d, b, t, x, tearing.strains(), tearing.hinges(), tearing.triangleEdges());
        const std::vector<gpu::DistanceConstraint> gd = distanceOf(run);
        const std::vector<gpu::BendingConstraint> gb = bendingOf(run);
        const std::vector<uint32_t> gt = trianglesOf(run);
        for (size_t k = 0; k < t.size(); ++k) differ += gt[k] != t[k] ? 1 : 0;
        for (size_t j = 0; j < d.size(); ++j) {
            if (std::bit_cast<uint32_t>(gd[j].restLength) == std::bit_cast<uint32_t>(d[j].restLength)) continue;
            if (std::abs(strainOf(d[j], x) - kStrain) < 1e-6) ++close;
            else ++differ;
        }
        for (size_t j = 0; j < b.size(); ++j)
            if (std::bit_cast<uint32_t>(gb[j].scale) != std::bit_cast<uint32_t>(b[j].scale)) ++differ;
        d = gd;  // the next frame from the GPU's flags, so that a difference is counted once
        b = gb;
        t = gt;
    }
    for (const auto& c : b) bendingBroken += c.scale < 0.0f ? 1 : 0;
    for (size_t k = 0; k < t.size(); k += 3) dropped += t[k] == t[k + 1] && t[k] == t[k + 2] ? 1 : 0;
    std::cout << fmt::format("[tearing] over 20 frames {} stretch and {} bending constraints broke, {} of {} "
                             "triangles dropped; GPU and reference differ on {} (and {} within 1e-6 of the "
                             "threshold)\n",
                             brokeTotal, bendingBroken, dropped, t.size() / 3, differ, close);
    EXPECT_GT(brokeTotal, 0u);
    EXPECT_GT(bendingBroken, 0u);
    EXPECT_GT(dropped, 0u);
    EXPECT_EQ(differ, 0u);
}

// Breaking changes no particle index: read back after tearing, every
// colour of every step still has no two constraints that share a particle
// (whatever family they are of), and each constraint holds the particles it
// was built with. A bending constraint is broken exactly where its hinge's
// stretch constraint is.
TEST_F(Tearing, ColouringStaysValid) {
    for (PbdColouring colouring : {PbdColouring::PerFamily, PbdColouring::AcrossFamilies}) {
        Scene scene = tornSheet(PbdPath::PerColour);
        scene.solver.pbd.colouring = colouring;
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, scene.solver);
        pullTornSheet(run, model);
        const std::vector<gpu::DistanceConstraint> d0 = distanceOf(run);
        const std::vector<gpu::BendingConstraint> b0 = bendingOf(run);
        run.frames(20);
        const std::vector<gpu::DistanceConstraint> d = distanceOf(run);
        const std::vector<gpu::BendingConstraint> b = bendingOf(run);
        ASSERT_GT(brokenCount(d), 0u);
        const PbdConstraints& c = constraintsOf(run);
        const FamilyGroups groups = c.groups();
        uint32_t clashes = 0, checkedSteps = 0;
        for (const ColourStep& step : c.steps()) {
            if (step.serial) continue;
            std::set<uint32_t> seen;
            auto take = [&](uint32_t p) { clashes += seen.insert(p).second ? 0 : 1; };
            if (step.families[gpu::kPbdFamilyDistance]) {
                const ColourRange r = groups[gpu::kPbdFamilyDistance]->colours[step.colour];
                for (uint32_t j = r.first; j < r.first + r.count; ++j) {
                    take(d[j].p0);
                    take(d[j].p1);
                }
            }
            if (step.families[gpu::kPbdFamilyBending]) {
                const ColourRange r = groups[gpu::kPbdFamilyBending]->colours[step.colour];
                for (uint32_t j = r.first; j < r.first + r.count; ++j)
                    for (int k = 0; k < 4; ++k) take(b[j].particles[k]);
            }
            ++checkedSteps;
        }
        uint32_t moved = 0, hingeMismatch = 0;
        for (size_t j = 0; j < d.size(); ++j) moved += (d[j].p0 != d0[j].p0 || d[j].p1 != d0[j].p1) ? 1 : 0;
        const std::vector<uint32_t>& hinges = run.stepper().solver<PbdSolver>().tearing()->hinges();
        for (size_t j = 0; j < b.size(); ++j) {
            moved += b[j].particles != b0[j].particles ? 1 : 0;
            const bool hingeBroken = hinges[j] != gpu::kNoHinge && d[hinges[j]].restLength < 0.0f;
            hingeMismatch += hingeBroken != (b[j].scale < 0.0f) ? 1 : 0;
        }
        std::cout << fmt::format("[tearing] {}: {} broken; {} colour steps checked, {} particles shared within a "
                                 "colour, {} constraints re-indexed, {} bending constraints off their hinge\n",
                                 kPbdColouringNames[static_cast<size_t>(colouring)], brokenCount(d), checkedSteps,
                                 clashes, moved, hingeMismatch);
        EXPECT_EQ(clashes, 0u);
        EXPECT_EQ(moved, 0u);
        EXPECT_EQ(hingeMismatch, 0u);
    }
}

// The surface the renderer draws after tearing (the triangle indices read
// back): every triangle with a broken edge is dropped (its indices collapsed
// to one), every other one kept whole with three distinct vertices; among
// the kept ones no edge is in more than two triangles. Vertices where the
// kept triangles meet only at the vertex (a fan in several pieces, which a
// split would separate: not built) are counted and printed.
TEST_F(Tearing, TornSurfaceIsAManifold) {
    const Scene scene = tornSheet(PbdPath::PerColour);
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    pullTornSheet(run, model);
    run.frames(20);
    const std::vector<gpu::DistanceConstraint> d = distanceOf(run);
    const std::vector<uint32_t> t = trianglesOf(run);
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> edgeUse, constraintOf;
    for (uint32_t j = 0; j < d.size(); ++j) constraintOf[std::minmax(d[j].p0, d[j].p1)] = j;
    uint32_t dropped = 0, wrong = 0, degenerate = 0, overused = 0;
    std::vector<std::vector<uint32_t>> fans(model.particleCount());
    for (size_t k = 0; k < t.size(); k += 3) {
        const uint32_t a = model.triangles[k], b = model.triangles[k + 1], c = model.triangles[k + 2];
        bool torn = false;
        for (auto [u, v] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}})
            torn = torn || d[constraintOf.at(std::minmax(u, v))].restLength < 0.0f;
        const bool collapsed = t[k] == t[k + 1] && t[k] == t[k + 2];
        dropped += collapsed ? 1 : 0;
        wrong += collapsed != torn ? 1 : 0;
        if (collapsed) continue;
        degenerate += (t[k] == t[k + 1] || t[k + 1] == t[k + 2] || t[k] == t[k + 2]) ? 1 : 0;
        for (auto [u, v] : {std::pair{t[k], t[k + 1]}, std::pair{t[k + 1], t[k + 2]}, std::pair{t[k + 2], t[k]}})
            overused += ++edgeUse[std::minmax(u, v)] > 2 ? 1 : 0;
        for (uint32_t corner = 0; corner < 3; ++corner) fans[t[k + corner]].push_back(uint32_t(k / 3));
    }
    // A fan is in one piece when its triangles are joined through edges at the vertex.
    uint32_t pieces = 0;
    for (uint32_t v = 0; v < fans.size(); ++v) {
        const std::vector<uint32_t>& fan = fans[v];
        if (fan.empty()) continue;
        std::vector<uint32_t> group(fan.size());
        for (size_t i = 0; i < fan.size(); ++i) group[i] = uint32_t(i);
        for (bool changed = true; changed;) {
            changed = false;
            for (size_t i = 0; i < fan.size(); ++i)
                for (size_t k = 0; k < fan.size(); ++k) {
                    std::set<uint32_t> shared;
                    for (uint32_t c = 0; c < 3; ++c)
                        for (uint32_t e = 0; e < 3; ++e)
                            if (t[3 * fan[i] + c] == t[3 * fan[k] + e] && t[3 * fan[i] + c] != v)
                                shared.insert(t[3 * fan[i] + c]);
                    if (!shared.empty() && group[k] > group[i]) {
                        group[k] = group[i];
                        changed = true;
                    }
                }
        }
        pieces += std::set<uint32_t>(group.begin(), group.end()).size() > 1 ? 1 : 0;
    }
    std::cout << fmt::format("[tearing] {} broken, {} of {} triangles dropped ({} dropped or kept against their "
                             "edges), {} kept degenerate, {} edges in more than two; {} vertices whose fan is in "
                             "several pieces\n",
                             brokenCount(d), dropped, t.size() / 3, wrong, degenerate, overused, pieces);
    EXPECT_GT(dropped, 0u);
    EXPECT_EQ(wrong, 0u);
    EXPECT_EQ(degenerate, 0u);
    EXPECT_EQ(overused, 0u);
}

// The workgroup path steps the per-colour path's bits (docs/physics.md §1),
// and tearing runs after either's frame on the same positions: the same
// positions and the same broken constraints, bit for bit, over 20 frames.
TEST_F(Tearing, SameBitsOnThePerColourAndWorkgroupPaths) {
    std::vector<std::vector<glm::vec4>> x;
    std::vector<std::vector<gpu::DistanceConstraint>> d;
    for (PbdPath path : {PbdPath::PerColour, PbdPath::Workgroup}) {
        const Scene scene = tornSheet(path);
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, scene.solver);
        ASSERT_FALSE(run.stepper().solver<PbdSolver>().pathMisfit(path));
        pullTornSheet(run, model);
        run.frames(20);
        x.push_back(run.positions());
        d.push_back(distanceOf(run));
    }
    uint32_t positionsDiffer = 0, flagsDiffer = 0;
    for (size_t i = 0; i < x[0].size(); ++i) positionsDiffer += std::memcmp(&x[0][i], &x[1][i], 16) != 0 ? 1 : 0;
    for (size_t j = 0; j < d[0].size(); ++j) flagsDiffer += std::memcmp(&d[0][j], &d[1][j], 16) != 0 ? 1 : 0;
    std::cout << fmt::format("[tearing] per colour against workgroup: {} broken, {} positions and {} constraints "
                             "differ\n",
                             brokenCount(d[0]), positionsDiffer, flagsDiffer);
    EXPECT_GT(brokenCount(d[0]), 0u);
    EXPECT_EQ(positionsDiffer, 0u);
    EXPECT_EQ(flagsDiffer, 0u);
}

// The live threshold (PbdTearEdit): the sheet stretched for 4 frames (its
// strain still growing: the first test's sheet tears at 0.3 in its sixth)
// tears nowhere at threshold 1; lowered to 0.9 of the largest strain
// reached, it tears at the next frame's end. A cloth without "tearing" refuses the edit.
TEST_F(Tearing, LiveThresholdEdit) {
    Scene scene = tornSheet(PbdPath::PerColour);
    scene.cloths[0].tearing.strain = 1.0f;
    SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    pullTornSheet(run, model);
    run.frames(4);
    const double reached = [&] {
        const std::vector<glm::dvec3> x = widened(run.positions());
        double s = 0.0;
        for (const auto& c : distanceOf(run)) s = std::max(s, strainOf(c, x));
        return s;
    }();
    EXPECT_EQ(brokenCount(distanceOf(run)), 0u);
    PbdTearEdit{0, static_cast<float>(reached) * 0.9f}.apply(scene, model, run.stepper().solver<PbdSolver>());
    run.frames(1);
    const uint32_t broken = brokenCount(distanceOf(run));
    std::cout << fmt::format("[tearing] strain {:.3f} reached under threshold 1 in 4 frames; at threshold {:.3f} "
                             "{} broke in the next frame\n",
                             reached, reached * 0.9, broken);
    EXPECT_GT(broken, 0u);
    EXPECT_FLOAT_EQ(scene.cloths[0].tearing.strain, static_cast<float>(reached) * 0.9f);
    EXPECT_THROW((PbdTearEdit{0, 0.0f}.apply(scene, model, run.stepper().solver<PbdSolver>())), std::invalid_argument);
    Scene plain = tornSheet(PbdPath::PerColour);
    plain.cloths[0].tearing = {};
    SimModel plainModel = buildModel(plain);
    GpuRun plainRun(ctx(), plainModel, plain.solver);
    EXPECT_THROW((PbdTearEdit{0, 0.5f}.apply(plain, plainModel, plainRun.stepper().solver<PbdSolver>())),
                 std::invalid_argument);
}

}  // namespace
}  // namespace vksim::test
