// Vertex-triangle contacts (docs/physics.md, "Contacts between objects"):
// a coarse cloth, whose particles are far more than t_a + t_b apart,
// rests on another without passing through it where particle pairs alone
// let it through; a small particle rests on a coarse cloth's triangle, not
// between its vertices; a collision in zero gravity keeps the momentum;
// the GPU follows the CPU reference in double. Every test prints what it
// measured.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "contact_measures.h"
#include "contacts/contact_stage.h"
#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim::test {
namespace {

class TriangleContacts : public GpuTest {};

// Coarse: 4 cm between vertices, t = 0.2 of it, so two cloths' particles
// keep only 2t = 1.6 cm apart while a cell's diagonal leaves 2.8 cm
// between its vertices and the middle of the cell.
constexpr float kSpacing = 0.04f;
constexpr float kTriangleThickness = 0.2f * kSpacing;

// An 8 x 8 coarse cloth lying near the ground and a 6 x 6 one `drop` above
// it, shifted by `offset` cells (by default half a cell, so that its
// vertices fall over the middle of the lower one's cells); both offer their
// triangles with `triangles`.
Scene coarseCloths(float drop, bool triangles, glm::vec2 offset = {0.5f, 0.5f}) {
    Scene scene;
    scene.name = "coarse cloths";
    scene.cloths.push_back(contactCloth("lower", 8, kSpacing, {0.0f, 0.01f, 0.0f}, kTriangleThickness));
    scene.cloths.push_back(contactCloth("upper", 6, kSpacing,
                                        {offset.x * kSpacing, 0.01f + drop, offset.y * kSpacing}, kTriangleThickness));
    for (ClothObject& cloth : scene.cloths) cloth.contacts.triangles = triangles;
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.5f;
    scene.colliders = {ground};
    return scene;
}

// The mean height of an object's particles.
double meanHeight(const std::vector<glm::vec4>& x, const ObjectRange& object) {
    double sum = 0.0;
    for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i) sum += x[i].y;
    return sum / object.particleCount;
}

// The upper coarse cloth dropped 5 cm onto the lower one (it lands in frame
// 6), 16 frames. With particle pairs alone (by the Jacobi average, the
// cheaper) its vertices fall through the middle of the lower one's cells,
// and its triangles end up through the lower one's; with the
// vertex-triangle contacts no two triangles of the two cloths intersect at
// any of the frames checked, with either contact solve, and the upper cloth
// rests on the lower one, its mean height about 2t above it.
TEST_F(TriangleContacts, CoarseClothRestsOnACoarseCloth) {
    struct Case {
        const char* name;
        bool triangles;
        ContactSolve solve;
    };
    for (const Case& test : {Case{"particle pairs alone", false, ContactSolve::Jacobi},
                             Case{"vertex-triangle, colours", true, ContactSolve::Colours},
                             Case{"vertex-triangle, Jacobi average", true, ContactSolve::Jacobi}}) {
        const SimModel model = buildModel(coarseCloths(0.05f, test.triangles));
        GpuRun run(ctx(), model, contactSettings(test.solve));
        uint64_t mostIntersecting = 0;
        for (uint32_t frame = 0; frame < 16; frame += 4) {
            run.frames(4);
            mostIntersecting = std::max(mostIntersecting, intersectingTriangles(model, run.positions()));
        }
        const std::vector<glm::vec4> x = run.positions();
        const double lower = meanHeight(x, model.objects[0]), upper = meanHeight(x, model.objects[1]);
        const gpu::ContactStats stats = run.stepper().contacts()->readStats();
        std::cout << fmt::format(
            "[triangle contacts] {}: at most {} intersecting triangle pairs; mean heights {:.4f} and {:.4f} m, "
            "the upper {:.2f} t above; most vertex-triangle contacts {} in a substep, {} overflowed, "
            "most colours {}, {} left to the Jacobi average\n",
            test.name, mostIntersecting, lower, upper, (upper - lower) / kTriangleThickness, stats.mostTriangleContacts,
            stats.triangleOverflowSubsteps, stats.mostColours, stats.leftoverConstraints);
        if (!test.triangles) {
            EXPECT_GT(mostIntersecting, 0u) << "the coarse cloth did not pass through: the test shows nothing";
            continue;
        }
        EXPECT_EQ(mostIntersecting, 0u) << test.name;
        EXPECT_GT(upper, lower + kTriangleThickness) << test.name << ": the upper cloth is not on the lower one";
        EXPECT_GT(stats.mostTriangleContacts, 0u);
        EXPECT_EQ(stats.triangleOverflowSubsteps, 0u);
    }
}

// A small particle (a 2 x 2 cloth 4 mm across, t = 4 mm) dropped 2 cm onto
// the middle of a cell of a pinned cloth 10 cm between vertices (t = 4 mm),
// 12 frames, contacts by the Jacobi average: particle pairs alone let it
// fall through; the vertex-triangle contact holds it on the triangle, its
// particles t_p + t_tri = 8 mm above the cloth's plane (the triangle cannot
// move, so each projection puts the particle at the distance).
TEST_F(TriangleContacts, SmallParticleRestsOnACoarseTriangle) {
    const float t = 0.004f, height = 0.3f;
    for (const bool triangles : {false, true}) {
        Scene scene;
        scene.name = "pebble";
        ClothObject floor = contactCloth("floor", 5, 0.1f, {0.0f, height, 0.0f}, t);
        for (uint32_t r = 0; r < 5; ++r)
            for (uint32_t c = 0; c < 5; ++c) floor.pinned.push_back({c, r});
        floor.contacts.triangles = triangles;
        ClothObject pebble = contactCloth("pebble", 2, t, {0.03f, height + 0.02f, 0.06f}, t);
        pebble.mass = 0.001f;
        scene.cloths = {floor, pebble};
        const SimModel model = buildModel(scene);
        GpuRun run(ctx(), model, contactSettings(ContactSolve::Jacobi));
        run.frames(12);
        const double above = meanHeight(run.positions(), model.objects[1]) - height;
        std::cout << fmt::format("[triangle contacts] pebble, {}: {:.5f} m above the floor's plane ({:.3f} of 2t)\n",
                                 triangles ? "vertex-triangle" : "particle pairs alone", above, above / (2 * t));
        if (!triangles) {
            EXPECT_LT(above, 0.0) << "the pebble did not fall between the vertices: the test shows nothing";
            continue;
        }
        EXPECT_GT(above, 0.95 * 2 * t);
        EXPECT_LT(above, 1.05 * 2 * t);
    }
}

// Zero gravity, the coarse cloth thrown at 2 m/s at the other (twice its
// mass), obliquely and with friction 0.5, with each contact solve. Every
// vertex-triangle correction moves the vertex and the triangle's point by
// equal and opposite momenta (contact_math.glsl's contactTriangleCorrection:
// the corners' weights sum to one), so the linear momentum changes only by
// float rounding, as for the pairs (bound 1e-4, as theirs).
TEST_F(TriangleContacts, CollisionInZeroGravityKeepsMomentum) {
    for (const ContactSolve solve : {ContactSolve::Colours, ContactSolve::Jacobi}) {
        Scene scene = coarseCloths(0.06f, true);
        scene.colliders.clear();
        scene.cloths[0].mass = 0.1f;
        scene.cloths[1].initialVelocity = {0.1f, -2.0f, 0.05f};
        for (ClothObject& cloth : scene.cloths) cloth.contacts.friction = 0.5f;
        const SimModel model = buildModel(scene);
        SolverSettings settings = contactSettings(solve);
        settings.gravity = glm::vec3(0.0f);
        GpuRun run(ctx(), model, settings);
        const Momenta before = momenta(run.positions(), run.velocities());
        run.frames(10);
        const Momenta after = momenta(run.positions(), run.velocities());
        const double drift = glm::length(after.linear - before.linear) / glm::length(before.linear);
        const uint64_t intersecting = intersectingTriangles(model, run.positions());
        const gpu::ContactStats stats = run.stepper().contacts()->readStats();
        std::cout << fmt::format(
            "[triangle contacts] oblique throw, {}: linear momentum drift {:.2e}, kinetic energy {:.5f} -> {:.5f} J, "
            "most vertex-triangle contacts {}, {} intersecting triangle pairs\n",
            kContactSolveNames[static_cast<size_t>(solve)], drift, before.kinetic, after.kinetic,
            stats.mostTriangleContacts, intersecting);
        EXPECT_GT(stats.mostTriangleContacts, 0u) << "they never touched";
        EXPECT_LT(after.kinetic, 0.9 * before.kinetic) << "they never collided";
        EXPECT_LT(drift, 1e-4);
        EXPECT_EQ(intersecting, 0u);
    }
}

// The GPU against the CPU reference in double (contact_reference_solve.h
// inside pbd_reference.h): the same vertex-triangle detection, colours and
// order each substep, 12 frames through the landing of the coarse cloth
// (frame 5).
// Bound as for the pairs, 1e-5 m. The upper cloth's vertices start off
// the lower one's diagonals: above a cell's centre a vertex lies on the
// boundary of two triangles' faces, where rounding decides which of the
// two keeps its constraint (ownsClosestPoint in triangle_pairs.comp), and
// float and double decide differently: both place it at the same point,
// but the colours and the Jacobi average's weights follow the triangle.
TEST_F(TriangleContacts, GpuMatchesTheDoublePrecisionReference) {
    const SimModel model = buildModel(coarseCloths(0.05f, true, {0.3f, 0.45f}));
    for (const ContactSolve solve : {ContactSolve::Colours, ContactSolve::Jacobi}) {
        const SolverSettings settings = contactSettings(solve);
        GpuRun gpu(ctx(), model, settings);
        PbdReference cpu(model);
        const double worst = followReference(
            gpu, cpu, settings, 12,
            fmt::format("[triangle contacts] {} vs the CPU reference", kContactSolveNames[static_cast<size_t>(solve)]));
        std::cout << fmt::format("[triangle contacts] {} vs the CPU reference: at most {:.2e} m over 12 frames\n",
                                 kContactSolveNames[static_cast<size_t>(solve)], worst);
        EXPECT_GT(gpu.stepper().contacts()->readStats().mostTriangleContacts, 0u) << "the cloths never touched";
        EXPECT_LT(worst, 1e-5) << kContactSolveNames[static_cast<size_t>(solve)];
    }
}

}  // namespace
}  // namespace vksim::test
