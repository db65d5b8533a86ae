#pragma once
// The rigid-body solver's settings (scene key "rigid" under "solver").
// A settings header: plain data that the scene (scene/scene.h) holds, so
// it includes nothing of the engine's (docs/architecture.md, "Layers").
#include <cstdint>

namespace vksim {

// How the rigid bodies are dispatched (docs/physics.md §11).
enum class RigidPath {
    Auto,          // one workgroup for up to 4 bodies on a CPU device, 8 on a GPU, else per substep
    OneWorkgroup,  // one dispatch per frame: every body and pair in one workgroup
    PerSubstep,    // per substep and iteration: bodies in parallel, then each round of pairs
};

// How bodies meet the colliders (docs/physics.md §11, "Penalty contacts").
enum class RigidContact {
    Impulse,    // averaged contact, impulse to the wanted velocity, push-out
    Quadratic,  // penalty force k (zone - phi) per point in the buffer zone
    Barrier,    // penalty force rho (1/phi - 1/zone) per point in the buffer zone
};

// How a substep moves a body (docs/physics.md §11, "One substep").
enum class RigidIntegrator {
    SymplecticEuler,  // c += h v, with v after the substep's forces and contacts
    Midpoint,         // c += h (v_start + v_end) / 2, the seed's mid-point rule (omega likewise)
};

// The rigid-body settings (docs/physics.md §11), shared by every body.
struct RigidSettings {
    RigidPath path = RigidPath::Auto;
    // Against the colliders; bodies meet each other by impulses whatever this is.
    RigidContact contact = RigidContact::Impulse;
    float penaltyStiffness = 1e3f;  // [N/m] per contact point (quadratic)
    float barrierStrength = 1.0f;   // [N m] per contact point (log-barrier)
    float penaltyZone = 0.01f;      // [m] how far above a surface a penalty starts to act
    RigidIntegrator integrator = RigidIntegrator::SymplecticEuler;
    bool gyroscopic = true;      // include -omega x I omega in the angular update
    // Passes of contacts (colliders, then every pair of bodies) per substep:
    // each resolves what the previous left, as Gauss-Seidel sweeps do, so a
    // stack settles in fewer substeps with more of them.
    uint32_t iterations = 4;
    float linearDamping = 0.0f;  // [1/s]: v *= max(0, 1 - rate h) each substep (the seed's factor alpha)
    float angularDamping = 0.0f;  // [1/s]: omega likewise
    // [m/s]: contacts approaching slower than this do not bounce; the
    // restitution fades in up to twice this speed.
    float restingSpeed = 0.1f;
    // [m]: how deep a body may stay inside a collider. Deeper, it is moved
    // out by the excess at the end of the substep; moving a body lifts it
    // without a velocity, which adds energy, so shallow contact is left to
    // the impulses.
    float penetrationSlop = 0.001f;
    bool operator==(const RigidSettings&) const = default;
};

}  // namespace vksim
