#pragma once
// A scene as the user wrote it (scenes/*.json), validated and with defaults
// filled in. scene_loader.h turns a file into this; sim/model_builder.h turns
// this into the arrays the solver uploads.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

enum class ConstraintModel { Pbd, Xpbd };

// Stiffness of one constraint family: PBD stiffness k in [0,1] (corrected for
// the iteration count) or XPBD compliance alpha >= 0 (inverse stiffness, m/N).
struct ConstraintParams {
    ConstraintModel model = ConstraintModel::Pbd;
    float stiffness = 1.0f;
    float compliance = 0.0f;
    bool enabled = true;
};

struct SolverSettings {
    float timeStep = 1.0f / 60.0f;  // one frame [s]
    uint32_t substeps = 4;          // h = timeStep / substeps
    uint32_t iterations = 8;        // n_s per substep
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    float damping = 0.0f;           // [1/s]
    float collisionMargin = 0.01f;  // [m] distance at which a collider becomes a contact candidate
    float stencilStep = 1e-3f;      // [m] h of the tetrahedral SDF gradient
};

// A rectangular cloth in its object frame: the grid spans the local XZ plane,
// centred at the origin, then is rotated and translated.
struct ClothGrid {
    glm::vec2 size{1.0f, 1.0f};      // [m] extent along local X and Z
    glm::uvec2 resolution{32, 32};   // vertices along X and Z (>= 2 each)
};

struct ClothObject {
    std::string name;
    ClothGrid grid;
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  // quaternion (x, y, z, w)
    float mass = 1.0f;                           // total [kg], spread evenly over vertices
    std::vector<glm::uvec2> pinned;              // grid coordinates (column along X, row along Z)
    ConstraintParams stretch;                    // structural edges + shear diagonals
    ConstraintParams bending;
    ConstraintParams attachment;                 // pins as soft attachments when stiffness < 1
    bool pinsAsAttachments = false;              // false: pinned vertices get inverse mass 0
    glm::vec3 initialVelocity{0.0f};
    glm::vec3 color{0.8f, 0.3f, 0.2f};
};

enum class ColliderShape { Plane, Sphere, Box, Capsule };

struct ColliderDesc {
    std::string name;
    ColliderShape shape = ColliderShape::Plane;
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  // quaternion (x, y, z, w)
    float radius = 0.5f;                         // sphere, capsule
    float halfLength = 0.5f;                     // capsule: half the axis length along local Y
    glm::vec3 halfExtents{0.5f};                 // box
    float thickness = 0.0f;
    float friction = 0.3f;
    float restitution = 0.0f;
};

struct CameraDesc {
    glm::vec3 target{0.0f, 0.5f, 0.0f};
    float distance = 4.0f;
    float yawDegrees = 30.0f;
    float pitchDegrees = 25.0f;
    float fovDegrees = 45.0f;
};

struct Scene {
    std::string path;  // where it was loaded from (for messages)
    std::string name;
    SolverSettings solver;
    std::vector<ClothObject> cloths;
    std::vector<ColliderDesc> colliders;
    CameraDesc camera;
};

}  // namespace vksim
