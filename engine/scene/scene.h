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

namespace vksim {

struct TriangleSurface;     // io/triangle_surface.h: a welded OBJ mesh
struct TetMesh;             // geometry/tet_mesh.h
struct SignedDistanceGrid;  // geometry/signed_distance_grid.h

enum class ConstraintModel { Pbd, Xpbd };

// Stiffness of one constraint family: PBD stiffness k in [0,1] (corrected for
// the iteration count) or XPBD compliance alpha >= 0 (inverse stiffness, m/N).
struct ConstraintParams {
    ConstraintModel model = ConstraintModel::Pbd;
    float stiffness = 1.0f;
    float compliance = 0.0f;
    bool enabled = true;
};

// Projective dynamics settings (docs/physics.md §5), shared by every "method": "pd"
// object: they form one global system. Each substep runs localIterations
// local/global iterations, each a local step and jacobiIterations Jacobi
// iterations of the global step.
// How the Jacobi iterations of a PD global step are dispatched (docs/physics.md §5).
enum class PdJacobiPath {
    Auto,          // Workgroup up to kPdOneWorkgroupRows PD particles, else PerIteration
    Workgroup,     // all J iterations in one dispatch of one workgroup
    PerIteration,  // one dispatch per iteration
    Tiled,         // one dispatch per iteration, each workgroup's neighbours from a tile in shared memory
};

struct PdSettings {
    PdJacobiPath jacobiPath = PdJacobiPath::Auto;
    uint32_t localIterations = 10;   // L per substep
    uint32_t jacobiIterations = 20;  // J per global step
    bool chebyshev = true;           // Chebyshev acceleration (Wang 2015); false: relaxed Jacobi
    float spectralRadius = 0.0f;     // rho of the relaxed Jacobi iteration; 0 = from the estimated spectrum
    float relaxation = 0.0f;         // gamma of each Jacobi update; 0 = 2 / (mu_min + mu_max) (pd_system.h)
    float collisionWeight = 1000.0f;  // weight of a collision projection, in units of the particle's m/h^2
    bool operator==(const PdSettings&) const = default;
};

// The mass-spring solver's settings (docs/physics.md §9), shared by every
// "method": "springs" object: they form one system.
enum class SpringIntegrator {
    ExplicitEuler,
    SymplecticEuler,
    PositionVerlet,
    VelocityVerlet,
    Midpoint,
    ImplicitEuler,  // Newton on F, block-Jacobi/Chebyshev linear solves
    Vbd,            // vertex block descent on F (Chen et al. 2024)
};

struct SpringSettings {
    SpringIntegrator integrator = SpringIntegrator::SymplecticEuler;
    uint32_t newtonIterations = 3;   // per substep
    uint32_t jacobiIterations = 40;  // per Newton iteration
    bool chebyshev = true;           // Chebyshev acceleration of the Jacobi iterations
    bool lineSearch = true;          // backtracking on F along the Newton direction
    uint32_t vbdIterations = 10;     // per substep, each a sweep over every colour
    bool operator==(const SpringSettings&) const = default;
};

// How the PBD objects are dispatched (docs/physics.md §1, "Small objects in
// one workgroup").
enum class PbdPath {
    Auto,       // Clusters where they cut an object (on a CPU device where its texel buffers
                // hold the arrays; on a GPU where the largest object is cut into 10 or more or
                // does not fit one workgroup); else Workgroup when every PBD object fits one
                // workgroup's shared memory, else PerColour (choosePbdPath)
    Workgroup,  // one dispatch per frame, one workgroup per object, positions in shared memory
    PerColour,  // one dispatch per colour per iteration
    Clusters,   // per iteration, two dispatches of shared-memory clusters and the colours they leave
};
// The scene format's name of each PbdPath, in its order.
inline constexpr const char* kPbdPathNames[] = {"auto", "workgroup", "perColour", "clusters"};

// How the PBD constraints are coloured for Gauss-Seidel (docs/physics.md §1,
// "One colouring across the families"). Fixed when a world is built: the
// constraint arrays are sorted by it.
enum class PbdColouring {
    PerFamily,       // each family its own colours: a grid cloth 8 stretch + 18 bending, one dispatch each
    AcrossFamilies,  // one colouring of every constraint, a colour's dispatch holding every family
};
// The scene format's name of each PbdColouring, in its order.
inline constexpr const char* kPbdColouringNames[] = {"perFamily", "acrossFamilies"};

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

// The settings of every PBD/XPBD object (scene keys "iterations", "pbdPath"
// and "pbdColouring" under "solver").
struct PbdSettings {
    uint32_t iterations = 8;  // n_s per substep
    PbdPath path = PbdPath::Auto;
    PbdColouring colouring = PbdColouring::PerFamily;  // read when the model is built, not live
    bool operator==(const PbdSettings&) const = default;
};

struct SolverSettings {
    float timeStep = 1.0f / 60.0f;  // one frame [s]
    uint32_t substeps = 4;          // h = timeStep / substeps
    glm::vec3 gravity{0.0f, -9.81f, 0.0f};
    float damping = 0.0f;           // [1/s]
    float collisionMargin = 0.01f;  // [m] distance at which a collider becomes a contact candidate
    float stencilStep = 1e-3f;      // [m] h of the tetrahedral SDF gradient
    PbdSettings pbd;
    PdSettings pd;
    SpringSettings springs;
    RigidSettings rigid;
    // Field by field (a NaN is unequal to itself): a World records its
    // frame's commands anew when the settings differ (world/frame_commands.h).
    bool operator==(const SolverSettings&) const = default;
};

// Which solver steps an object.
enum class SolverMethod { Pbd, Pd, Springs };

// One family of projective dynamics elements of an object: its stiffness
// (each element's weight is this times its rest length, area or volume
// measure, see README "Scene files") and, for strain and volume, the range
// the singular values or the volume ratio are clamped to.
struct PdParams {
    float stiffness = 1.0f;
    float rangeMin = 1.0f;
    float rangeMax = 1.0f;
    bool enabled = true;
};

// The element families of a cloth simulated with projective dynamics.
struct PdClothParams {
    PdParams stretch{.stiffness = 2000.0f};                  // springs on structural and shear edges [N/m]
    PdParams strain{.stiffness = 100.0f, .enabled = false};  // triangle strain [N/m]
    PdParams bending{.stiffness = 1e-3f};                    // isometric bending stencil [N m]
    PdParams attachment{.stiffness = 1000.0f};               // pins as closeness constraints [N/m]
};

// How a mass-spring cloth bends (docs/physics.md §9.5).
enum class SpringBending {
    None,
    Springs,    // springs across interior edges (mesh) or skipping a vertex (grid)
    Dihedral,   // Bridson et al. 2003 forces; explicit integrators only
    Quadratic,  // Bergou et al. 2006 constant Hessian, for a flat rest shape
};

// Which springs a grid cloth gets (a mesh cloth always gets its edges).
enum class SpringTopology {
    Mesh,  // the lecture's builder: one spring per edge, bending springs across interior edges
    Grid,  // structural, shear and skip-one bending families
};

// The springs of a "method": "springs" cloth.
struct SpringClothParams {
    SpringTopology topology = SpringTopology::Grid;  // grids; mesh cloths always use Mesh
    uint32_t shearDiagonals = 2;                     // grid: 0, 1 or 2 diagonals per cell
    float stretch = 2000.0f;                         // k of stretch (edge, structural) springs [N/m]
    float shear = 500.0f;                            // k of shear springs [N/m]
    SpringBending bending = SpringBending::Springs;
    float bendingStiffness = 50.0f;  // springs: [N/m]; dihedral: [N/m] (times the hinge scale); quadratic: [N m]
    float drag = 0.0f;               // air drag sigma [kg/s], f = -sigma v per particle
    float compressionScale = 1.0f;   // stiffness factor of compressed springs, in [0, 1]
    float slack = 0.0f;              // compressed by less than this fraction of L: no force
};

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

// Shape matching of a PBD object (docs/physics.md §13; Müller et al. 2005):
// its particles pulled towards the rest shape moved by the best rotation
// (rigid) or by a blend of it with the best volume-keeping linear map
// (linear), once per iteration after the object's constraints.
enum class ShapeMatchMode { Rigid, Linear };
struct ShapeMatchParams {
    bool enabled = false;
    ShapeMatchMode mode = ShapeMatchMode::Rigid;
    float stiffness = 1.0f;  // [0, 1]: fraction of the way to the goals per substep
    float beta = 0.5f;       // linear mode: goal transform beta A~ + (1 - beta) R
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
    bool pinsAsAttachments = false;              // false: pinned vertices get inverse mass 0
    glm::vec3 initialVelocity{0.0f};
    // Air drag sigma [kg/s], f = -sigma v per particle (the object's "drag"
    // key) of a PBD or PD cloth. A "method": "springs" cloth keeps its drag
    // with its other live-editable materials, in springs.drag.
    float drag = 0.0f;
    glm::vec3 color{0.8f, 0.3f, 0.2f};
    SolverMethod method = SolverMethod::Pbd;
    PdClothParams pd;                            // used when method is Pd (stretch, bending and attachment above are PBD's)
    SpringClothParams springs;                   // used when method is Springs
    std::string source;                          // JSON pointer in the scene file ("/objects/2"), for messages
};

// A tetrahedral solid, simulated with projective dynamics.
enum class SolidShape { Box, Ball, Mesh };

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
    float mass = 1.0f;                          // total [kg], lumped by tetrahedron volume
    std::vector<BoxFace> pinnedFaces;           // box only
    bool pinsAsAttachments = false;             // false: pinned vertices get inverse mass 0
    PdParams strain{.stiffness = 1e5f};         // tetrahedron strain [Pa]
    PdParams volume{.stiffness = 1e5f, .enabled = false};  // tetrahedron volume [Pa]
    PdParams attachment{.stiffness = 1e4f};     // pins as closeness constraints [N/m]
    glm::vec3 initialVelocity{0.0f};
    glm::vec3 color{0.3f, 0.5f, 0.8f};
    // mesh ("type": "tetMesh"): tetrahedra read from TetGen .node/.ele files
    // or made by the tetgen program from a closed OBJ surface
    // (io/tetgen_runner.h), in the files' units, scaled by meshScale.
    std::shared_ptr<const TetMesh> tetMesh;
    std::string meshFile;  // the OBJ or .node file, as resolved against the scene's folder
    float meshScale = 1.0f;
    std::vector<uint32_t> pinnedVertices;  // mesh only: indices into tetMesh->positions, ascending, distinct
    std::string source;                    // JSON pointer in the scene file ("/objects/2"), for messages
};

enum class ColliderShape { Plane, Sphere, Box, Capsule, Mesh };

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
    float friction = 0.3f;
    float restitution = 0.0f;
    // The velocity of the collider's frame (scene keys "velocity",
    // "angularVelocity"; or whatever moves it live): its surface carries
    // particles in contact along by friction.
    glm::vec3 linearVelocity{0.0f};   // [m/s]
    glm::vec3 angularVelocity{0.0f};  // [rad/s] about position
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
    float friction = 0.3f;
    float restitution = 0.0f;
    glm::vec3 color{0.85f, 0.55f, 0.3f};
    std::string source;  // JSON pointer in the scene file ("/bodies/2"), for messages
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
