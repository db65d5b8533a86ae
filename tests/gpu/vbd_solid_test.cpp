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
// the 20 frames of a bar's first downswing, the tip 0.18 m down, and the
// same largest differences over 40; 1.5e-5 m for the cube landing with its
// friction in the sweeps, whose stick or slide a vertex may choose a sweep
// apart in float and double). 1e-4 m leaves a factor 6; a wrong gradient,
// Hessian or colour order moves the bar by centimetres.
TEST_F(VbdSolidTest, HangingBarFollowsTheCpuReference) {
    for (VbdInitialGuess guess : {VbdInitialGuess::Adaptive, VbdInitialGuess::Inertial})
        for (ElasticModel model : {ElasticModel::NeoHookean, ElasticModel::Corotated}) {
            Scene scene = vbdHangingBarScene(model);
            scene.solver.vbd.initialGuess = guess;
            const auto [worst, moved] = compare(scene, 20);
            std::cout << fmt::format("[vbd] hanging bar ({}, {} guess): gpu vs reference over 20 frames: max {:.3e} "
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

// Friction in the sweeps (docs/physics.md §16, "Friction in the sweeps"):
// the cube of vbd_reference_test.cpp's CoulombFrictionOnASlope on the
// ground, gravity tilted 20 degrees, held (mu = 0.6) and sliding
// (mu = 0.2), against the double reference over 30 frames. A held vertex's
// slip over a substep stays below eps_v h = 4.2e-6 m, where its friction
// is a stiff spring: float's ~6e-8 m roundings of its position move it by
// as little, and the sliding ones feel mu lambda whatever their slip. So
// the bound is the falling cube's, 1e-4 m (a friction with the wrong
// sign, coefficient or anchor moves the cube by centimetres). On the GPU
// too the held cube's bottom vertices move slower than eps_v: less than
// eps_v * 1/4 s between frames 15 and 30; the sliding one's slide (0.14 m
// at Coulomb's 1.51 m/s^2).
TEST_F(VbdSolidTest, CubeOnASlopeFollowsTheCpuReference) {
    for (float mu : {0.6f, 0.2f}) {
        const Scene scene = vbdCubeOnASlopeScene(mu, mu);
        World world(ctx(), scene, 1);
        VbdReference reference(world.model());
        double worst = 0.0;
        std::vector<glm::vec4> half;
        for (uint32_t f = 0; f < 30; ++f) {
            runFrames(world, 1);
            reference.step(scene.solver);
            worst = std::max(worst, worstDifference(world, reference));
            if (f + 1 == 15) half = world.positions().downloadArray<glm::vec4>();
        }
        const std::vector<glm::vec4> end = world.positions().downloadArray<glm::vec4>();
        double bottom = 0.0;  // the bottom vertices' largest move along the ground
        for (size_t i = 0; i < end.size(); ++i)
            if (half[i].y < 0.01f) bottom = std::max(bottom, double(glm::length(glm::vec2(end[i].x - half[i].x,
                                                                                         end[i].z - half[i].z))));
        const double held = double(gpu::kVbdFrictionStickSpeed) * 15.0 * double(scene.solver.timeStep);
        std::cout << fmt::format("[vbd] cube on a 20 degree slope, mu {}: gpu vs reference over 30 frames: max {:.3e} "
                                 "m; gpu bottom moved {:.3e} m between frames 15 and 30\n",
                                 mu, worst, bottom);
        EXPECT_LT(worst, 1e-4);
        if (mu > 0.5f)
            EXPECT_LT(bottom, held);
        else
            EXPECT_GT(bottom, 0.07);
    }
}

// The closest distance between a particle of `a` and one of `b`.
template <class Positions>
double closestDistance(const Positions& x, const ObjectRange& a, const ObjectRange& b) {
    double closest = 1e30;
    for (uint32_t i = a.firstParticle; i < a.firstParticle + a.particleCount; ++i)
        for (uint32_t j = b.firstParticle; j < b.firstParticle + b.particleCount; ++j)
            closest = std::min(closest, glm::length(glm::dvec3(glm::vec3(x[i])) - glm::dvec3(glm::vec3(x[j]))));
    return closest;
}

// Contacts between two VBD solids join the sweeps as an energy
// (vbd_colour_contacts.comp, docs/physics.md §16) and are then projected
// after the solve: the top cube lands on the bottom one and comes to rest
// on it, never entering it, and the GPU follows the reference, which sweeps
// the same energy in double. A pair may switch on a substep apart where
// float and double straddle the thickness, an O(h v) kick at landing; and
// since the pairs' friction is in the sweeps (§14, "Friction of the pairs
// in the sweeps"), a vertex of the top cube, landing at 2 m/s and rolling
// off the bottom one's spheres, may stick in float and slide in double
// (or back) a sweep apart, and the two roll on at a few cm/s apart until
// they rest: measured 4.6e-3 m (frame 30; 6e-8 m until the landing in
// frame 13), where it was 8.9e-6 m before the pairs' friction (with the
// ground's half-spaces and friction in the sweeps; 1.0e-4 m when the
// projection alone held the cubes apart). Bound 1e-2 m; a wrong sign or
// stiffness of the energy moves the top cube by decimetres, and the held
// slabs below follow the reference to 2.1e-4 m. The reference
// with the projection alone (its energy off) is printed beside it.
//
// The closest pair of particles of the two cubes must stay at the contact
// distance D = 0.12 m: the projection after the solve ends each substep
// with the touching pairs at D (measured 1.0000 of D, with and without the
// energy). 2% leaves room for pairs the projection's sweeps leave coupled;
// a cube entering the other comes 0.1 m closer. (The cubes' surfaces are
// spheres on a 0.1 m lattice: the top cube lands on the bottom one's
// spheres, rolls into their hollows and tilts, with or without the
// energy; the centres are printed.)
TEST_F(VbdSolidTest, StackedCubesRestOnEachOtherThroughTheContactEnergy) {
    const Scene scene = vbdStackedCubesScene();
    World world(ctx(), scene, 1);
    VbdReference reference(world.model()), projected(world.model());
    projected.setContactEnergy(false);
    const ObjectRange bottom = world.model().objects[0];
    const ObjectRange top = world.model().objects[1];
    const double D = 0.12;
    double worst = 0.0, closest = 1e30, closestReference = 1e30, closestProjected = 1e30, restingProjected = 0.0;
    double resting = 0.0, restingReference = 0.0;
    const uint32_t frames = 45;
    for (uint32_t f = 0; f < frames; ++f) {
        runFrames(world, 1);
        reference.step(scene.solver);
        projected.step(scene.solver);
        worst = std::max(worst, worstDifference(world, reference));
        const std::vector<glm::vec4> x = world.positions().downloadArray<glm::vec4>();
        resting = closestDistance(x, bottom, top);
        restingReference = closestDistance(reference.positions(), bottom, top);
        restingProjected = closestDistance(projected.positions(), bottom, top);
        closest = std::min(closest, resting);
        closestReference = std::min(closestReference, restingReference);
        closestProjected = std::min(closestProjected, restingProjected);
    }
    double moved = 0.0;
    glm::dvec3 centre(0.0), centreProjected(0.0);
    for (uint32_t i = top.firstParticle; i < top.firstParticle + top.particleCount; ++i) {
        moved = std::max(moved, glm::length(reference.positions()[i] -
                                            glm::dvec3(glm::vec3(world.model().positions[i]))));
        centre += reference.positions()[i] / double(top.particleCount);
        centreProjected += projected.positions()[i] / double(top.particleCount);
    }
    std::cout << fmt::format("[vbd] stacked cubes: the top cube's centre ({:.4f}, {:.4f}, {:.4f}) m, with the "
                             "projection alone ({:.4f}, {:.4f}, {:.4f}) m\n",
                             centre.x, centre.y, centre.z, centreProjected.x, centreProjected.y, centreProjected.z);
    std::cout << fmt::format("[vbd] stacked cubes with the contact energy: gpu vs reference over {} frames: max "
                             "{:.3e} m (top moved {:.3f} m); closest pair / D: gpu {:.4f} (at rest {:.4f}), reference "
                             "{:.4f} ({:.4f}), projection alone {:.4f} ({:.4f})\n",
                             frames, worst, moved, closest / D, resting / D, closestReference / D,
                             restingReference / D, closestProjected / D, restingProjected / D);
    EXPECT_GT(moved, 0.15);  // the top cube fell onto the bottom one
    EXPECT_LT(worst, 1e-2);
    EXPECT_GT(closest, 0.98 * D);
    EXPECT_GT(closestReference, 0.98 * D);
}

// The pairs' friction in the sweeps (docs/physics.md §14, "Friction of the
// pairs in the sweeps"): two slabs stacked on a 20 degree slope
// (vbdStackedSlabsOnASlopeScene), the bottom one held by the ground's
// friction. Measured is the top slab's motion along the slope relative to
// the bottom one (centre to centre) from frame 20, once the landing has
// settled. With mu = 0.6 above tan 20 = 0.364 the pairs' friction holds
// it: 8.5e-6 m over frames 20 to 40 (6.6e-4 m with the projection's
// friction alone); bound 1e-4 m, the solids' creep of a held vertex (§16).
// Without friction it slides on (7.7e-2 m over frames 20 to 25; bound
// 3e-2 m). In between the bumps decide: the surfaces are 6 cm spheres on
// a 10 cm lattice, and at mu = 0.2 the top slab slides 6 cm into the next
// hollow and stays there; the sliding is measured on the cloth slope of
// contacts_test.cpp. The held run also follows the double reference
// (VbdReference, the same friction): 2.1e-4 m at most, reached in the
// landing (frames 5 to 9, where a vertex may stick in float and slide in
// double a sweep apart) and frozen after it; bound 1e-3 m.
TEST_F(VbdSolidTest, StackedSlabsOnASlopeHoldByThePairsFriction) {
    for (const float mu : {0.6f, 0.0f}) {
        const Scene scene = vbdStackedSlabsOnASlopeScene(mu, mu);
        World world(ctx(), scene, 1);
        VbdReference reference(world.model());
        const bool held = mu > 0.5f;
        const ObjectRange bottom = world.model().objects[0], top = world.model().objects[1];
        auto relative = [&] {
            const std::vector<glm::vec4> x = world.positions().downloadArray<glm::vec4>();
            auto centre = [&](const ObjectRange& object) {
                double sum = 0.0;
                for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
                    sum += double(x[i].x);
                return sum / double(object.particleCount);
            };
            return centre(top) - centre(bottom);
        };
        double worst = 0.0, before = 0.0;
        const uint32_t frames = held ? 40 : 25;
        for (uint32_t f = 0; f < frames; ++f) {
            runFrames(world, 1);
            if (f + 1 == 20) before = relative();
            if (!held) continue;
            reference.step(scene.solver);
            worst = std::max(worst, worstDifference(world, reference));
        }
        const double moved = relative() - before;
        std::cout << fmt::format("[vbd] stacked slabs on a 20 degree slope, pair mu {}: the top moved {:.3e} m "
                                 "along it relative to the bottom between frames 20 and {}",
                                 mu, moved, frames);
        if (held) std::cout << fmt::format("; gpu vs reference {:.3e} m", worst);
        std::cout << "\n";
        if (held) {
            EXPECT_LT(std::abs(moved), 1e-4);
            EXPECT_LT(worst, 1e-3);
        } else {
            EXPECT_GT(moved, 3e-2);
        }
    }
}

// Two cubes thrown at each other in zero gravity: the contact energy in the
// sweeps is a spring between the pair's two particles, both of which
// descend on it, so the momentum is kept as far as the sweeps converge;
// the projection after the solve moves both by equal and opposite
// impulses. Measured (lavapipe, 10 sweeps): 3.4e-3 of sum m|v| on the GPU
// and in the double reference alike (the unconverged sweeps' residual, not
// float; 2.9e-3 before the pairs' friction), 5.0e-3 with the projection
// alone; 1e-2 leaves a factor 3, a
// one-sided energy (pushing only one of the pair) loses half the momentum
// of the impact. The cubes must rebound (the left one's momentum falls
// below half) and keep D apart, as above.
TEST_F(VbdSolidTest, CubesThrownTogetherKeepTheirMomentum) {
    const Scene scene = vbdCollidingCubesScene();
    World world(ctx(), scene, 1);
    VbdReference reference(world.model()), projected(world.model());
    projected.setContactEnergy(false);
    const SimModel& model = world.model();
    const ObjectRange left = model.objects[0], right = model.objects[1];
    double mass = 0.0;  // sum m |v| at the start: the scale of the drift
    for (uint32_t i = 0; i < model.particleCount(); ++i) mass += 1.0 / double(model.positions[i].w);
    auto momentum = [&](const ObjectRange& object) {
        const std::vector<glm::vec4> v = world.particles().velocities().downloadArray<glm::vec4>();
        glm::dvec3 p(0.0);
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            p += glm::dvec3(glm::vec3(v[i])) / double(model.positions[i].w);
        return p;
    };
    const glm::dvec3 leftStart = momentum(left);
    double drift = 0.0, driftReference = 0.0, driftProjected = 0.0, closest = 1e30, closestProjected = 1e30;
    for (uint32_t f = 0; f < 30; ++f) {
        runFrames(world, 1);
        reference.step(scene.solver);
        projected.step(scene.solver);
        drift = std::max(drift, glm::length(momentum(left) + momentum(right)));
        driftReference = std::max(driftReference, glm::length(reference.linearMomentum()));
        driftProjected = std::max(driftProjected, glm::length(projected.linearMomentum()));
        closest = std::min(closest, closestDistance(world.positions().downloadArray<glm::vec4>(), left, right));
        closestProjected = std::min(closestProjected, closestDistance(projected.positions(), left, right));
    }
    const glm::dvec3 leftEnd = momentum(left);
    const double scale = mass * 1.0;  // sum m |v|: each cube at 1 m/s
    std::cout << fmt::format("[vbd] cubes thrown together: left cube's x-momentum {:.4f} -> {:.4f} kg m/s; total "
                             "momentum drift / sum m|v|: gpu {:.3e}, reference {:.3e}, projection alone {:.3e}; "
                             "closest pair / D: gpu {:.4f}, projection alone {:.4f}\n",
                             leftStart.x, leftEnd.x, drift / scale, driftReference / scale, driftProjected / scale,
                             closest / 0.12, closestProjected / 0.12);
    EXPECT_LT(leftEnd.x, 0.5 * leftStart.x);  // they met and pushed each other back
    EXPECT_LT(drift, 1e-2 * scale);
    EXPECT_GT(closest, 0.98 * 0.12);
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
