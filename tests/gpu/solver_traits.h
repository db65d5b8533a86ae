#pragma once
// One traits struct per solver for the typed conformance test
// (solver_conformance_test.cpp): its scenes, its CPU reference and the names
// of its GPU passes. Adding a solver to the conformance suite means adding
// one struct here and naming it in the test's type list.
#include <cstdint>
#include <string_view>

#include <glm/glm.hpp>

#include "../unit/cloth_scenes.h"
#include "../unit/pd_scenes.h"
#include "../unit/spring_scenes.h"
#include "../unit/vbd_scenes.h"
#include "gpu_harness.h"
#include "scene/scene.h"
#include "solvers/pbd/pbd_reference.h"
#include "solvers/pd/pd_reference.h"
#include "solvers/sim_model.h"
#include "solvers/springs/spring_reference.h"
#include "solvers/vbd/vbd_reference.h"

namespace vksim::test {

// A sphere under the middle of a cloth hanging from its first row's corners.
inline ColliderDesc sphereBelowCloth(glm::vec3 position, float radius) {
    ColliderDesc sphere;
    sphere.name = "sphere";
    sphere.shape = ColliderShape::Sphere;
    sphere.position = position;
    sphere.radius = radius;
    sphere.friction = 0.3f;
    sphere.thickness = 0.01f;
    return sphere;
}

// The velocity every free-object test starts from: large against the
// float32 rounding of a frame's displacement (~6e-8 m / (1/60 s)).
inline constexpr glm::vec3 kFreeVelocity{0.6f, 0.2f, -0.4f};

struct PbdTraits {
    static constexpr const char* kName = "pbd";
    using Reference = PbdReference;

    // A 12x12 cloth pinned at two corners swinging down onto a sphere, with
    // friction: every PBD pass runs.
    static Scene referenceScene() {
        Scene scene = clothScene({12, 12}, {1.0f, 1.0f}, 1.2f);
        scene.cloths[0].pinned = {{0, 0}, {11, 0}};
        scene.colliders = {sphereBelowCloth({0.0f, 0.6f, 0.25f}, 0.35f)};
        return scene;
    }
    // gpu_vs_reference_test.cpp: the GPU and the reference run the same
    // passes in the same colour order and differ only by float32 rounding
    // (~6e-8 m per write, a few hundred writes per particle and frame),
    // bounded because the solve is contractive but amplified into a phase
    // error of the swinging cloth; it measured ~3e-4 m, with or without
    // contacts. A wrong colour order, pass or stiffness moves particles by
    // centimetres within a few frames.
    static constexpr double kReferenceTolerance = 1e-3;  // [m]
    // The reference's momentum drift relative to sum m|v|: projections in
    // double, ~1e4 roundings of 1e-16 on sums of order 1 (cpu_reference_test
    // measures ~6e-14).
    static constexpr double kReferenceMomentumTolerance = 1e-12;
    // The GPU's frame momentum after a release, relative: float32 positions
    // near 1 m round by ~6e-8 m per write; over dt = 1/60 s that is ~4e-6
    // m/s per particle, and the solve writes each particle some hundred
    // times a frame with independent roundings, so the momentum of a
    // kilogram wanders by ~1e-5 kg m/s a frame, ~1e-4 over 30 frames, about
    // 1e-4 of the ~0.7 kg m/s here (measured 1.5e-5). 1e-3 leaves a factor
    // 10; a mass-weighting error or an unbalanced correction changes it by
    // percents.
    static constexpr double kGpuMomentumTolerance = 1e-3;

    // The free object: a cloth, nothing pinned, no gravity, no colliders.
    static Scene freeScene() {
        Scene scene = clothScene({8, 8}, {0.8f, 0.8f}, 1.0f);
        scene.solver.gravity = glm::vec3(0.0f);
        scene.cloths[0].initialVelocity = kFreeVelocity;
        return scene;
    }
    // PBD reads masses from the inverse masses alone (w = 1/m), so they can
    // be made unequal in the model: factors in [0.5, 1.5].
    static void makeMassesUnequal(SimModel& model) {
        for (uint32_t i = 0; i < model.positions.size(); ++i)
            model.positions[i].w /= float(1.0 + 0.5 * hashUnit(i, 7));
    }

    // tests/cli/huge_gravity.json: 1e30 m/s^2 overflows the squared length
    // of the stretch constraints in the first substep.
    static Scene nonFiniteScene() {
        Scene scene = clothScene({6, 6}, {1.0f, 1.0f}, 1.0f);
        scene.solver.gravity = glm::vec3(0.0f, -1e30f, 0.0f);
        scene.cloths[0].pinned = {{0, 0}};
        return scene;
    }
    // The passes PbdSolver registers (colours numbered after the family).
    static bool ownsPass(std::string_view pass) {
        for (std::string_view name : {"pbd: predict", "pbd: collide: generate", "pbd: stretch colour", "pbd: bending colour",
                                      "pbd: attachment colour", "pbd: collide: project", "pbd: update velocity",
                                      "pbd: friction/restitution", "pbd: solve in workgroups"})
            if (pass.starts_with(name)) return true;
        return false;
    }
};

struct PdTraits {
    static constexpr const char* kName = "pd";
    using Reference = PdReference;

    // A 10x10 PD cloth pinned at two corners falling onto a sphere. Enough
    // Jacobi iterations that the GPU's global step is as converged as the
    // reference's direct one (pd_test.cpp, WholeStepsMatchTheDirectSolveReference).
    static Scene referenceScene() {
        Scene scene = pdClothScene({10, 10});
        scene.colliders = {sphereBelowCloth({0.0f, 0.55f, 0.2f}, 0.3f)};
        withConvergedGlobalSteps(scene);
        return scene;
    }
    // pd_test.cpp: the Jacobi/Chebyshev global step at J = 150 against the
    // exact LDL^T solve stays below 1e-3 m without contacts; contacts switch
    // the collision projections on and off at slightly different substeps
    // in float and double, so the bound with contacts is 5e-3 m (0.5% of
    // the cloth); a wrong projection or weight moves it by centimetres.
    static constexpr double kReferenceTolerance = 5e-3;  // [m]
    // The exact LDL^T solve rounds relative to the conditioning of
    // M/h^2 + L (stiff strain: ~1e5 times 1e-16 per solve, 150 solves), so
    // 1e-9 as pd_reference_test.cpp; measured ~2e-11.
    static constexpr double kReferenceMomentumTolerance = 1e-9;
    // The GPU's frame momentum after a release, relative. Not float rounding
    // this time: the exact global solve conserves momentum (the reference,
    // above), but J = 150 Chebyshev-Jacobi iterations stop at a relative
    // solve error of ~1e-5 (pd_test.cpp), and what is left of the residual
    // is not translation-free. ~1e-5 of the correction per substep over 30
    // frames of a deforming ball gives a drift of a few 1e-4 (measured
    // 3.6e-4, 25x PBD's). 1e-3 leaves a factor 3; a wrong mass in the
    // inertia term or an asymmetric L drifts by percents within frames.
    static constexpr double kGpuMomentumTolerance = 1e-3;

    // The free object: a soft ball (lumped masses unequal: tetrahedra of
    // different volumes), nothing pinned, no gravity, no colliders.
    static Scene freeScene() {
        Scene scene = pdBallScene(0.25f, {0.0f, 1.0f, 0.0f});
        scene.solver.gravity = glm::vec3(0.0f);
        scene.solids[0].initialVelocity = kFreeVelocity;
        withConvergedGlobalSteps(scene);
        return scene;
    }
    // The masses are also the system matrix's diagonal (pd_system.h): the
    // ball's own lumped masses are unequal already, nothing to change.
    static void makeMassesUnequal(SimModel&) {}

    // 3e38 m/s^2 of gravity (near the float maximum): the right-hand side
    // m/h^2 s of the global step overflows in the first substep. (1e30, as
    // for PBD, stays finite: PD has no squared lengths of that size.)
    static Scene nonFiniteScene() {
        // A pinned corner: the free particles fall ~1e35 m in the first
        // substep while it stays, so the inertia term m/h^2 (s - q) and the
        // springs to it overflow float32 in the first global step. (Without
        // a pin the cloth falls rigidly and every difference stays finite.)
        Scene scene = pdClothScene({6, 6});
        scene.solver.gravity = glm::vec3(0.0f, -3e38f, 0.0f);
        scene.cloths[0].pinned = {{0, 0}};
        return scene;
    }
    static bool ownsPass(std::string_view pass) { return pass.starts_with("pd: "); }

private:
    static void withConvergedGlobalSteps(Scene& scene) {
        scene.solver.pd.localIterations = 5;
        scene.solver.pd.jacobiIterations = 150;
    }
};

// The mass-spring solver (docs/physics.md §9), once per kind of step: an
// explicit integrator (velocity Verlet, which runs both force passes) and
// implicit Euler by Newton. Scenes and bounds shared by both.
template <SpringIntegrator kIntegrator>
struct SpringTraitsBase {
    using Reference = SpringReference;

    // A 10x10 cloth pinned at two corners swinging onto a sphere.
    static Scene referenceScene() {
        Scene scene = springClothScene({10, 10}, softSprings());
        scene.cloths[0].pinned = {{0, 0}, {9, 0}};
        scene.colliders = {sphereBelowCloth({0.0f, 0.55f, 0.2f}, 0.3f)};
        configure(scene);
        return scene;
    }
    // The free object: a cloth, nothing pinned, no gravity, no colliders.
    static Scene freeScene() {
        Scene scene = springClothScene({8, 8}, softSprings());
        scene.solver.gravity = glm::vec3(0.0f);
        scene.cloths[0].initialVelocity = kFreeVelocity;
        scene.cloths[0].springs.drag = 0.0f;  // air drag is an external force
        configure(scene);
        return scene;
    }
    // Masses come from the inverse masses alone, as for PBD.
    static void makeMassesUnequal(SimModel& model) {
        for (uint32_t i = 0; i < model.positions.size(); ++i)
            model.positions[i].w /= float(1.0 + 0.5 * hashUnit(i, 7));
    }
    // 3e38 m/s^2 of gravity and a pinned corner: the springs to the pin (and
    // Newton's inertia term m/h^2 (x - y)) overflow float32 in the first substep.
    static Scene nonFiniteScene() {
        Scene scene = springClothScene({6, 6}, softSprings());
        scene.solver.gravity = glm::vec3(0.0f, -3e38f, 0.0f);
        scene.cloths[0].pinned = {{0, 0}};
        configure(scene);
        return scene;
    }
    static bool ownsPass(std::string_view pass) {
        return pass.starts_with("springs: ") || pass == "predict";
    }

private:
    // Soft enough for the explicit step: the stiffest mode of a grid
    // particle (~8 springs of 200 N/m on 0.01 kg) has omega ~ 450 rad/s,
    // omega h ~ 0.5 at 16 substeps of 1/60 s, inside every stable range
    // (docs/physics.md §9.2).
    static SpringClothParams softSprings() {
        SpringClothParams p;
        p.stretch = 200.0f;
        p.shear = 50.0f;
        p.bendingStiffness = 5.0f;
        p.drag = 0.001f;
        return p;
    }
    static void configure(Scene& scene) {
        scene.solver.springs.integrator = kIntegrator;
        scene.solver.substeps = kIntegrator == SpringIntegrator::ImplicitEuler ? 4 : 16;
        // Newton: as many Jacobi iterations as make the GPU's linear solves
        // as exact as the reference's LDL^T (spring_solver_test.cpp).
        scene.solver.springs.newtonIterations = 3;
        scene.solver.springs.jacobiIterations = 60;
    }
};

struct SpringsVerletTraits : SpringTraitsBase<SpringIntegrator::VelocityVerlet> {
    static constexpr const char* kName = "springs velocity Verlet";
    // The same passes in the same order in float and double: while the
    // cloth swings freely they agree to ~1e-4 m (measured 9e-5 at frame
    // 20: float32 rounding of positions near 1 m, ~6e-8 m a write, two force
    // passes and two integrator writes per substep, 16 substeps a frame).
    // Once it lands on the sphere (frame ~25), a particle whose float and
    // double positions straddle the surface is projected one substep apart,
    // an O(h v) ~ 1e-3 m kick that the explicit step carries on undamped
    // (measured 3.0e-3 m at frame 40). 1e-2 m is 1% of the cloth; a wrong
    // force, sign or integrator rule moves it by centimetres within 10
    // frames, where the bound is still far from reached.
    static constexpr double kReferenceTolerance = 1e-2;  // [m]
    // Double rounding on sums of order 1 over 30 frames of 16 substeps.
    static constexpr double kReferenceMomentumTolerance = 1e-12;
    // Float32 positions as for PBD (~1e-5 a frame, random): 1e-3.
    static constexpr double kGpuMomentumTolerance = 1e-3;
};

struct SpringsNewtonTraits : SpringTraitsBase<SpringIntegrator::ImplicitEuler> {
    static constexpr const char* kName = "springs newton";
    // Newton's 3 iterations from the same y in float and double; the GPU's
    // linear solves are 60 Chebyshev-Jacobi iterations against the
    // reference's exact LDL^T (a relative solve error ~1e-5); contacts as
    // above. A wrong Hessian block or gradient term moves it by centimetres.
    static constexpr double kReferenceTolerance = 5e-3;  // [m]
    // The exact LDL^T solves round relative to the conditioning of
    // M/h^2 + H (~1e3) times 1e-16, over 30 frames x 4 substeps x 3 solves.
    static constexpr double kReferenceMomentumTolerance = 1e-9;
    // The iterative solves leave a residual that is not translation-free,
    // as PD's (its bound says why): 1e-3.
    static constexpr double kGpuMomentumTolerance = 1e-3;
};

// Vertex block descent for tetrahedral solids (docs/physics.md §16).
struct VbdTraits {
    static constexpr const char* kName = "vbd solid";
    using Reference = VbdReference;

    // A soft cube falling onto a sphere, with friction.
    static Scene referenceScene() {
        Scene scene;
        scene.solids.push_back(vbdBox({3, 3, 3}, {0.3f, 0.3f, 0.3f}, {0.05f, 1.0f, 0.0f}, ElasticModel::NeoHookean,
                                      2e5f));
        scene.colliders = {sphereBelowCloth({0.0f, 0.5f, 0.0f}, 0.2f)};
        return scene;
    }
    // The same sweeps in the same colour order in float and double
    // (vbd_solid_test.cpp says why they stay close while unconverged);
    // contacts switch on a substep apart where float and double straddle
    // the sphere, as for the other solvers. Measured 3.0e-5 m over the fall
    // and the landing before the sphere's friction was in the sweeps
    // (physics §16, "Friction in the sweeps"; 9.3e-6 m before its
    // half-spaces; 2.5e-3 m with them at a tenth of the penalty's leftover
    // depth, where float rounding decided which particles touch). Held by
    // friction, the cube now tips over the sphere instead of sliding off:
    // an inverted pendulum, which grows any difference at sqrt(g / (R +
    // a)) = 5.3/s (R = 0.2 m, a = 0.15 m); measured 5.4e-7 m at frame 10,
    // 1.8e-4 at 20, 5.0e-4 at 30, 1.2e-3 at 40 (5.7/s). 5e-3 m leaves a
    // factor 4; a wrong gradient or block moves the cube by centimetres.
    static constexpr double kReferenceTolerance = 5e-3;  // [m]
    // Not exact in general: each vertex step zeroes its own gradient and
    // leaves its neighbours', and sum m dv = h sum_i grad_i G at the final
    // iterate (physics §16, "Momentum"). With 60 sweeps at h = 1/240 s the
    // inertia m/h^2 dominates this soft cube's stiffness and the sweeps
    // converge to rounding (measured 1.9e-13); 1e-9 is double rounding over
    // 30 frames with room, where a wrong mass drifts by percents.
    static constexpr double kReferenceMomentumTolerance = 1e-9;
    // Float32 positions as for PBD (~1e-5 kg m/s a frame, random; measured
    // 6.1e-5 relative): 1e-3.
    static constexpr double kGpuMomentumTolerance = 1e-3;

    // The free object: a soft cube, nothing pinned, no gravity, no colliders.
    static Scene freeScene() {
        Scene scene = vbdFreeCubeScene(60);
        scene.solids[0].initialVelocity = kFreeVelocity;
        return scene;
    }
    // Masses come from the inverse masses alone, as for PBD.
    static void makeMassesUnequal(SimModel& model) {
        for (uint32_t i = 0; i < model.positions.size(); ++i)
            model.positions[i].w /= float(1.0 + 0.5 * hashUnit(i, 7));
    }
    // 3e38 m/s^2 of gravity and a pinned face: the elastic terms of the
    // tets at the pins overflow float32 in the first substep.
    static Scene nonFiniteScene() {
        Scene scene = vbdHangingBarScene();
        scene.solver.gravity = glm::vec3(0.0f, -3e38f, 0.0f);
        return scene;
    }
    static bool ownsPass(std::string_view pass) { return pass.starts_with("vbd: "); }
};

}  // namespace vksim::test
