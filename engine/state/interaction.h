#pragma once
// Picking and dragging particles (the viewer's mouse): the ray a click casts,
// what it hit, and the mouse attachment that pulls the picked particle
// towards a target. Picker runs the ray cast on the GPU; PbdSolver and
// PdSolver each apply a MouseAttachment to their own particles.
#include <cstdint>

#include <glm/glm.hpp>

namespace vksim {

struct Ray {
    glm::vec3 origin{0.0f};
    glm::vec3 direction{0.0f, 0.0f, -1.0f};  // need not be unit length (normalised by the pick)
};

struct PickHit {
    uint32_t particle = 0;   // global particle index (the drag() argument)
    uint32_t object = 0;     // index into SimModel::objects
    bool onTriangle = false; // true: the ray hit a rendered triangle and particle is its closest vertex;
                             // false: no triangle hit, particle is the one nearest the ray within the radius
    uint32_t triangle = 0;   // the hit triangle when onTriangle
    float distance = 0.0f;   // onTriangle: distance from the origin along the ray [m]; else from the ray [m]
    glm::vec3 point{0.0f};   // onTriangle: the hit point; else the particle's position
};

// Particles within this distance of the ray are candidates when no triangle is hit [m].
inline constexpr float kDefaultPickRadius = 0.05f;

// The picked particle follows `target`. PBD: an attachment C = |p - target|
// of stiffness 1 to a kinematic mouse, projected at the start of every
// iteration (pbd/project_mouse.comp): the particle goes onto the target and
// has inverse mass 0 for the rest of the substep, so the coloured constraints
// move its neighbours towards it rather than it off the target (projected
// after them instead, the edges next to it would end each step stretched by
// the whole pull of the cloth, as measured in docs/physics.md §12,
// "Dragging a particle"). Projective dynamics: a
// closeness term w_m/2 |q_i - target|^2 in the global system with
// w_m = kPdMouseWeight (m_i/h^2 + graphDiagonal_i), i.e. kPdMouseWeight times
// the particle's own row diagonal, added in the gather pass. With that weight
// the particle's equation is dominated by the mouse term: at rest it sits
// within about 1/(1 + kPdMouseWeight) of its neighbours' pull away from the
// target, while the row stays diagonally dominant, so the Jacobi iteration's
// spectrum (estimated without the mouse) still bounds it.
struct MouseAttachment {
    uint32_t particle = 0;
    glm::vec3 target{0.0f};
    bool operator==(const MouseAttachment&) const = default;
};
inline constexpr float kPdMouseWeight = 1000.0f;

// A rigid body under the ray: the nearest hit on the surface it is drawn
// with (World::pickBody).
struct BodyPickHit {
    uint32_t body = 0;
    float distance = 0.0f;       // from the ray's origin along it [m]
    glm::vec3 point{0.0f};       // the hit point
    glm::vec3 bodyPoint{0.0f};   // the same point in the body frame (about its centre of mass)
};

// A grabbed rigid body: the point `bodyPoint` of it (body frame) is pulled
// towards `target`. Each substep, after gravity, the body gets the impulse
// at that point that sets the point's velocity to (target - x) / kBodyDragTime
// (the point's effective mass, K = (1/m) I - [r]x I^-1 [r]x, as in a
// contact): the point closes on the target exponentially with that time
// constant, whatever the body's mass, and the body swings about it
// (docs/physics.md §11, "Dragging a body").
struct BodyDrag {
    uint32_t body = 0;
    glm::vec3 bodyPoint{0.0f};
    glm::vec3 target{0.0f};
    bool operator==(const BodyDrag&) const = default;
};
inline constexpr float kBodyDragTime = 0.1f;  // [s]

}  // namespace vksim
