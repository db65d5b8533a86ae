#pragma once
// An object's "contacts" block: whether it touches the other objects that
// have one (and itself), at what distance, and with what friction
// (docs/scene-format.md, docs/physics.md "Contacts between objects").
// Plain data: the scene holds it, the model carries it per object
// (model/shared_model.h), and the contact unit (contacts/) reads it.
#include <optional>
#include <string_view>

namespace vksim {

// How the contact constraints are projected in each iteration (the scene's
// "solver": { "contactSolve" }, docs/physics.md §14).
enum class ContactSolve {
    Colours,  // Gauss-Seidel over the colours the GPU gives them every substep
    Jacobi,   // the Jacobi average over each particle's contacts
};
inline constexpr std::string_view kContactSolveNames[] = {"colours", "jacobi"};

struct ContactParams {
    bool enabled = false;     // the object has a "contacts" block
    float thickness = 0.01f;  // [m] the shell around its surface, or the radius of its particles
    bool self = false;        // it also touches itself (non-neighbour particles of one object)
    float friction = 0.3f;    // kinetic Coulomb coefficient mu_k; a pair uses sqrt(mu_a * mu_b)
    std::optional<float> staticFriction;  // mu_s >= friction, combined the same way; none: mu_s = mu_k
    bool triangles = false;   // its triangles touch every contact particle (vertex-triangle contacts)
    // With triangles, its triangles' edges touch the other edges
    // (edge-edge contacts). A scene always has them with "triangles"; only
    // a test turns them off, to show what they add (docs/physics.md §14).
    bool edges = true;
    bool operator==(const ContactParams&) const = default;
};

}  // namespace vksim
