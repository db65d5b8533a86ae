#pragma once
// A scene as the user wrote it (scenes/*.json), validated and with defaults
// filled in. scene_loader.h turns a file into this; solvers/model_builder.h turns
// this into the arrays the solver uploads.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scene/air_params.h"
#include "scene/contact_params.h"
#include "scene/elastic_material.h"
#include "scene/tether_params.h"
#include "solvers/pbd/pbd_settings.h"
#include "solvers/pd/pd_settings.h"
#include "solvers/rigid/rigid_settings.h"
#include "solvers/springs/spring_settings.h"
#include "solvers/vbd/vbd_settings.h"

namespace vksim {

struct TriangleSurface;     // io/triangle_surface.h: a welded OBJ mesh
struct TetMesh;             // geometry/tet_mesh.h
struct SignedDistanceGrid;  // geometry/signed_distance_grid.h

// The settings every solver shares (scene keys under "solver") and each
// solver's own block, declared in its folder.
struct SolverSettings {
    float timeStep = 1.0f / 60.0f;  // one frame [s]
    uint32_t substeps = 4;          // h = timeStep / substeps
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    float damping = 0.0f;           // [1/s]
    float collisionMargin = 0.01f;  // [m] distance at which a collider becomes a contact candidate
    float stencilStep = 1e-3f;      // [m] h of the tetrahedral SDF gradient
    ContactSolve contactSolve = ContactSolve::Colours;  // contacts between objects
    // Sweeps of every contact pair after the solves, where an object with
    // contacts belongs to a solver that does not project them in its
    // iterations (docs/physics.md §14).
    uint32_t contactIterations = 4;
    AirSettings air;  // density, wind and gusts (docs/physics.md §15)
    PbdSettings pbd;
    PdSettings pd;
    SpringSettings springs;
    VbdSettings vbd;  // the "method": "vbd" solids
    RigidSettings rigid;
    // Field by field (a NaN is unequal to itself): a World records its
    // frame's commands anew when the settings differ (world/frame_commands.h).
    bool operator==(const SolverSettings&) const = default;
};

// Which solver steps an object.
enum class SolverMethod { Pbd, Pd, Springs };

// A rectangular cloth in its object frame: the grid spans the local XZ plane,
// centred at the origin, then is rotated and translated.
struct ClothGrid {
    glm::vec2 size{1.0f, 1.0f};      // [m] extent along local X and Z
    glm::uvec2 resolution{32, 32};   // vertices along X and Z (>= 2 each)
};

// A cloth read from a triangle mesh file ("type": "mesh" objects) instead of
// built as a grid: the surface as loaded and welded, in the file's units.
struct ClothMeshSource {
    std::string file;  // as resolved against the scene's folder
    std::shared_ptr<const TriangleSurface> surface;
    float scale = 1.0f;                    // file units -> metres, before rotation and position
    std::vector<uint32_t> pinnedVertices;  // indices into surface->positions, ascending, distinct
};

// Vertices of a cloth attached to a point of a rigid body or a collider, or
// kept within a radius of it ("attachments"; docs/physics.md §1,
// "Attachments to bodies and colliders"). The point is the vertex's rest
// position, fixed in the body's or collider's frame as the scene places it.
enum class AttachmentTarget { Body, Collider };
struct ClothAttachment {
    AttachmentTarget target = AttachmentTarget::Body;
    std::string name;                // the body's or collider's
    uint32_t index = 0;              // in scene.bodies or scene.colliders (set when the scene is read)
    std::vector<uint32_t> vertices;  // the cloth's vertex indices (grid: row * columns + column)
    float maxDistance = 0.0f;        // [m] 0: on the point; > 0: anywhere within this distance of it
    float stiffness = 1.0f;          // in (0, 1]: the fraction of the violation a projection removes
    std::string source;              // JSON pointer ("/objects/0/attachments/1"), for messages
};

struct ClothObject {
    std::string name;
    ClothGrid grid;
    std::optional<ClothMeshSource> mesh;  // set: the cloth is this mesh; grid and pinned are unused
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  // quaternion (x, y, z, w)
    float mass = 1.0f;                           // total [kg], spread evenly over vertices
    std::vector<glm::uvec2> pinned;              // grid coordinates (column along X, row along Z)
    ConstraintParams stretch;                    // structural edges + shear diagonals
    ConstraintParams bending;
    ConstraintParams attachment;                 // pins as soft attachments when stiffness < 1
    ShapeMatchParams shapeMatching;              // PBD only
    TearingParams tearing;                       // PBD only: stretch constraints that break
    TetherParams tethers;                        // long-range attachments to the pins (after the solve: PD, springs)
    std::vector<ClothAttachment> attachments;    // to bodies and colliders
    bool pinsAsAttachments = false;              // false: pinned vertices get inverse mass 0
    glm::vec3 initialVelocity{0.0f};
    // Air drag sigma [kg/s], f = -sigma v per particle (the object's "drag"
    // key) of a PBD or PD cloth. A "method": "springs" cloth keeps its drag
    // with its other live-editable materials, in springs.drag.
    float drag = 0.0f;
    glm::vec3 color{0.8f, 0.3f, 0.2f};
    ContactParams contacts;  // "contacts": touching other objects and itself
    AeroParams aero;         // "aero": its drag and lift in the wind (docs/physics.md §15)
    SolverMethod method = SolverMethod::Pbd;
    PdClothParams pd;                            // used when method is Pd (stretch, bending and attachment above are PBD's)
    SpringClothParams springs;                   // used when method is Springs
    std::string source;                          // JSON pointer in the scene file ("/objects/2"), for messages
    // Not scene keys: a batch copy's own /solver/gravity (scene/scene_batch.h), unset: the solver's; and the
    // batch copy it belongs to (scene/scene_copies.h), 0 in a scene.
    std::optional<glm::vec3> gravity;
    uint32_t batchCopy = 0;
};

// A tetrahedral solid.
enum class SolidShape { Box, Ball, Mesh };

// Which solver steps a solid (its "method"; docs/physics.md §16): projective
// dynamics, XPBD's Neo-Hookean constraints in the PBD solver, or vertex
// block descent. XPBD and VBD need a material.
enum class SolidMethod { Pd, Xpbd, Vbd };

// Faces of a box whose vertices are pinned.
enum class BoxFace : uint32_t { MinusX, PlusX, MinusY, PlusY, MinusZ, PlusZ };

struct SolidObject {
    std::string name;
    SolidShape shape = SolidShape::Box;
    glm::vec3 size{1.0f, 0.25f, 0.25f};  // box: [m] edge lengths along local X, Y, Z
    glm::uvec3 cells{8, 2, 2};          // box: cube cells along X, Y, Z (6 tetrahedra each)
    float radius = 0.25f;               // ball [m]
    uint32_t cellsAcross = 6;           // ball: grid cells along the diameter
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};
    float mass = 1.0f;                          // total [kg], lumped by tetrahedron volume (without a material)
    SolidMethod method = SolidMethod::Pd;
    // E, nu and density: with one, the mass comes from the density, and a
    // projective dynamics solid's strain and volume weights from E and nu.
    std::optional<ElasticMaterial> material;
    // "method": "xpbd" only ("volumeConstraint": {"stiffness": k}): each
    // tetrahedron also gets the PBD volume constraint C = 6 (V - V0) of
    // stiffness k in [0, 1] (docs/physics.md §16, "XPBD for solids"), for comparison.
    std::optional<float> volumeConstraintStiffness;
    std::vector<BoxFace> pinnedFaces;           // box only
    bool pinsAsAttachments = false;             // false: pinned vertices get inverse mass 0
    PdParams strain{.stiffness = 1e5f};         // tetrahedron strain [Pa]
    PdParams volume{.stiffness = 1e5f, .enabled = false};  // tetrahedron volume [Pa]
    PdParams attachment{.stiffness = 1e4f};     // pins as closeness constraints [N/m]
    glm::vec3 initialVelocity{0.0f};
    glm::vec3 color{0.3f, 0.5f, 0.8f};
    ContactParams contacts;  // its surface vertices as spheres (docs/physics.md §14)
    // mesh ("type": "tetMesh"): tetrahedra read from TetGen .node/.ele files
    // or made by the tetgen program from a closed OBJ surface
    // (io/tetgen_runner.h), in the files' units, scaled by meshScale.
    std::shared_ptr<const TetMesh> tetMesh;
    std::string meshFile;  // the OBJ or .node file, as resolved against the scene's folder
    float meshScale = 1.0f;
    std::vector<uint32_t> pinnedVertices;  // mesh only: indices into tetMesh->positions, ascending, distinct
    std::string source;                    // JSON pointer in the scene file ("/objects/2"), for messages
    // Not scene keys: a batch copy's own /solver/gravity (scene/scene_batch.h), unset: the solver's; and the
    // batch copy it belongs to (scene/scene_copies.h), 0 in a scene.
    std::optional<glm::vec3> gravity;
    uint32_t batchCopy = 0;
};

enum class ColliderShape { Plane, Sphere, Box, Capsule, Mesh };

// A kinematic collider's motion ("keyframes", docs/scene-format.md): poses
// at times, strictly increasing from 0, at least two. Between frames the
// position moves linearly and the rotation by slerp or normalised linear
// interpolation; after the last frame the track holds it, or loops back to
// the first (docs/physics.md §17).
struct KeyframeDesc {
    double time = 0.0;                           // [s]
    glm::vec3 position{0.0f};                    // [m]
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  // unit quaternion (x, y, z, w)
};

enum class KeyframeRotation { Slerp, Linear };

struct KeyframeTrackDesc {
    bool loop = false;
    KeyframeRotation rotation = KeyframeRotation::Slerp;
    std::vector<KeyframeDesc> frames;
    double duration() const { return frames.empty() ? 0.0 : frames.back().time; }
};

struct ColliderDesc {
    std::string name;
    ColliderShape shape = ColliderShape::Plane;
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  // quaternion (x, y, z, w)
    float radius = 0.5f;                         // sphere, capsule
    float halfLength = 0.5f;                     // capsule: half the axis length along local Y
    glm::vec3 halfExtents{0.5f};                 // box
    // mesh: a closed surface and its signed distance grid, both in the
    // file's units, scaled by meshScale into the collider's frame.
    std::string meshFile;  // as resolved against the scene's folder
    std::shared_ptr<const TriangleSurface> meshSurface;
    std::shared_ptr<const SignedDistanceGrid> meshSdf;
    float meshScale = 1.0f;
    uint32_t sdfResolution = 64;  // grid cells along the longest side of the mesh
    float thickness = 0.0f;
    float friction = 0.3f;                // kinetic Coulomb coefficient mu_k
    std::optional<float> staticFriction;  // mu_s >= friction; none: mu_s = mu_k (following live edits of it)
    float restitution = 0.0f;
    // The velocity of the collider's frame (scene keys "velocity",
    // "angularVelocity"; or whatever moves it live): its surface carries
    // particles in contact along by friction.
    glm::vec3 linearVelocity{0.0f};   // [m/s]
    glm::vec3 angularVelocity{0.0f};  // [rad/s] about position
    // A kinematic collider: its pose and velocity follow these keyframes on
    // the GPU every substep (step/keyframe_stage.h); position, rotation and
    // the velocities above are then the first frame's pose, at rest.
    std::optional<KeyframeTrackDesc> keyframes;
    // The name of an earlier kinematic collider whose frame this one's pose
    // (its keyframes, or position and rotation) is given in: it moves with
    // it, and is kinematic too (the parts of a character). Empty: the world.
    std::string parent;
    bool kinematic() const { return keyframes.has_value() || !parent.empty(); }
};

// A rigid body ("bodies" in the scene file, docs/physics.md §11). Its
// surface's vertices are its contact points; the body frame is re-centred
// at the centre of mass when the model is built (solvers/rigid/rigid_model.h).
enum class BodyShape { Box, Sphere, Capsule, Mesh };

struct BodyDesc {
    std::string name;
    BodyShape shape = BodyShape::Box;
    glm::vec3 halfExtents{0.5f};  // box [m]
    float radius = 0.5f;          // sphere, capsule [m]
    float halfLength = 0.5f;      // capsule: half the distance between the cap centres, along local Y [m]
    // mesh: a closed, outward-wound surface, in the file's units scaled by meshScale.
    std::string meshFile;  // as resolved against the scene's folder
    std::shared_ptr<const TriangleSurface> meshSurface;
    // Its signed distance grid, in the file's units: what other bodies'
    // contact points are tested against.
    std::shared_ptr<const SignedDistanceGrid> meshSdf;
    uint32_t sdfResolution = 64;  // grid cells along the longest side of the mesh
    float meshScale = 1.0f;
    // How finely a primitive is tessellated into contact points: box cells
    // per edge, icosphere subdivisions, capsule slices (stacks per cap are a quarter).
    std::optional<uint32_t> detail;  // none: the shape's default (box 4, sphere 2, capsule 16)
    // Exactly one of the two sets the body's mass (default: mass 1 kg).
    float mass = 1.0f;     // [kg]
    float density = 0.0f;  // [kg/m^3]; > 0 means the mass comes from it
    glm::vec3 position{0.0f};                    // of the shape's origin (not the centre of mass) [m]
    glm::vec4 rotation{0.0f, 0.0f, 0.0f, 1.0f};  // quaternion (x, y, z, w)
    glm::vec3 velocity{0.0f};                    // of the centre of mass [m/s]
    glm::vec3 angularVelocity{0.0f};             // [rad/s], world frame
    float friction = 0.3f;                // kinetic Coulomb coefficient mu_k
    std::optional<float> staticFriction;  // mu_s >= friction; none: mu_s = mu_k
    float restitution = 0.0f;
    glm::vec3 color{0.85f, 0.55f, 0.3f};
    std::string source;  // JSON pointer in the scene file ("/bodies/2"), for messages
    // Not a scene key: the batch copy it belongs to (scene/scene_copies.h), 0 in a scene. Bodies meet the bodies of
    // their own copy only (scheduleBodyPairs' rounds are per copy).
    uint32_t batchCopy = 0;
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
    std::vector<SolidObject> solids;
    std::vector<ColliderDesc> colliders;
    std::vector<BodyDesc> bodies;
    CameraDesc camera;
    // One line per asset file loaded with the scene (mesh statistics, SDF
    // grids baked or read from their cache), for the program to print.
    std::vector<std::string> assetLog;
};

}  // namespace vksim
