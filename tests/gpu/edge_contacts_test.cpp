// Edge-edge contacts (docs/physics.md, "Contacts between objects"): a
// coarse plate (one quad of cloth, or 3 x 3 quads a hundred times their
// thickness) dropped across the ridge of a pinned wall (one quad standing
// on edge), both offering their triangles, so that
// the ridge crosses the plate's edges between their vertices and no vertex
// of either is within reach of the other's triangles. Vertex-triangle
// contacts alone let the plate fall through the ridge; with the edge-edge
// contacts it hangs on it, no two triangles intersect and the surfaces keep
// their contact distance apart, less what the iterations leave; the GPU
// follows the CPU reference in double. Every test prints what it measured.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "contact_measures.h"
#include "contacts/contact_model.h"
#include "contacts/contact_stage.h"
#include "geometry/shared_math.h"
#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim::test {
namespace {

class EdgeContacts : public GpuTest {};

// 1 cm thick: the contact distance 2t = 2 cm is a tenth of the ridge's
// 20 cm edge and a fifth of the plate's 10 cm edges.
constexpr float kThickness = 0.01f;
constexpr float kRidgeHeight = 0.325f;

// The distance between the closest points contact_math.glsl's
// contactClosestOnSegments gives (in double, as the reference runs it).
double segmentDistance(const glm::dvec3& a0, const glm::dvec3& a1, const glm::dvec3& b0, const glm::dvec3& b1) {
    const glm::dvec2 at = ref::contactClosestOnSegments(a0, a1, b0, b1);
    EXPECT_TRUE(std::isfinite(at.x) && std::isfinite(at.y));
    EXPECT_TRUE(at.x >= 0.0 && at.x <= 1.0 && at.y >= 0.0 && at.y <= 1.0);
    return glm::length(ref::contactEdgeOffset(glm::dvec4(1.0 - at.x, at.x, 1.0 - at.y, at.y), a0, a1, b0, b1));
}

// The smallest distance over a 201 x 201 grid of (s, t), a bound from above
// on the true one within 1/200 of the segments' lengths.
double sampledDistance(const glm::dvec3& a0, const glm::dvec3& a1, const glm::dvec3& b0, const glm::dvec3& b1) {
    double best = std::numeric_limits<double>::infinity();
    for (int i = 0; i <= 200; ++i)
        for (int j = 0; j <= 200; ++j)
            best = std::min(best, glm::length((a0 + (i / 200.0) * (a1 - a0)) - (b0 + (j / 200.0) * (b1 - b0))));
    return best;
}

// The closest points of two segments (Ericson 2005, §5.1.9) on crossing,
// skew, parallel, collinear, near-parallel and zero-length segments: the
// parameters finite and in [0, 1], the distance no more than a dense
// sampling's (to 1e-12) and no less than it by more than the sampling's
// step (each segment's length / 200), and exact where it is known.
// Near-parallel segments take a closest pair of the parallel case, within
// L sin(angle) of the closest (docs/physics.md §14): 1e-3 here.
TEST(EdgeContactMath, ClosestPointsOfSegments) {
    using glm::dvec3;
    struct Case {
        const char* name;
        dvec3 a0, a1, b0, b1;
        double exact;  // < 0: not known in closed form
        double slack = 1e-12;  // how far above the sampled distance it may be
    };
    const double tilt = 1e-3;  // near-parallel: under the 0.6 degree bound
    const Case cases[] = {
        {"crossing 1 cm apart", {-1, 0, 0}, {1, 0, 0}, {0, 0.01, -1}, {0, 0.01, 1}, 0.01},
        {"parallel, overlapping", {0, 0, 0}, {1, 0, 0}, {0.3, 0.02, 0}, {1.3, 0.02, 0}, 0.02},
        {"collinear, overlapping", {0, 0, 0}, {1, 0, 0}, {0.5, 0, 0}, {2, 0, 0}, 0.0},
        {"collinear, apart", {0, 0, 0}, {1, 0, 0}, {1.5, 0, 0}, {2, 0, 0}, 0.5},
        {"near-parallel, opening", {0, 0, 0}, {1, 0, 0}, {0.2, 0.01, 0}, {1.2, 0.01 + tilt, 0}, 0.01},
        {"near-parallel, closing", {0, 0, 0}, {1, 0, 0}, {0.2, 0.01 + tilt, 0}, {1.2, 0.01, 0}, -1.0, tilt},
        {"a point and a segment", {0.4, 0.03, 0}, {0.4, 0.03, 0}, {0, 0, 0}, {1, 0, 0}, 0.03},
        {"two points", {0, 0, 0}, {0, 0, 0}, {0, 0.05, 0}, {0, 0.05, 0}, 0.05},
        {"end to end", {0, 0, 0}, {1, 0, 0}, {1.1, 0.1, 0}, {2, 1, 0}, std::sqrt(0.02)},
    };
    for (const Case& test : cases) {
        const double d = segmentDistance(test.a0, test.a1, test.b0, test.b1);
        const double sampled = sampledDistance(test.a0, test.a1, test.b0, test.b1);
        std::cout << fmt::format("[edge contacts] {}: distance {:.9f}, sampled {:.9f}, exact {}\n", test.name, d,
                                 sampled, test.exact);
        EXPECT_LE(d, sampled + test.slack) << test.name;
        if (test.exact >= 0.0) {
            EXPECT_NEAR(d, test.exact, 1e-12) << test.name;
        }
    }
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    double worst = 0.0;
    for (int i = 0; i < 200; ++i) {
        const dvec3 a0(unit(rng), unit(rng), unit(rng)), a1(unit(rng), unit(rng), unit(rng));
        const dvec3 b0(unit(rng), unit(rng), unit(rng)), b1(unit(rng), unit(rng), unit(rng));
        const double d = segmentDistance(a0, a1, b0, b1), sampled = sampledDistance(a0, a1, b0, b1);
        EXPECT_LE(d, sampled + 1e-12);
        // The sampling's step: within half a step of each segment's true closest point.
        const double step = (glm::length(a1 - a0) + glm::length(b1 - b0)) / 200.0;
        EXPECT_GE(d, sampled - step);
        worst = std::max(worst, sampled - d);
    }
    std::cout << fmt::format("[edge contacts] 200 random segment pairs: sampling at most {:.2e} above\n", worst);
}

// The model's edges: each edge of a grid cloth's triangles once, a < b,
// and every contact particle's edge list its edges ascending; none without
// "triangles".
TEST(EdgeContactMath, ModelHoldsEachEdgeOnce) {
    Scene scene;
    ClothObject cloth = contactCloth("cloth", 7, 0.05f, glm::vec3(0.0f), kThickness);
    cloth.contacts.triangles = true;
    scene.cloths = {cloth, contactCloth("plain", 3, 0.05f, glm::vec3(1.0f), kThickness)};
    const SimModel model = buildModel(scene);
    const ContactModel contacts = buildContactModel(model, ParticleRange{0, model.particleCount()});
    // 7 x 7: 2 x 6 x 7 structural edges and 36 diagonals.
    ASSERT_EQ(contacts.edgeCount(), 2u * 6u * 7u + 36u);
    for (uint32_t e = 0; e < contacts.edgeCount(); ++e) {
        ASSERT_LT(contacts.edges[e].a, contacts.edges[e].b);
        if (e > 0) {
            const gpu::ContactEdge &previous = contacts.edges[e - 1], &edge = contacts.edges[e];
            ASSERT_TRUE(previous.a < edge.a || (previous.a == edge.a && previous.b < edge.b));
        }
    }
    ASSERT_EQ(contacts.particleEdgeStart.size(), contacts.count() + 1u);
    for (uint32_t k = 0; k < contacts.count(); ++k)
        for (uint32_t i = contacts.particleEdgeStart[k]; i < contacts.particleEdgeStart[k + 1]; ++i) {
            const gpu::ContactEdge& edge = contacts.edges[contacts.particleEdges[i]];
            ASSERT_TRUE(edge.a == k || edge.b == k);
            if (i > contacts.particleEdgeStart[k]) {
                ASSERT_LT(contacts.particleEdges[i - 1], contacts.particleEdges[i]);
            }
        }
    EXPECT_EQ(contacts.particleEdgeStart.back(), 2 * contacts.edgeCount());
}


// The ridge at two scales. Fine: the wall 20 cm wide and 5 cm tall, the
// plate one 10 cm quad, 1 cm thick, its edges 10 to 20 times the
// thickness. Coarse: the wall 1 m wide and 10 cm tall, the plate 3 x 3
// quads of 20 cm, 2 mm thick, its edges 100 to 140 times the thickness and
// the ridge 500 times: edges whose search box in the pairs' grid would pass
// 4096 cells, which the surface grid's cells (triangle_detection.h) hold in
// 7 along each axis.
struct RidgeScale {
    const char* name;
    float thickness;
    uint32_t plateSide;  // vertices along a side
    float plateSpacing;
    glm::vec2 wall;    // width, height
    glm::vec3 plate;   // the plate's centre from the ridge's middle
};
constexpr RidgeScale kFine{"fine", kThickness, 2, 0.1f, {0.2f, 0.05f}, {0.013f, 0.02f, 0.004f}};
constexpr RidgeScale kCoarse{"coarse", 0.002f, 4, 0.2f, {1.0f, 0.1f}, {0.026f, 0.008f, 0.008f}};

// The wall standing in the plane z = 0 with its top edge, the ridge, at
// kRidgeHeight, every vertex pinned; the plate above it, off centre so that
// the ridge crosses its edges along z and its diagonals between their
// vertices; its vertices are more than 4 cm (fine; 9 cm coarse) from the
// wall's plane and its edges 3.7 cm (17 cm) or more from the ridge's ends,
// beyond the detection distance 3t. Both offer their triangles, and their
// edges with `edges`.
Scene ridge(bool edges, const RidgeScale& scale = kFine) {
    Scene scene;
    scene.name = "ridge";
    ClothObject wall = contactCloth("wall", 2, scale.wall.x, {0.0f, kRidgeHeight - 0.5f * scale.wall.y, 0.0f},
                                    scale.thickness);
    wall.grid.size = scale.wall;
    const float quarter = float(M_PI / 4.0);
    wall.rotation = {std::sin(quarter), 0.0f, 0.0f, std::cos(quarter)};  // the grid's z downwards
    wall.pinned = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
    ClothObject plate = contactCloth("plate", scale.plateSide, scale.plateSpacing,
                                     glm::vec3(0.0f, kRidgeHeight, 0.0f) + scale.plate, scale.thickness);
    scene.cloths = {wall, plate};
    for (ClothObject& cloth : scene.cloths) {
        cloth.contacts.triangles = true;
        cloth.contacts.edges = edges;
    }
    return scene;
}

// 20 frames, the intersecting triangle pairs and the closest distance
// between the surfaces sampled every frame (the plate reaches the ridge in
// frame 4, frame 3 coarse), at both scales. Vertex-triangle contacts alone
// find nothing to hold and the plate falls through, its triangles through
// the wall's; with the edge-edge contacts there are none, with either
// contact solve, the plate hangs on the ridge (its highest vertex within
// 15 cm of it, where a plate that fell through is 40 cm or more below),
// and the surfaces stay at least 0.5 of their contact distance 2t apart:
// what the iterations leave unsolved stays under half of it
// (vksim_contact_check's bound, docs/testing.md).
TEST_F(EdgeContacts, PlateCannotFallThroughARidge) {
    struct Case {
        bool edges;
        ContactSolve solve;
        const char* name;
    };
    for (const RidgeScale& scale : {kFine, kCoarse})
        for (const Case& test : {Case{false, ContactSolve::Colours, "vertex-triangle alone"},
                                 Case{true, ContactSolve::Colours, "with edge-edge, colours"},
                                 Case{true, ContactSolve::Jacobi, "with edge-edge, Jacobi average"}}) {
            const std::string label = fmt::format("{} ridge, {}", scale.name, test.name);
            const SimModel model = buildModel(ridge(test.edges, scale));
            GpuRun run(ctx(), model, contactSettings(test.solve));
            uint64_t mostIntersecting = 0;
            double closest = std::numeric_limits<double>::infinity();
            for (uint32_t frame = 0; frame < 20; ++frame) {
                run.frames(1);
                mostIntersecting = std::max(mostIntersecting, intersectingTriangles(model, run.positions()));
                closest = std::min(closest, closestSurfaces(model, run.positions()));
            }
            const std::vector<glm::vec4> x = run.positions();
            double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
            const ObjectRange& plate = model.objects[1];
            for (uint32_t i = plate.firstParticle; i < plate.firstParticle + plate.particleCount; ++i) {
                lowest = std::min(lowest, double(x[i].y));
                highest = std::max(highest, double(x[i].y));
            }
            const gpu::ContactStats stats = run.stepper().contacts()->readStats();
            const double contactDistance = 2.0 * scale.thickness;
            std::cout << fmt::format(
                "[edge contacts] {}: at most {} intersecting triangle pairs; closest surfaces {:.5f} m ({:.3f} of "
                "2t); the plate's vertices {:.4f} to {:.4f} m below the ridge; most vertex-triangle contacts {}, "
                "edge-edge {} in a substep, {} overflowed, {} oversized triangles, {} oversized edges\n",
                label, mostIntersecting, closest, closest / contactDistance, kRidgeHeight - highest,
                kRidgeHeight - lowest, stats.mostTriangleContacts, stats.mostEdgeContacts,
                stats.triangleOverflowSubsteps, stats.oversizedTriangles, stats.oversizedEdges);
            EXPECT_EQ(stats.oversizedTriangles, 0u) << label;
            EXPECT_EQ(stats.oversizedEdges, 0u) << label;
            if (!test.edges) {
                EXPECT_EQ(stats.mostEdgeContacts, 0u);
                EXPECT_GT(mostIntersecting, 0u) << label << ": the plate did not pass through the ridge";
                continue;
            }
            EXPECT_GT(stats.mostEdgeContacts, 0u) << label;
            EXPECT_EQ(mostIntersecting, 0u) << label;
            EXPECT_GT(closest, 0.5 * contactDistance) << label;
            EXPECT_LT(kRidgeHeight - highest, 0.15) << label << ": the plate is not on the ridge";
            EXPECT_EQ(stats.triangleOverflowSubsteps, 0u);
        }
}

// The GPU against the CPU reference in double (contact_reference_solve.h
// inside pbd_reference.h): the same vertex-triangle and edge-edge
// detection, colours and order each substep, 10 frames through the
// landing on the ridge (frame 4; 3 on the coarse one). Bound as for the pairs and the vertex-triangle constraints,
// 1e-5 m: float rounding of positions of order 0.3 m (1e-7 relative) grown
// over the frames' iterations.
TEST_F(EdgeContacts, GpuMatchesTheDoublePrecisionReference) {
    for (const RidgeScale& scale : {kFine, kCoarse})
    for (const ContactSolve solve : {ContactSolve::Colours, ContactSolve::Jacobi}) {
        const SimModel model = buildModel(ridge(true, scale));
        const SolverSettings settings = contactSettings(solve);
        GpuRun gpu(ctx(), model, settings);
        PbdReference cpu(model);
        const std::string label = fmt::format("[edge contacts] {} ridge, {} vs the CPU reference", scale.name,
                                              kContactSolveNames[static_cast<size_t>(solve)]);
        const double worst = followReference(gpu, cpu, settings, 10, label);
        std::cout << fmt::format("{}: at most {:.2e} m over 10 frames\n", label, worst);
        EXPECT_GT(gpu.stepper().contacts()->readStats().mostEdgeContacts, 0u) << "no edge-edge contact";
        EXPECT_LT(worst, 1e-5) << label;
    }
}

}  // namespace
}  // namespace vksim::test
