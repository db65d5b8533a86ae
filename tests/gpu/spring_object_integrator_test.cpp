// Mass-spring objects side by side, each on its own explicit integrator
// (SpringClothParams::integrator, docs/physics.md §9.2): the GPU follows the
// double-precision reference, which applies each object's rule; an object
// in the mixed scene gives the same bits as it does alone under the
// solver-wide integrator; and the per-object energy series equals the
// energy of the state each frame starts from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "../unit/spring_scenes.h"
#include "gpu_harness.h"
#include "solvers/springs/spring_reference.h"
#include "solvers/springs/spring_settings.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

constexpr SpringIntegrator kExplicit[] = {SpringIntegrator::ExplicitEuler, SpringIntegrator::SymplecticEuler,
                                          SpringIntegrator::PositionVerlet, SpringIntegrator::VelocityVerlet,
                                          SpringIntegrator::Midpoint};

// A 6x6 cloth pinned at two corners, swinging, at x = `x`.
ClothObject swingingCloth(float x, std::optional<SpringIntegrator> integrator) {
    SpringClothParams params;
    params.stretch = 200.0f;
    params.shear = 50.0f;
    params.bendingStiffness = 5.0f;
    params.drag = 0.001f;
    params.integrator = integrator;
    ClothObject cloth = springClothScene({6, 6}, params).cloths[0];
    cloth.grid.size = {0.5f, 0.5f};
    cloth.mass = 0.2f;
    cloth.pinned = {{0, 0}, {5, 0}};
    cloth.position = {x, 1.0f, 0.0f};
    cloth.name = springIntegratorName(integrator.value_or(SpringIntegrator::SymplecticEuler));
    return cloth;
}

float objectX(size_t k) { return 0.8f * float(k); }

// The five cloths, object k on kExplicit[k]; the solver's is symplectic Euler.
Scene mixedScene() {
    Scene scene = springClothScene({2, 2});
    scene.cloths.clear();
    for (size_t k = 0; k < std::size(kExplicit); ++k) scene.cloths.push_back(swingingCloth(objectX(k), kExplicit[k]));
    scene.solver.substeps = 16;
    scene.solver.springs.integrator = SpringIntegrator::SymplecticEuler;
    return scene;
}

// Object k of the mixed scene alone, on the solver-wide integrator.
Scene aloneScene(size_t k) {
    Scene scene = mixedScene();
    scene.cloths = {swingingCloth(objectX(k), std::nullopt)};
    scene.solver.springs.integrator = kExplicit[k];
    return scene;
}

class SpringObjectIntegratorTest : public GpuTest {
protected:
    void runFrames(World& world, uint32_t count) { runWorldFrames(ctx(), world, count); }
};

// Each object follows its own rule in the reference: the bound and its
// reasons are EveryIntegratorFollowsTheCpuReference's (spring_solver_test),
// over 5 frames, explicit Euler's growth included. A wrong rule for any
// object moves it by centimetres.
TEST_F(SpringObjectIntegratorTest, MixedIntegratorsFollowTheCpuReference) {
    const Scene scene = mixedScene();
    World world(ctx(), scene, 1);
    SpringReference reference(world.model());
    const std::vector<SpringObject>& objects = world.model().springs.objects;
    ASSERT_EQ(objects.size(), std::size(kExplicit));
    std::vector<double> worst(objects.size(), 0.0);
    for (uint32_t f = 0; f < 5; ++f) {
        runFrames(world, 1);
        reference.step(scene.solver);
        const std::vector<glm::vec4> gpu = world.positions().downloadArray<glm::vec4>();
        for (size_t k = 0; k < objects.size(); ++k)
            for (uint32_t i = objects[k].firstParticle; i < objects[k].firstParticle + objects[k].particleCount; ++i)
                worst[k] = std::max(worst[k], glm::length(glm::dvec3(glm::vec3(gpu[i])) - reference.positions()[i]));
    }
    for (size_t k = 0; k < objects.size(); ++k) {
        std::cout << fmt::format(
            "[springs] mixed scene, {:<17} gpu vs reference "
            "over 5 frames: max {:.3e} m\n",
            springIntegratorName(kExplicit[k]), worst[k]);
        EXPECT_LT(worst[k], 1e-3) << springIntegratorName(kExplicit[k]);
    }
    // The rules differ measurably in 5 frames: the reference's objects
    // (identical but for their integrator) did not all end in one place.
    const auto end = [&](size_t k) {
        return reference.positions()[objects[k].firstParticle + objects[k].particleCount - 1] -
               glm::dvec3(objectX(k), 0.0, 0.0);
    };
    for (size_t k = 1; k < objects.size(); ++k)
        EXPECT_GT(glm::length(end(k) - end(0)), 1e-6) << springIntegratorName(kExplicit[k]);
}

// The objects do not interact, and the per-particle pipeline applies each
// particle's rule with the same operations as that rule's own pipeline.
TEST_F(SpringObjectIntegratorTest, AnObjectInAMixedSceneMatchesItselfAloneBitForBit) {
    constexpr uint32_t kFrames = 4;
    World mixed(ctx(), mixedScene(), 1);
    runFrames(mixed, kFrames);
    const std::vector<glm::vec4> together = mixed.particles().readPositions();
    const std::vector<glm::vec4> togetherV = mixed.particles().readVelocities();
    for (size_t k = 0; k < std::size(kExplicit); ++k) {
        World alone(ctx(), aloneScene(k), 1);
        runFrames(alone, kFrames);
        const std::vector<glm::vec4> x = alone.particles().readPositions();
        const std::vector<glm::vec4> v = alone.particles().readVelocities();
        const SpringObject& object = mixed.model().springs.objects.at(k);
        ASSERT_EQ(x.size(), object.particleCount);
        const size_t bytes = x.size() * sizeof(glm::vec4);
        EXPECT_EQ(std::memcmp(x.data(), together.data() + object.firstParticle, bytes), 0)
            << springIntegratorName(kExplicit[k]) << ": positions";
        EXPECT_EQ(std::memcmp(v.data(), togetherV.data() + object.firstParticle, bytes), 0)
            << springIntegratorName(kExplicit[k]) << ": velocities";
    }
}

// Kinetic + spring + gravity energy of object `object` in double from the
// GPU's float state (the scene's bending is springs, so springs are all).
double objectEnergy(const MsModel& ms, const SpringObject& object, const std::vector<glm::vec4>& x,
                    const std::vector<glm::vec4>& v, glm::dvec3 gravity) {
    double energy = 0.0;
    for (uint32_t s = object.firstSpring; s < object.firstSpring + object.springCount; ++s) {
        const gpu::MsSpring& spring = ms.springs[s];
        const double stretch = glm::length(glm::dvec3(glm::vec3(x[spring.i])) - glm::dvec3(glm::vec3(x[spring.j]))) -
                               double(spring.restLength);
        energy += 0.5 * double(spring.stiffness) * stretch * stretch;
    }
    for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i) {
        if (x[i].w <= 0.0f) continue;
        const double m = 1.0 / double(x[i].w);
        const glm::dvec3 vi(glm::vec3(v[i]));
        energy += 0.5 * m * glm::dot(vi, vi) - m * glm::dot(gravity, glm::dvec3(glm::vec3(x[i])));
    }
    return energy;
}

// The series is the energy of the state the frame started from, summed in
// float: about 1e-6 of the gravity term (~1 J here) from rounding.
TEST_F(SpringObjectIntegratorTest, ObjectEnergiesAreTheStartOfFrameEnergies) {
    const Scene scene = mixedScene();
    World world(ctx(), scene, 1);
    world.setResidualTracking(true);
    runFrames(world, 3);
    const std::vector<glm::vec4> x = world.particles().readPositions();
    const std::vector<glm::vec4> v = world.particles().readVelocities();
    runFrames(world, 1);
    const std::vector<float> energies = world.lastSpringObjectEnergies();
    const MsModel& ms = world.model().springs;
    ASSERT_EQ(energies.size(), ms.objects.size());
    ASSERT_EQ(world.springObjectEnergyHistory().size(), ms.objects.size());
    EXPECT_EQ(world.springObjectEnergyHistory()[0].size(), 4u);
    for (size_t k = 0; k < ms.objects.size(); ++k) {
        const double expected = objectEnergy(ms, ms.objects[k], x, v, glm::dvec3(scene.solver.gravity));
        std::cout << fmt::format("[springs] {:<17} energy at frame 3: gpu {:.7f} J, double {:.7f} J\n",
                                 springIntegratorName(kExplicit[k]), energies[k], expected);
        EXPECT_NEAR(energies[k], expected, 1e-5 * std::max(1.0, std::abs(expected)))
            << springIntegratorName(kExplicit[k]);
    }
}

}  // namespace
}  // namespace vksim::test
