// The VBD solids on the GPU (docs/physics.md §16, "Vertex block descent"):
// a hanging bar and a cube falling on a plane against the double CPU
// reference (the same sweeps in the same colour order), G per sweep from
// the GPU's own tracking, the momentum of a free cube, and a saved state
// that steps on to the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../unit/vbd_scenes.h"
#include "gpu_harness.h"
#include "solvers/vbd/vbd_material_edit.h"
#include "solvers/vbd/vbd_reference.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class VbdSolidTest : public GpuTest {
protected:
    void runFrames(World& world, uint32_t count) { runWorldFrames(ctx(), world, count); }
    // Largest |x_gpu - x_ref| over the VBD particles.
    static double worstDifference(const World& world, const VbdReference& reference) {
        const std::vector<glm::vec4> gpu = world.positions().downloadArray<glm::vec4>();
        const ParticleRange range = reference.range(reference.world());
        double d = 0.0;
        for (uint32_t i = range.first; i < range.end(); ++i)
            d = std::max(d, glm::length(glm::dvec3(glm::vec3(gpu[i])) - reference.positions()[i]));
        return d;
    }
    // Steps both `frames` frames; returns the largest difference seen and
    // how far the solid moved.
    std::pair<double, double> compare(const Scene& scene, uint32_t frames) {
        World world(ctx(), scene, 1);
        VbdReference reference(world.model());
        double worst = 0.0;
        for (uint32_t f = 0; f < frames; ++f) {
            runFrames(world, 1);
            reference.step(scene.solver);
            worst = std::max(worst, worstDifference(world, reference));
        }
        double moved = 0.0;
        for (uint32_t i = 0; i < reference.particleCount(); ++i)
            moved = std::max(moved, glm::length(reference.positions()[i] -
                                                glm::dvec3(glm::vec3(world.model().positions[i]))));
        return {worst, moved};
    }
};

// The GPU runs the reference's sweeps in the same order, in float: positions
// near 1 m round by ~6e-8 m a write, each vertex written 10 times a substep
// (10 sweeps), 4 substeps a frame. Ten sweeps are far from converged, so
// float and double sweeps from slightly different iterates leave slightly
// different unconverged states, but each sweep is a contraction towards
// the same minimiser and the difference does not grow (measured ~4e-6 m over
// 40 frames of a swinging bar and of a cube landing). 1e-4 m leaves a
// factor 20; a wrong gradient, Hessian or colour order moves the bar by
// centimetres.
TEST_F(VbdSolidTest, HangingBarFollowsTheCpuReference) {
    for (VbdInitialGuess guess : {VbdInitialGuess::Adaptive, VbdInitialGuess::Inertial})
        for (ElasticModel model : {ElasticModel::NeoHookean, ElasticModel::Corotated}) {
            Scene scene = vbdHangingBarScene(model);
            scene.solver.vbd.initialGuess = guess;
            const auto [worst, moved] = compare(scene, 40);
            std::cout << fmt::format("[vbd] hanging bar ({}, {} guess): gpu vs reference over 40 frames: max {:.3e} "
                                     "m (bar tip moved {:.3f} m)\n",
                                     model == ElasticModel::NeoHookean ? "Neo-Hookean" : "corotated",
                                     guess == VbdInitialGuess::Adaptive ? "adaptive" : "inertial", worst, moved);
            EXPECT_GT(moved, 0.02);
            EXPECT_LT(worst, 1e-4);
        }
}

// The same through the collision stages: the cube lands on the plane
// (~0.25 s) and rests there.
TEST_F(VbdSolidTest, FallingCubeFollowsTheCpuReference) {
    const Scene scene = vbdFallingCubeScene();
    const auto [worst, moved] = compare(scene, 45);
    std::cout << fmt::format("[vbd] falling cube: gpu vs reference over 45 frames: max {:.3e} m (fell {:.3f} m)\n",
                             worst, moved);
    EXPECT_GT(moved, 0.2);
    EXPECT_LT(worst, 1e-4);
}

// Contacts between objects reach VBD solids through the stepper's
// projection after the solves (projectsContactsInSolve false): the top
// cube lands on the bottom one and bounces on it, never entering it, and
// the GPU follows the reference, which projects the same pairs after its
// solve. The contact pairs switch on a substep apart where float and
// double straddle the thickness, an O(h v) kick at landing: 1e-3 m
// (measured 1.0e-4 m with the adaptive guess, 4.3e-5 m from y).
TEST_F(VbdSolidTest, StackedCubesTouchThroughTheContactsAfterTheSolve) {
    const Scene scene = vbdStackedCubesScene();
    const auto [worst, moved] = compare(scene, 45);
    World world(ctx(), scene, 1);
    const ObjectRange bottom = world.model().objects[0];
    const ObjectRange top = world.model().objects[1];
    float smallestGap = 1e30f;
    for (uint32_t f = 0; f < 45; ++f) {
        runFrames(world, 1);
        const std::vector<glm::vec4> x = world.positions().downloadArray<glm::vec4>();
        float bottomHighest = -1e30f, topLowest = 1e30f;
        for (uint32_t i = bottom.firstParticle; i < bottom.firstParticle + bottom.particleCount; ++i)
            bottomHighest = std::max(bottomHighest, x[i].y);
        for (uint32_t i = top.firstParticle; i < top.firstParticle + top.particleCount; ++i)
            topLowest = std::min(topLowest, x[i].y);
        smallestGap = std::min(smallestGap, topLowest - bottomHighest);
    }
    std::cout << fmt::format("[vbd] stacked cubes: gpu vs reference over 45 frames: max {:.3e} m (moved {:.3f} m); "
                             "smallest gap between the cubes {:.4f} m\n",
                             worst, moved, smallestGap);
    EXPECT_GT(moved, 0.15);  // the top cube fell onto the bottom one
    EXPECT_LT(worst, 1e-3);
    // Their shells met (without contacts the top cube falls into the bottom one), the cubes did not.
    EXPECT_GT(smallestGap, 0.0f);
}

// G per sweep of the last substep from the GPU's tracking. For stable
// Neo-Hookean every vertex step minimises G exactly along its vertex (G is
// quadratic in one vertex), so G never rises (the CPU reference checks it in
// double: vbd_reference_test.cpp), up to how well float32 measures it: the
// inertia terms m/(2h^2)|x - y|^2 take differences of positions near 1 m
// (rounded to ~6e-8 m) that are ~h^2 g ~ 2e-4 m long at h = 1/240 s, a
// relative error of ~3e-4 per difference, ~7e-4 per squared term. Near the
// minimum, where a sweep lowers G by less than that, the measured G wanders
// by ~1e-4 of itself (measured: largest rise 1.4e-4): a rise counts past
// 5e-4. The first sweeps, which lower G by ~2e-3 each, must lower it.
TEST_F(VbdSolidTest, EverySweepLowersTheObjective) {
    Scene scene = vbdHangingBarScene();
    scene.solver.vbd.iterations = 40;
    World world(ctx(), scene, 1);
    runFrames(world, 10);  // bending
    world.setResidualTracking(true);
    runFrames(world, 1);
    runFrames(world, 1);  // the slot's values arrive with its next collect
    const std::vector<float> G = world.lastVbdObjectivePerIteration();
    ASSERT_EQ(G.size(), 41u);
    uint32_t rises = 0;
    float largestRise = 0.0f;
    for (size_t k = 1; k < G.size(); ++k) {
        rises += G[k] > G[k - 1] + 5e-4f * std::abs(G[k - 1]);
        largestRise = std::max(largestRise, (G[k] - G[k - 1]) / std::abs(G[k - 1]));
    }
    for (size_t k = 1; k <= 4; ++k) EXPECT_LT(G[k], G[k - 1]) << "sweep " << k;
    std::cout << fmt::format("[vbd] GPU G: {:.6e} at the guess, {:.6e} {:.6e} after 1-2 sweeps, {:.6e} after 40; "
                             "largest relative rise {:.1e}, {} past 5e-4\n",
                             G[0], G[1], G[2], G.back(), largestRise, rises);
    EXPECT_LT(G.back(), G[1]);
    EXPECT_EQ(rises, 0u);
}

// No gravity, no pins, a cube drifting and stretching: the internal forces
// of each tet sum to zero, so m v is kept up to the residual the sweeps
// leave (40 sweeps: the CPU reference's drift is 3e-13, rounding,
// vbd_reference_test.cpp) and float rounding: ~6e-8 m a position write is
// ~1.4e-5 m/s at h = 1/240 s, ~2.4e-6 kg m/s on a 0.17 kg particle, a random
// ~1.4e-5 over 36 particles per substep and ~1.6e-4 over 120 substeps
// (measured 1.8e-4 of 3.2 kg m/s). 1e-3 of the momentum leaves a factor 18;
// a wrong mass or an unbalanced force drifts by percents.
TEST_F(VbdSolidTest, InternalForcesKeepTheMomentum) {
    const Scene scene = vbdFreeCubeScene(40);
    World world(ctx(), scene, 1);
    const SimModel& model = world.model();
    const VbdModel& vbd = model.vbd;
    glm::dvec3 centre(0.0);
    double mass = 0.0;
    for (uint32_t i = vbd.firstParticle; i < vbd.firstParticle + vbd.particleCount; ++i) {
        centre += glm::dvec3(glm::vec3(model.positions[i])) / double(model.positions[i].w);
        mass += 1.0 / double(model.positions[i].w);
    }
    centre /= mass;
    std::vector<glm::vec3> v(model.particleCount());
    for (uint32_t i = 0; i < v.size(); ++i)
        v[i] = glm::vec3(model.velocities[i]) +
               glm::vec3(2.0 * (glm::dvec3(glm::vec3(model.positions[i])) - centre));
    world.setVelocities(v);
    auto momentum = [&] {
        const std::vector<glm::vec4> vs = world.particles().velocities().downloadArray<glm::vec4>();
        glm::dvec3 p(0.0);
        for (uint32_t i = vbd.firstParticle; i < vbd.firstParticle + vbd.particleCount; ++i)
            p += glm::dvec3(glm::vec3(vs[i])) / double(model.positions[i].w);
        return p;
    };
    const glm::dvec3 start = momentum();
    double worst = 0.0;
    for (int f = 0; f < 30; ++f) {
        runFrames(world, 1);
        worst = std::max(worst, glm::length(momentum() - start));
    }
    std::cout << fmt::format("[vbd] GPU momentum {:.4f} kg m/s, drift over 30 frames {:.3e}\n", glm::length(start),
                             worst);
    EXPECT_LT(worst, 1e-3 * glm::length(start));
}

// Beyond the particle store the solver keeps the velocities vbd: init saw
// last (the adaptive initial guess's previous step), which the saved state
// carries and a reset restores: a saved state steps on to the same bits,
// and a reset world steps as a new one.
TEST_F(VbdSolidTest, ASavedStateStepsOnToTheSameBits) {
    const Scene scene = vbdHangingBarScene();
    World world(ctx(), scene, 1);
    runFrames(world, 5);
    const std::string saved = world.saveState();
    runFrames(world, 5);
    const std::vector<glm::vec4> once = world.positions().downloadArray<glm::vec4>();
    world.loadState(saved);
    runFrames(world, 5);
    const std::vector<glm::vec4> again = world.positions().downloadArray<glm::vec4>();
    ASSERT_EQ(once.size(), again.size());
    EXPECT_EQ(0, std::memcmp(once.data(), again.data(), once.size() * sizeof(glm::vec4)));

    World fresh(ctx(), scene, 1);
    runFrames(fresh, 5);
    world.reset();
    runFrames(world, 5);
    const std::vector<glm::vec4> a = fresh.positions().downloadArray<glm::vec4>();
    const std::vector<glm::vec4> b = world.positions().downloadArray<glm::vec4>();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)));
}

// A live edit of E, nu and the model gives, bit for bit, the frames of a
// world built with the edited material; a changed density is refused.
TEST_F(VbdSolidTest, AMaterialEditIsANewWorldOfTheEditedScene) {
    const Scene scene = vbdHangingBarScene();
    Scene softer = scene;
    softer.solids[0].material->youngsModulus = 2e5f;
    softer.solids[0].material->poissonRatio = 0.45f;
    softer.solids[0].material->model = ElasticModel::Corotated;
    World edited(ctx(), scene, 1), built(ctx(), softer, 1);
    edited.edit(VbdMaterialEdit{0, *softer.solids[0].material});
    ElasticMaterial denser = *softer.solids[0].material;
    denser.density *= 2.0f;
    EXPECT_THROW(edited.edit(VbdMaterialEdit{0, denser}), std::invalid_argument);
    EXPECT_EQ(edited.scene().solids[0].material, softer.solids[0].material);
    runFrames(edited, 10);
    runFrames(built, 10);
    const std::vector<glm::vec4> a = edited.positions().downloadArray<glm::vec4>();
    const std::vector<glm::vec4> b = built.positions().downloadArray<glm::vec4>();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec4)));
}

}  // namespace
}  // namespace vksim::test
