#include "scene/scene_loader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "geometry/mesh_sdf_bake.h"
#include "geometry/signed_distance_grid.h"
#include "geometry/tet_mesh.h"
#include "io/asset_error.h"
#include "io/quoted_input.h"
#include "io/read_file.h"
#include "io/triangle_surface.h"
#include "scene/body_mass.h"
#include "scene/json_reader.h"
#include "scene/scene_assets.h"
#include "shaders/shared/sim_types.h"
#include "solvers/springs/spring_settings.h"

// The format this file reads is documented key by key in README.md, section "Scene files";
// keep the two in step. Each read* function below handles one JSON object
// and knows its allowed keys; missing keys keep the defaults of scene.h.

namespace vksim {
namespace {

using json_input::atLeast;
using json_input::closedInterval;
using json_input::describeValue;
using json_input::Field;
using json_input::greaterThan;
using json_input::Json;
using json_input::NumberRange;
using json_input::ObjectFields;
using json_input::readArray;
using json_input::readBool;
using json_input::readChoice;
using json_input::readFloat;
using json_input::readFloats;
using json_input::readInteger;
using json_input::readNonEmptyString;
using json_input::readVec2;
using json_input::readVec3;

// More substeps or iterations than this is a typo, and would stall the GPU
// for seconds per frame.
constexpr int64_t kMaxSolverLoops = 1000;
// Vertices per side of a cloth grid: 4096^2 = 16.7 M particles is already
// more than an interactive frame can simulate.
constexpr int64_t kMinGridResolution = 2;
constexpr int64_t kMaxGridResolution = 4096;
// A scene file is a few kilobytes; refuse to slurp something that is not one.
constexpr std::size_t kMaxFileBytes = 64u << 20;

// Sizes, radii and the camera distance, in metres. Below a micrometre a
// length is a typo (1e-30), and the areas, volumes and inverse masses the
// model derives from it leave float32's range; 1e-6 keeps a 256-cell solid's
// tetrahedron volumes (~1e-26) normal floats.
constexpr NumberRange kLengthRange{.min = 1e-6};
constexpr NumberRange kTimeStepRange{.min = 0.0, .max = 1.0, .minExclusive = true};
constexpr NumberRange kPitchRange{.min = -90.0, .max = 90.0, .minExclusive = true, .maxExclusive = true};
constexpr NumberRange kFieldOfViewRange{.min = 0.0, .max = 180.0, .minExclusive = true, .maxExclusive = true};

// ---------------------------------------------------------------------------
// Small value types

// A rotation is a quaternion [x, y, z, w] (normalised here, so [0, 0, 1, 1]
// is fine) or, easier to write by hand, {"axis": [x, y, z], "degrees": a}.
glm::vec4 readRotation(const Field& field) {
    if (field.json().is_object()) {
        const ObjectFields fields(field, {"axis", "degrees"});
        const glm::dvec3 axis(readVec3(fields.required("axis")));
        const double axisLength = glm::length(axis);
        if (!(axisLength > 0.0)) fields.required("axis").failExpected("a non-zero rotation axis");
        const double halfAngle = glm::radians(static_cast<double>(readFloat(fields.required("degrees")))) / 2.0;
        return glm::vec4(glm::dvec4(axis / axisLength * std::sin(halfAngle), std::cos(halfAngle)));
    }
    if (!field.json().is_array() || field.json().size() != 4)
        field.failExpected("a quaternion [x, y, z, w] or {\"axis\": [x, y, z], \"degrees\": angle}");
    const std::vector<float> q = readFloats(field, 4);
    const glm::dvec4 quaternion(q[0], q[1], q[2], q[3]);
    // In double so that large components cannot overflow; below 1e-6 the
    // direction of the normalised quaternion would be rounding noise.
    const double length = glm::length(quaternion);
    if (!(length > 1e-6)) field.failExpected("a quaternion [x, y, z, w] of non-zero length");
    return glm::vec4(quaternion / length);
}

glm::vec3 readColor(const Field& field) { return readVec3(field, closedInterval(0.0, 1.0)); }

// {"model": "pbd", "stiffness": k} or {"model": "xpbd", "compliance": alpha},
// each with an optional "enabled". The model decides which number is
// allowed, so that a compliance is never silently ignored by a PBD family.
ConstraintParams readConstraintParams(const Field& field) {
    if (!field.json().is_object()) field.failExpected(R"(an object such as {"model": "pbd", "stiffness": 1})");
    ConstraintParams params;
    if (field.json().contains("model"))
        params.model = readChoice(field.member("model"), {"pbd", "xpbd"}) == 0 ? ConstraintModel::Pbd
                                                                              : ConstraintModel::Xpbd;
    if (params.model == ConstraintModel::Pbd) {
        const ObjectFields fields(field, {"model", "stiffness", "enabled"},
                                  R"(for "model": "pbd" (a compliance needs "model": "xpbd"))");
        if (auto f = fields.optional("stiffness")) params.stiffness = readFloat(*f, closedInterval(0.0, 1.0));
        if (auto f = fields.optional("enabled")) params.enabled = readBool(*f);
    } else {
        const ObjectFields fields(field, {"model", "compliance", "enabled"},
                                  R"(for "model": "xpbd" (a stiffness needs "model": "pbd"))");
        if (auto f = fields.optional("compliance")) params.compliance = readFloat(*f, atLeast(0.0));
        if (auto f = fields.optional("enabled")) params.enabled = readBool(*f);
    }
    return params;
}

// Shape matching of a PBD object: {"mode": "rigid" | "linear", "stiffness":
// k, "beta": b (linear only), "enabled": e}. Writing it switches it on
// (it is off by default), unless it says "enabled": false.
ShapeMatchParams readShapeMatchParams(const Field& field) {
    if (!field.json().is_object()) field.failExpected(R"(an object such as {"mode": "rigid", "stiffness": 0.5})");
    ShapeMatchParams params;
    params.enabled = true;
    if (field.json().contains("mode"))
        params.mode = readChoice(field.member("mode"), {"rigid", "linear"}) == 0 ? ShapeMatchMode::Rigid
                                                                                : ShapeMatchMode::Linear;
    const bool linear = params.mode == ShapeMatchMode::Linear;
    std::vector<std::string_view> keys = {"mode", "stiffness", "enabled"};
    if (linear) keys.push_back("beta");
    const ObjectFields fields(field, std::move(keys),
                              linear ? R"(for "mode": "linear")" : R"(for "mode": "rigid" (a beta needs "mode": "linear"))");
    if (auto f = fields.optional("stiffness")) params.stiffness = readFloat(*f, closedInterval(0.0, 1.0));
    if (auto f = fields.optional("beta")) params.beta = readFloat(*f, closedInterval(0.0, 1.0));
    if (auto f = fields.optional("enabled")) params.enabled = readBool(*f);
    return params;
}

// A projective dynamics element family: {"stiffness": k, "enabled": b},
// plus "min" and "max" for strain and volume (what `range` names). The
// object's "method" decides the model, so "model" is not a key here.
// Writing a family switches it on (cloth strain and solid volume are off by
// default), unless it says "enabled": false.
PdParams readPdParams(const Field& field, PdParams params, std::string_view range = {}) {
    params.enabled = true;
    std::vector<std::string_view> keys = {"stiffness", "enabled"};
    if (!range.empty()) keys.insert(keys.end(), {"min", "max"});
    if (!field.json().is_object()) field.failExpected(R"(an object such as {"stiffness": 1000})");
    const ObjectFields fields(field, std::move(keys), R"(for a "method": "pd" object (its method decides the model))");
    if (auto f = fields.optional("stiffness")) params.stiffness = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("enabled")) params.enabled = readBool(*f);
    if (auto f = fields.optional("min")) params.rangeMin = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("max")) {
        params.rangeMax = readFloat(*f, atLeast(0.0));
        if (params.rangeMax < params.rangeMin)
            f->failExpected(fmt::format("a {} limit >= min ({:g})", range, params.rangeMin));
    } else if (params.rangeMax < params.rangeMin) {
        fields.required("min").failExpected(fmt::format("a {} limit <= max ({:g})", range, params.rangeMax));
    }
    return params;
}

// The choices below are listed in their enum's order (scene.h).
SolverMethod readMethod(const Field& field) {
    return static_cast<SolverMethod>(readChoice(field, {"pbd", "pd", "springs"}));
}

// The "type" of an object or collider, read before anything else because the
// allowed keys depend on it.
std::size_t readTypeTag(const Field& field, const std::vector<std::string_view>& types) {
    if (!field.json().is_object()) field.failExpected("an object");
    if (!field.json().contains("type")) field.fail(R"(missing required key "type")");
    return readChoice(field.member("type"), types);
}

// "name" if given, else "<type><index>" such as "cloth0" or "sphere2".
std::string readNameOrDefault(const ObjectFields& fields, std::string_view type, std::size_t index) {
    if (auto f = fields.optional("name")) return readNonEmptyString(*f);
    return fmt::format("{}{}", type, index);
}

// ---------------------------------------------------------------------------
// Solver and camera

// "solver": {"pd": {...}}: projective dynamics settings (docs/physics.md §5). A
// spectral radius or relaxation of "auto" (the default) is derived from the
// spectrum of the Jacobi iteration matrix (pd_system.h).
PdSettings readPdSettings(const Field& field, PdSettings pd) {
    const ObjectFields fields(field, {"iterations", "jacobiIterations", "chebyshev", "spectralRadius", "relaxation",
                                      "collisionWeight", "jacobiPath"},
                              "for the projective dynamics settings");
    if (auto f = fields.optional("jacobiPath"))
        pd.jacobiPath = static_cast<PdJacobiPath>(readChoice(*f, {"auto", "workgroup", "perIteration", "tiled"}));
    if (auto f = fields.optional("iterations"))
        pd.localIterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("jacobiIterations"))
        pd.jacobiIterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("chebyshev")) pd.chebyshev = readBool(*f);
    auto autoOrNumber = [](const Field& f, const NumberRange& range) {
        if (f.json().is_string()) {
            readChoice(f, {"auto"});
            return 0.0f;
        }
        if (!f.json().is_number()) f.failExpected(fmt::format("\"auto\" or {}", range.describe()));
        return readFloat(f, range);
    };
    if (auto f = fields.optional("spectralRadius"))
        pd.spectralRadius = autoOrNumber(*f, {.min = 0.0, .max = 1.0, .minExclusive = true, .maxExclusive = true});
    if (auto f = fields.optional("relaxation"))
        pd.relaxation = autoOrNumber(*f, {.min = 0.0, .max = 2.0, .minExclusive = true, .maxExclusive = true});
    if (auto f = fields.optional("collisionWeight")) pd.collisionWeight = readFloat(*f, greaterThan(0.0));
    return pd;
}

// "solver": {"springs": {...}}: the mass-spring solver's settings
// (docs/physics.md §9), shared by every "method": "springs" object.
SpringSettings readSpringSettings(const Field& field, SpringSettings springs) {
    const ObjectFields fields(field, {"integrator", "newtonIterations", "jacobiIterations", "chebyshev", "lineSearch",
                                      "vbdIterations"},
                              "for the mass-spring settings");
    if (auto f = fields.optional("integrator"))
        springs.integrator = static_cast<SpringIntegrator>(readChoice(
            *f, {"explicitEuler", "symplecticEuler", "positionVerlet", "velocityVerlet", "midpoint", "implicitEuler",
                 "vbd"}));
    if (auto f = fields.optional("newtonIterations"))
        springs.newtonIterations = static_cast<uint32_t>(readInteger(*f, 1, 100));
    if (auto f = fields.optional("jacobiIterations"))
        springs.jacobiIterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("chebyshev")) springs.chebyshev = readBool(*f);
    if (auto f = fields.optional("lineSearch")) springs.lineSearch = readBool(*f);
    if (auto f = fields.optional("vbdIterations"))
        springs.vbdIterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    return springs;
}

// "solver": {"vbd": {...}}: the settings of the vertex block descent solids
// (docs/physics.md §16), shared by every "method": "vbd" solid.
VbdSettings readVbdSettings(const Field& field, VbdSettings vbd) {
    const ObjectFields fields(field, {"iterations", "initialGuess"}, "for the vertex block descent settings");
    if (auto f = fields.optional("iterations"))
        vbd.iterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("initialGuess"))
        vbd.initialGuess = readChoice(*f, {"adaptive", "inertial"}) == 0 ? VbdInitialGuess::Adaptive
                                                                         : VbdInitialGuess::Inertial;
    return vbd;
}

// "solver": {"rigid": {...}}: the rigid bodies' settings (docs/physics.md §11).
RigidSettings readRigidSettings(const Field& field, RigidSettings rigid) {
    const ObjectFields fields(field,
                              {"path", "integrator", "gyroscopic", "iterations", "linearDamping", "angularDamping",
                               "restingSpeed", "penetrationSlop", "contact", "penaltyStiffness", "barrierStrength",
                               "penaltyZone"});
    if (auto f = fields.optional("path"))
        rigid.path = static_cast<RigidPath>(readChoice(*f, {"auto", "oneWorkgroup", "perSubstep"}));
    if (auto f = fields.optional("integrator"))
        rigid.integrator = static_cast<RigidIntegrator>(readChoice(*f, {"symplecticEuler", "midpoint"}));
    if (auto f = fields.optional("gyroscopic")) rigid.gyroscopic = readBool(*f);
    if (auto f = fields.optional("contact"))
        rigid.contact = static_cast<RigidContact>(readChoice(*f, {"impulse", "quadraticPenalty", "logBarrier"}));
    if (auto f = fields.optional("penaltyStiffness")) rigid.penaltyStiffness = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("barrierStrength")) rigid.barrierStrength = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("penaltyZone")) rigid.penaltyZone = readFloat(*f, kLengthRange);
    if (auto f = fields.optional("iterations"))
        rigid.iterations = static_cast<uint32_t>(readInteger(*f, 1, 100));
    if (auto f = fields.optional("linearDamping")) rigid.linearDamping = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("angularDamping")) rigid.angularDamping = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("restingSpeed")) rigid.restingSpeed = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("penetrationSlop")) rigid.penetrationSlop = readFloat(*f, atLeast(0.0));
    return rigid;
}

// docs/scene-format.md, "solver.air": the air the cloths with "aero" move in.
constexpr double kMaxAirDensity = 1e4;  // [kg/m^3]: water is 1e3; past this the wind is a typo
constexpr double kMaxGustStrength = 1e3;  // [m/s]

GustSettings readGusts(const Field& field, GustSettings gusts) {
    const ObjectFields fields(field, {"strength", "scale", "period", "seed"}, "for gusts");
    if (auto f = fields.optional("strength")) gusts.strength = readFloat(*f, closedInterval(0.0, kMaxGustStrength));
    if (auto f = fields.optional("scale")) gusts.scale = readFloat(*f, kLengthRange);
    if (auto f = fields.optional("period")) gusts.period = readFloat(*f, kLengthRange);
    if (auto f = fields.optional("seed")) gusts.seed = static_cast<uint32_t>(readInteger(*f, 0, 0xFFFFFFFFll));
    return gusts;
}

AirSettings readAir(const Field& field, AirSettings air) {
    const ObjectFields fields(field, {"density", "wind", "gusts"}, "for air");
    if (auto f = fields.optional("density")) air.density = readFloat(*f, closedInterval(0.0, kMaxAirDensity));
    if (auto f = fields.optional("wind")) air.wind = readVec3(*f);
    if (auto f = fields.optional("gusts")) air.gusts = readGusts(*f, air.gusts);
    return air;
}

// Each sweep of the contacts after the solves is up to 19 dispatches a substep.
constexpr int64_t kMaxContactIterations = 64;

// The keys given replace theirs in `solver`, the defaults in a scene (and
// the running settings in a live edit, parseSolverSettings).
SolverSettings readSolver(const Field& field, SolverSettings solver) {
    const ObjectFields fields(
        field, {"timeStep", "substeps", "iterations", "gravity", "damping", "collisionMargin", "stencilStep", "pbdPath",
                "pbdColouring", "contactSolve", "contactIterations", "air", "pd", "springs", "vbd", "rigid"});
    if (auto f = fields.optional("timeStep")) solver.timeStep = readFloat(*f, kTimeStepRange);
    if (auto f = fields.optional("substeps")) solver.substeps = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("iterations"))
        solver.pbd.iterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("gravity")) solver.gravity = readVec3(*f);
    if (auto f = fields.optional("damping")) solver.damping = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("collisionMargin")) solver.collisionMargin = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("stencilStep")) solver.stencilStep = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("pbdPath"))
        solver.pbd.path = static_cast<PbdPath>(readChoice(*f, {std::begin(kPbdPathNames), std::end(kPbdPathNames)}));
    if (auto f = fields.optional("pbdColouring"))
        solver.pbd.colouring = static_cast<PbdColouring>(
            readChoice(*f, {std::begin(kPbdColouringNames), std::end(kPbdColouringNames)}));
    if (auto f = fields.optional("contactSolve"))
        solver.contactSolve =
            static_cast<ContactSolve>(readChoice(*f, {std::begin(kContactSolveNames), std::end(kContactSolveNames)}));
    if (auto f = fields.optional("contactIterations"))
        solver.contactIterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxContactIterations));
    if (auto f = fields.optional("air")) solver.air = readAir(*f, solver.air);
    if (auto f = fields.optional("pd")) solver.pd = readPdSettings(*f, solver.pd);
    if (auto f = fields.optional("springs")) solver.springs = readSpringSettings(*f, solver.springs);
    if (auto f = fields.optional("vbd")) solver.vbd = readVbdSettings(*f, solver.vbd);
    if (auto f = fields.optional("rigid")) solver.rigid = readRigidSettings(*f, solver.rigid);
    return solver;
}

CameraDesc readCamera(const Field& field) {
    const ObjectFields fields(field, {"target", "distance", "yaw", "pitch", "fov"});
    CameraDesc camera;
    if (auto f = fields.optional("target")) camera.target = readVec3(*f);
    if (auto f = fields.optional("distance")) camera.distance = readFloat(*f, kLengthRange);
    if (auto f = fields.optional("yaw")) camera.yawDegrees = readFloat(*f);
    // At +-90 degrees the view direction is parallel to the up vector.
    if (auto f = fields.optional("pitch")) camera.pitchDegrees = readFloat(*f, kPitchRange);
    if (auto f = fields.optional("fov")) camera.fovDegrees = readFloat(*f, kFieldOfViewRange);
    return camera;
}

// ---------------------------------------------------------------------------
// Cloth objects

glm::uvec2 readGridResolution(const Field& field) {
    if (!field.json().is_array() || field.json().size() != 2)
        field.failExpected("an array of 2 integers [columns, rows]");
    return {static_cast<uint32_t>(readInteger(field.element(0), kMinGridResolution, kMaxGridResolution)),
            static_cast<uint32_t>(readInteger(field.element(1), kMinGridResolution, kMaxGridResolution))};
}

// One coordinate of a pinned vertex. Negative values count back from the
// last column/row (-1 is the last), so pins stay on the corners when the
// resolution changes.
uint32_t readGridIndex(const Field& field, uint32_t count, std::string_view axis) {
    const auto n = static_cast<int64_t>(count);
    const std::string expectation =
        fmt::format("a {0} index in [{1}, {2}] (the grid has {3} {0}s; negative indices count back from the last)",
                    axis, -n, n - 1, n);
    const int64_t index = readInteger(field, -n, n - 1, expectation);
    return static_cast<uint32_t>(index < 0 ? index + n : index);
}

std::vector<glm::uvec2> readPinned(const Field& field, glm::uvec2 resolution) {
    const std::vector<Field> entries = readArray(field);
    std::vector<glm::uvec2> pinned;
    pinned.reserve(entries.size());
    // The entry that pinned each vertex, for the message about a repeat: a
    // map rather than a scan of the list, so that a million pins load in
    // linear time.
    std::unordered_map<uint64_t, std::size_t> entryOfVertex;
    entryOfVertex.reserve(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const Field& entry = entries[i];
        if (!entry.json().is_array() || entry.json().size() != 2)
            entry.failExpected("a vertex [column, row]");
        const glm::uvec2 vertex{readGridIndex(entry.element(0), resolution.x, "column"),
                                readGridIndex(entry.element(1), resolution.y, "row")};
        // Harmless for fixed pins, but with pinsAsAttachments a repeated pin
        // would add a second attachment and silently double its stiffness.
        const auto [first, added] = entryOfVertex.try_emplace(uint64_t{vertex.y} * resolution.x + vertex.x, i);
        if (!added)
            entry.fail(fmt::format("vertex [{}, {}] is already pinned by {}", vertex.x, vertex.y,
                                   entries[first->second].location()));
        pinned.push_back(vertex);
    }
    return pinned;
}

// ---------------------------------------------------------------------------
// Mesh files ("type": "mesh" objects and colliders), relative to the scene's
// folder and loaded by SceneAssets

// Runs `load`, reporting a bad mesh file at `where` (the "file" key).
template <typename Load>
auto loadAsset(const Field& where, Load&& load) -> decltype(load()) {
    try {
        return load();
    } catch (const AssetError& error) {
        where.fail(error.what());
    }
}

std::optional<double> readWeldTolerance(const ObjectFields& fields) {
    if (auto f = fields.optional("weldTolerance")) return readFloat(*f, atLeast(0.0));
    return std::nullopt;
}

// A vertex numbered as in the OBJ file, 1 for the first `v` line and, like
// OBJ's relative indices, -1 for the last: the surface's vertex (welding
// may have merged several file vertices into it) and its file number.
struct MeshVertexNumber {
    uint32_t vertex;
    std::size_t fileNumber;  // from 1
};

MeshVertexNumber readMeshVertexNumber(const Field& entry, const TriangleSurface& surface) {
    const auto n = static_cast<int64_t>(surface.fileVertexToVertex.size());
    const int64_t number = readInteger(
        entry, -n, n,
        fmt::format("a vertex number in [1, {0}] or [-{0}, -1] (as in the OBJ file: 1 is the first `v` line, "
                    "-1 the last)",
                    n));
    if (number == 0)
        entry.failExpected(fmt::format("a vertex number in [1, {0}] or [-{0}, -1] (OBJ counts from 1)", n));
    const auto fileVertex = static_cast<std::size_t>(number > 0 ? number - 1 : n + number);
    const uint32_t vertex = surface.fileVertexToVertex[fileVertex];
    if (vertex == kDroppedVertex) entry.fail(fmt::format("vertex {} is not used by any face", fileVertex + 1));
    return {vertex, fileVertex + 1};
}

// "pinned": vertices numbered as in the OBJ file (readMeshVertexNumber).
// Vertices that welding merged are one vertex; naming one twice is an error.
void readMeshPins(const Field& field, const TriangleSurface& surface, std::set<uint32_t>& pins) {
    std::map<uint32_t, std::string> pinnedBy;
    for (const Field& entry : readArray(field)) {
        const auto [vertex, fileNumber] = readMeshVertexNumber(entry, surface);
        if (auto it = pinnedBy.find(vertex); it != pinnedBy.end())
            entry.fail(fmt::format("vertex {} is already pinned by {}", fileNumber, it->second));
        pinnedBy[vertex] = entry.location();
        pins.insert(vertex);
    }
}

// "pinnedRegions": boxes {"min": [x, y, z], "max": [x, y, z]} in the file's
// coordinates; every vertex inside one (bounds included) is pinned. A box
// that holds no vertex is an error: it is surely misplaced.
// The same for any vertices: `positions` in file coordinates, `file` for the message.
void readPinRegions(const Field& field, const std::vector<glm::dvec3>& positions, const std::string& file,
                    std::set<uint32_t>& pins) {
    glm::dvec3 boundsMin(0.0), boundsMax(0.0);
    if (!positions.empty()) boundsMin = boundsMax = positions.front();
    for (const glm::dvec3& p : positions) {
        boundsMin = glm::min(boundsMin, p);
        boundsMax = glm::max(boundsMax, p);
    }
    for (const Field& entry : readArray(field)) {
        if (!entry.json().is_object()) entry.failExpected(R"(a box {"min": [x, y, z], "max": [x, y, z]})");
        const ObjectFields box(entry, {"min", "max"}, "for a pinned region");
        const glm::dvec3 lo(readVec3(box.required("min"))), hi(readVec3(box.required("max")));
        if (!(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z))
            box.required("max").failExpected("a corner >= min in every coordinate");
        std::size_t found = 0;
        for (uint32_t v = 0; v < positions.size(); ++v) {
            const glm::dvec3& p = positions[v];
            if (glm::all(glm::greaterThanEqual(p, lo)) && glm::all(glm::lessThanEqual(p, hi))) {
                pins.insert(v);
                ++found;
            }
        }
        if (found == 0)
            entry.fail(fmt::format(
                "no vertex of {} lies in this box (the mesh spans [{:g}, {:g}, {:g}] .. [{:g}, {:g}, "
                "{:g}] in file coordinates)",
                file, boundsMin.x, boundsMin.y, boundsMin.z, boundsMax.x, boundsMax.y, boundsMax.z));
    }
}

void readMeshPinRegions(const Field& field, const TriangleSurface& surface, std::set<uint32_t>& pins) {
    readPinRegions(field, surface.positions, surface.file, pins);
}

void readClothMesh(const ObjectFields& fields, ClothObject& cloth, SceneAssets& assets) {
    ClothMeshSource mesh;
    const Field file = fields.required("file");
    const std::string path = readNonEmptyString(file);
    const std::optional<double> weldTolerance = readWeldTolerance(fields);
    mesh.surface = loadAsset(file, [&] { return assets.surface(path, weldTolerance); });
    mesh.file = assets.resolve(path).string();
    if (auto f = fields.optional("scale")) mesh.scale = readFloat(*f, greaterThan(0.0));
    std::set<uint32_t> pins;
    if (auto f = fields.optional("pinned")) readMeshPins(*f, *mesh.surface, pins);
    if (auto f = fields.optional("pinnedRegions")) readMeshPinRegions(*f, *mesh.surface, pins);
    mesh.pinnedVertices.assign(pins.begin(), pins.end());
    cloth.mesh = std::move(mesh);
}

// A mesh collider's distance grid, baked once every collider has been read
// and all the grids are known to fit the buffer.
struct PendingSdfGrid {
    std::size_t owner;  // the index of the collider or body whose grid it is
    Field file;
    std::string path;
    std::optional<double> weldTolerance;
};

// The "resolution" of a mesh collider's or mesh body's distance grid
// (returned; `resolution` when the key is absent), the grid counted and
// queued for baking. Counted from its
// layout before any is baked: baking 32 grids at resolution 256 takes many
// minutes, only to find they cannot fit.
uint32_t readPendingSdfGrid(const ObjectFields& fields, const Field& file, const std::string& path,
                            std::optional<double> weldTolerance, uint32_t resolution, std::size_t owner,
                            SceneAssets& assets, std::vector<PendingSdfGrid>& grids) {
    const std::optional<Field> resolutionField = fields.optional("resolution");
    if (resolutionField)
        resolution = static_cast<uint32_t>(readInteger(*resolutionField, kMinSdfResolution, kMaxSdfResolution));
    const std::size_t floats = loadAsset(file, [&] { return assets.countSdfGrid(path, weldTolerance, resolution); });
    if (floats > kMaxMeshSdfFloats)
        resolutionField.value_or(fields.self())
            .fail(fmt::format("the mesh distance grids need {} floats in all with this one; at most {} (2^24) fit "
                              "(lower a resolution)",
                              floats, kMaxMeshSdfFloats));
    grids.push_back({owner, file, path, weldTolerance});
    return resolution;
}

void readColliderMesh(const ObjectFields& fields, ColliderDesc& collider, SceneAssets& assets,
                      std::size_t index, std::vector<PendingSdfGrid>& grids) {
    const Field file = fields.required("file");
    const std::string path = readNonEmptyString(file);
    const std::optional<double> weldTolerance = readWeldTolerance(fields);
    if (auto f = fields.optional("scale")) collider.meshScale = readFloat(*f, greaterThan(0.0));
    collider.meshSurface = loadAsset(file, [&] { return assets.surface(path, weldTolerance, "a mesh collider"); });
    collider.meshFile = assets.resolve(path).string();
    collider.sdfResolution =
        readPendingSdfGrid(fields, file, path, weldTolerance, collider.sdfResolution, index, assets, grids);
}

// "springs": {...} of a "method": "springs" cloth (docs/physics.md §9). A
// "mesh" object's springs are its edges: it has no grid topology.
SpringClothParams readSpringClothParams(const Field& field, bool grid, const SpringSettings& solver) {
    const ObjectFields fields(field,
                              {"integrator", "topology", "shearDiagonals", "stretch", "shear", "bending", "drag",
                               "compressionScale", "slack"},
                              R"(for the springs of a "method": "springs" object)");
    SpringClothParams params;
    params.topology = grid ? SpringTopology::Grid : SpringTopology::Mesh;
    if (auto f = fields.optional("integrator")) {
        // The five explicit integrators, in SpringIntegrator's order; the
        // implicit ones solve every object together (solver.springs only).
        params.integrator = static_cast<SpringIntegrator>(
            readChoice(*f, {"explicitEuler", "symplecticEuler", "positionVerlet", "velocityVerlet", "midpoint"}));
        if (minimisesEnergy(solver.integrator))
            f->fail(fmt::format(
                R"(an object's own integrator needs an explicit "/solver/springs/integrator", not "{}" (implicit Euler and vbd solve every "method": "springs" object together): remove this key or make the solver's explicit)",
                solver.integrator == SpringIntegrator::Vbd ? "vbd" : "implicitEuler"));
    }
    if (auto f = fields.optional("topology")) {
        params.topology = readChoice(*f, {"grid", "mesh"}) == 0 ? SpringTopology::Grid : SpringTopology::Mesh;
        if (!grid && params.topology == SpringTopology::Grid)
            f->failExpected(R"("mesh" (a "mesh" object has no grid; its springs are its edges))");
    }
    if (auto f = fields.optional("shearDiagonals")) {
        if (params.topology != SpringTopology::Grid)
            f->fail(R"("shearDiagonals" applies to "topology": "grid" (a mesh topology has no shear springs))");
        params.shearDiagonals = static_cast<uint32_t>(readInteger(*f, 0, 2, "0, 1 or 2 (diagonals per grid cell)"));
    }
    if (auto f = fields.optional("stretch")) params.stretch = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("shear")) params.shear = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("bending")) {
        if (!f->json().is_object()) f->failExpected(R"(an object such as {"model": "springs", "stiffness": 50})");
        const ObjectFields bending(*f, {"model", "stiffness"}, "for mass-spring bending");
        if (auto m = bending.optional("model")) {
            params.bending =
                static_cast<SpringBending>(readChoice(*m, {"none", "springs", "dihedral", "quadratic"}));
            if (params.bending == SpringBending::Dihedral && minimisesEnergy(solver.integrator))
                m->fail(fmt::format(
                    R"(dihedral bending has no energy; the "{}" integrator minimises one (use "springs" or "quadratic" bending, or an explicit integrator))",
                    solver.integrator == SpringIntegrator::Vbd ? "vbd" : "implicitEuler"));
        }
        if (auto k = bending.optional("stiffness")) params.bendingStiffness = readFloat(*k, atLeast(0.0));
    }
    // The drag is every cloth's, whatever its solver: one key on the object.
    if (auto f = fields.optional("drag"))
        f->fail(R"("drag" is a key of the object now, for every method: move it out of "springs")");
    if (auto f = fields.optional("compressionScale")) params.compressionScale = readFloat(*f, closedInterval(0.0, 1.0));
    if (auto f = fields.optional("slack"))
        params.slack = readFloat(*f, {.min = 0.0, .max = 1.0, .maxExclusive = true});
    return params;
}

// A "cloth" object is a grid; a "mesh" object (meshAssets set) is read from
// an OBJ file. Everything else about them is the same. A "method": "springs"
// object takes its families from "springs" instead of "stretch", "bending"
// and "attachment".
// An object's "contacts" block (scene/contact_params.h), on an object of
// any solver.
constexpr double kMaxContactThickness = 1.0;  // [m]; the grid's cells are sized from the largest
constexpr double kMaxContactFriction = 10.0;
// Colliders' and bodies' coefficients have no upper bound.
constexpr double kNoMaxFriction = std::numeric_limits<double>::infinity();

// "staticFriction", mu_s, beside a block's kinetic "friction" mu_k (read
// first): in [0, max], and at least mu_k, since a contact that sticks holds
// at least the force that slides it (docs/physics.md §3). Absent: none,
// mu_s = mu_k.
std::optional<float> readStaticFriction(const ObjectFields& fields, float friction, double max) {
    const std::optional<Field> f = fields.optional("staticFriction");
    if (!f) return std::nullopt;
    const float value = readFloat(*f, {.min = 0.0, .max = max});
    if (value < friction)
        f->fail(fmt::format("expected a number >= the kinetic \"friction\" {} (static friction is at least the "
                            "kinetic), got {}",
                            friction, describeValue(f->json())));
    return value;
}

ContactParams readContacts(const Field& field) {
    const ObjectFields fields(field, {"thickness", "self", "friction", "staticFriction", "triangles"}, "for contacts");
    ContactParams contacts;
    contacts.enabled = true;
    if (auto f = fields.optional("thickness"))
        contacts.thickness = readFloat(*f, {.min = 0.0, .max = kMaxContactThickness, .minExclusive = true});
    if (auto f = fields.optional("self")) contacts.self = readBool(*f);
    if (auto f = fields.optional("triangles")) contacts.triangles = readBool(*f);
    if (auto f = fields.optional("friction"))
        contacts.friction = readFloat(*f, closedInterval(0.0, kMaxContactFriction));
    contacts.staticFriction = readStaticFriction(fields, contacts.friction, kMaxContactFriction);
    return contacts;
}

// docs/scene-format.md, "aero": a cloth's coefficients in the wind of
// "solver.air" (docs/physics.md §15). A flat plate square to the flow has
// C_d of about 1.2; past 10 a coefficient is a typo.
constexpr double kMaxAeroCoefficient = 10.0;

AeroParams readAero(const Field& field) {
    const ObjectFields fields(field, {"drag", "lift"}, "for aero");
    AeroParams aero{.drag = 1.0f, .lift = 0.0f};
    if (auto f = fields.optional("drag")) aero.drag = readFloat(*f, closedInterval(0.0, kMaxAeroCoefficient));
    if (auto f = fields.optional("lift")) aero.lift = readFloat(*f, closedInterval(0.0, kMaxAeroCoefficient));
    return aero;
}

// docs/scene-format.md, "tethers" (docs/physics.md §1, "Tethers").
TetherParams readTetherParams(const Field& field) {
    const ObjectFields fields(field, {"mode", "slack"}, "for tethers");
    TetherParams tethers;
    tethers.mode = readChoice(fields.required("mode"), {"euclidean", "geodesic"}) == 0 ? TetherMode::Euclidean
                                                                                      : TetherMode::Geodesic;
    if (auto f = fields.optional("slack")) tethers.slack = readFloat(*f, closedInterval(0.0, 1.0));
    return tethers;
}

// docs/scene-format.md, "tearing" (docs/physics.md §1, "Tearing"). Past a
// strain of 10 a cloth is a string of beads: a typo.
constexpr double kMaxTearStrain = 10.0;

// The spare particles for split vertices: a fraction of the cloth's
// vertices below 1, a whole number of particles from 1 on.
constexpr double kMaxSpareParticles = 1'000'000.0;

TearingParams readTearing(const Field& field) {
    const ObjectFields fields(field, {"strain", "capacity"}, "for tearing");
    TearingParams tearing{.enabled = true};
    constexpr NumberRange kStrainRange{.min = 0.0, .max = kMaxTearStrain, .minExclusive = true};
    tearing.strain = readFloat(fields.required("strain"), kStrainRange);
    if (auto f = fields.optional("capacity")) {
        const double c = f->json().is_number() ? f->json().get<double>() : -1.0;
        if (!(c >= 0.0 && c <= kMaxSpareParticles) || (c >= 1.0 && c != std::floor(c)))
            f->failExpected("a fraction of the cloth's vertices in [0, 1) or a whole number of spare particles "
                            "from 1 to 1000000");
        tearing.capacity = static_cast<float>(c);
    }
    return tearing;
}

// Splitting vertices (a tearing "capacity") puts a particle beside its twin
// and moves triangles between particles. The normals, the wind and the
// particle contacts follow (a split particle takes its vertex's rest
// position, contacts/contact_model.h followSplits); what holds particles
// in lists fixed at load is refused with it: the contact triangles and
// edges of "triangles", and shape matching's group (its rest offsets and
// masses per vertex).
void checkSplitting(const ObjectFields& fields, const ClothObject& cloth) {
    if (!(cloth.tearing.capacity > 0.0f)) return;
    const char* other =
        cloth.contacts.enabled && cloth.contacts.triangles
            ? "\"contacts\" with \"triangles\" (its contact triangles and edges are listed at load)"
        : cloth.shapeMatching.enabled ? "\"shapeMatching\" (its rest offsets and masses are per vertex)"
                                      : nullptr;
    if (other)
        fields.required("tearing").member("capacity").fail(
            fmt::format(R"(object "{}" splits vertices as it tears, which cannot be combined with {}; set )"
                        R"("capacity": 0 to drop torn triangles instead)",
                        cloth.name, other));
}

// "attachments": vertices of the cloth attached to a point of a body or a
// collider, or kept within "maxDistance" of it (docs/scene-format.md). The
// target's name is checked once every body and collider is read
// (resolveAttachmentTargets). A vertex is attached once, and never pinned.
std::vector<ClothAttachment> readAttachments(const Field& field, const ClothObject& cloth) {
    const bool mesh = cloth.mesh.has_value();
    std::set<uint32_t> pinned;
    if (mesh) pinned.insert(cloth.mesh->pinnedVertices.begin(), cloth.mesh->pinnedVertices.end());
    else
        for (const glm::uvec2& pin : cloth.pinned) pinned.insert(pin.y * cloth.grid.resolution.x + pin.x);
    std::map<uint32_t, std::string> attachedBy;
    std::vector<ClothAttachment> attachments;
    for (const Field& entry : readArray(field)) {
        const ObjectFields fields(entry, {"body", "collider", mesh ? "vertices" : "grid", "maxDistance", "stiffness"},
                                  "for an attachment");
        ClothAttachment attachment;
        attachment.source = entry.pointer();
        const std::optional<Field> body = fields.optional("body"), collider = fields.optional("collider");
        if (body && collider)
            collider->fail(R"(an attachment is to one body or one collider: give "body" or "collider", not both)");
        if (!body && !collider)
            entry.failExpected(R"(an attachment naming what it attaches to, "body": "name" or "collider": "name")");
        attachment.target = body ? AttachmentTarget::Body : AttachmentTarget::Collider;
        attachment.name = readNonEmptyString(body ? *body : *collider);
        const Field list = fields.required(mesh ? "vertices" : "grid");
        const std::vector<Field> entries = readArray(list);
        if (entries.empty())
            list.failExpected(mesh ? "at least one vertex number" : "at least one vertex [column, row]");
        for (const Field& item : entries) {
            uint32_t vertex = 0;
            std::string named;
            if (mesh) {
                const MeshVertexNumber number = readMeshVertexNumber(item, *cloth.mesh->surface);
                vertex = number.vertex;
                named = fmt::format("vertex {}", number.fileNumber);
            } else {
                if (!item.json().is_array() || item.json().size() != 2) item.failExpected("a vertex [column, row]");
                const glm::uvec2 at{readGridIndex(item.element(0), cloth.grid.resolution.x, "column"),
                                    readGridIndex(item.element(1), cloth.grid.resolution.y, "row")};
                vertex = at.y * cloth.grid.resolution.x + at.x;
                named = fmt::format("vertex [{}, {}]", at.x, at.y);
            }
            if (pinned.count(vertex))
                item.fail(fmt::format("{} is pinned; an attached vertex must be free (a pin holds it in place already)",
                                      named));
            if (auto it = attachedBy.find(vertex); it != attachedBy.end())
                item.fail(fmt::format("{} is already attached by {}", named, it->second));
            attachedBy[vertex] = item.location();
            attachment.vertices.push_back(vertex);
        }
        if (auto f = fields.optional("maxDistance")) attachment.maxDistance = readFloat(*f, atLeast(0.0));
        if (auto f = fields.optional("stiffness"))
            attachment.stiffness = readFloat(*f, NumberRange{.min = 0.0, .max = 1.0, .minExclusive = true});
        attachments.push_back(std::move(attachment));
    }
    return attachments;
}

ClothObject readCloth(const Field& field, std::size_t index, const SolverSettings& solver,
                      SceneAssets* meshAssets = nullptr) {
    ClothObject cloth;
    cloth.source = field.pointer();
    if (field.json().contains("method")) cloth.method = readMethod(field.member("method"));
    const bool pd = cloth.method == SolverMethod::Pd;
    const bool springs = cloth.method == SolverMethod::Springs;
    const std::string_view type = meshAssets ? "mesh" : "cloth";
    std::vector<std::string_view> keys = {"type",     "name",  "position", "rotation",          "mass", "pinned",
                                          "velocity", "color", "method",   "pinsAsAttachments", "drag", "contacts",
                                          "aero"};
    if (springs) keys.push_back("springs");
    else keys.insert(keys.end(), {"stretch", "bending", "attachment"});
    if (pd) keys.push_back("strain");
    keys.insert(keys.end(), {"tethers", "tearing", "attachments"});
    if (!pd && !springs) keys.push_back("shapeMatching");
    if (meshAssets) keys.insert(keys.end(), {"file", "scale", "weldTolerance", "pinnedRegions"});
    else keys.insert(keys.end(), {"size", "resolution"});
    if (field.json().is_object() && field.json().contains("material"))
        field.member("material").fail(
            R"("material" is for tetrahedral solids ("tetBox", "tetBall", "tetMesh"): a cloth's stiffness is set )"
            R"(per constraint family ("stretch", "bending") or in "springs")");
    const std::string_view method = pd ? R"("method": "pd" )" : springs ? R"("method": "springs" )" : "";
    const ObjectFields fields(field, std::move(keys), fmt::format("for a {}{} object", method, type));
    cloth.name = readNameOrDefault(fields, type, index);
    if (meshAssets) {
        readClothMesh(fields, cloth, *meshAssets);
    } else {
        if (auto f = fields.optional("size")) cloth.grid.size = readVec2(*f, kLengthRange);
        if (auto f = fields.optional("resolution")) cloth.grid.resolution = readGridResolution(*f);
        if (auto f = fields.optional("pinned")) cloth.pinned = readPinned(*f, cloth.grid.resolution);
    }
    if (auto f = fields.optional("position")) cloth.position = readVec3(*f);
    if (auto f = fields.optional("rotation")) cloth.rotation = readRotation(*f);
    if (auto f = fields.optional("mass")) cloth.mass = readFloat(*f, greaterThan(0.0));
    if (pd) {
        if (auto f = fields.optional("stretch")) cloth.pd.stretch = readPdParams(*f, cloth.pd.stretch);
        if (auto f = fields.optional("strain")) cloth.pd.strain = readPdParams(*f, cloth.pd.strain, "singular value");
        if (auto f = fields.optional("bending")) cloth.pd.bending = readPdParams(*f, cloth.pd.bending);
        if (auto f = fields.optional("attachment")) cloth.pd.attachment = readPdParams(*f, cloth.pd.attachment);
    } else if (springs) {
        cloth.springs.topology = meshAssets ? SpringTopology::Mesh : SpringTopology::Grid;
        if (auto f = fields.optional("springs"))
            cloth.springs = readSpringClothParams(*f, meshAssets == nullptr, solver.springs);
    } else {
        if (auto f = fields.optional("stretch")) cloth.stretch = readConstraintParams(*f);
        if (auto f = fields.optional("bending")) cloth.bending = readConstraintParams(*f);
        if (auto f = fields.optional("attachment")) cloth.attachment = readConstraintParams(*f);
        if (auto f = fields.optional("shapeMatching")) {
            cloth.shapeMatching = readShapeMatchParams(*f);
            // A grid is flat: its points fix a rotation but no linear map (a
            // mesh's flatness is checked when the model is built).
            if (!meshAssets && cloth.shapeMatching.mode == ShapeMatchMode::Linear)
                f->member("mode").fail(R"("linear" needs an object that spans a volume, and a "cloth" grid is flat; use "rigid")");
        }
    }
    // PBD projects them in its iterations; projective dynamics and
    // mass-spring cloths after their solve (docs/physics.md §1, "Tethers").
    if (auto f = fields.optional("tethers")) {
        cloth.tethers = readTetherParams(*f);
        if (meshAssets ? cloth.mesh->pinnedVertices.empty() : cloth.pinned.empty())
            f->fail(fmt::format(R"(object "{}" has no pinned vertices for its tethers to anchor to)", cloth.name));
    }
    if (auto f = fields.optional("tearing")) {
        if (pd || springs)
            f->fail(fmt::format(R"(tearing is for PBD cloths (breaking their stretch constraints); object "{}" has )"
                                R"("method": "{}")",
                                cloth.name, pd ? "pd" : "springs"));
        cloth.tearing = readTearing(*f);
        if (!cloth.stretch.enabled)
            f->fail(fmt::format(R"(object "{}" has no stretch constraints to tear ("stretch": {{"enabled": false}}))",
                                cloth.name));
    }
    if (auto f = fields.optional("attachments")) cloth.attachments = readAttachments(*f, cloth);
    if (auto f = fields.optional("pinsAsAttachments")) {
        cloth.pinsAsAttachments = readBool(*f);
        if (springs && cloth.pinsAsAttachments)
            f->fail(R"("method": "springs" has no attachments: its pinned vertices are fixed (leave pinsAsAttachments false))");
    }
    if (auto f = fields.optional("velocity")) cloth.initialVelocity = readVec3(*f);
    if (auto f = fields.optional("drag")) (springs ? cloth.springs.drag : cloth.drag) = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("color")) cloth.color = readColor(*f);
    if (auto f = fields.optional("contacts"))
        cloth.contacts = readContacts(*f);
    if (auto f = fields.optional("aero")) cloth.aero = readAero(*f);
    checkSplitting(fields, cloth);
    return cloth;
}

// ---------------------------------------------------------------------------
// Tetrahedral solids

constexpr int64_t kMaxSolidCells = 256;  // per axis: 256^3 cells is 100 M tetrahedra, far past interactive

std::vector<BoxFace> readPinnedFaces(const Field& field) {
    std::vector<BoxFace> faces;
    for (const Field& entry : readArray(field)) {
        const auto face = static_cast<BoxFace>(readChoice(entry, {"-x", "+x", "-y", "+y", "-z", "+z"}));
        if (std::find(faces.begin(), faces.end(), face) != faces.end()) entry.fail("face listed twice");
        faces.push_back(face);
    }
    return faces;
}

// A "tetMesh" object's tetrahedra: "file", a closed OBJ surface filled by
// the tetgen program (with "tetgen" quality options), or "node" and "ele",
// TetGen files made elsewhere.
void readTetMeshSource(const ObjectFields& fields, SolidObject& solid, SceneAssets& assets) {
    if (auto f = fields.optional("scale")) solid.meshScale = readFloat(*f, greaterThan(0.0));
    const bool fromFiles = fields.has("node") || fields.has("ele");
    if (fromFiles) {
        for (const char* key : {"file", "tetgen", "weldTolerance"})
            if (auto f = fields.optional(key))
                f->fail(fmt::format(R"("{}" applies to "file" (an OBJ surface for tetgen), not to "node" and "ele")",
                                    key));
        const Field node = fields.required("node"), ele = fields.required("ele");
        const std::string nodeFile = readNonEmptyString(node), eleFile = readNonEmptyString(ele);
        solid.tetMesh = loadAsset(ele, [&] { return assets.tetGenFiles(nodeFile, eleFile); });
        solid.meshFile = assets.resolve(nodeFile).string();
        return;
    }
    if (!fields.has("file")) fields.self().fail(R"(missing required key "file" (or "node" and "ele"))");
    const Field file = fields.required("file");
    const std::string path = readNonEmptyString(file);
    const std::optional<double> weldTolerance = readWeldTolerance(fields);
    TetGenOptions options;
    if (auto f = fields.optional("tetgen")) {
        const ObjectFields tetgen(*f, {"quality", "minDihedral", "maxVolume"}, "for the tetgen options");
        if (auto q = tetgen.optional("quality"))
            options.radiusEdgeRatio = readFloat(*q, {.min = 1.0, .minExclusive = true});
        if (auto a = tetgen.optional("minDihedral")) {
            if (!options.radiusEdgeRatio) a->fail(R"("minDihedral" needs "quality")");
            options.minDihedralDegrees = readFloat(*a, {.min = 0.0, .max = 30.0, .minExclusive = true,
                                                        .maxExclusive = true});
        }
        if (auto v = tetgen.optional("maxVolume")) options.maxVolume = readFloat(*v, greaterThan(0.0));
    }
    solid.tetMesh = loadAsset(file, [&] { return assets.tetrahedralize(path, weldTolerance, options); });
    solid.meshFile = assets.resolve(path).string();
}

// docs/scene-format.md, "material" (docs/physics.md §16). Each value is
// checked on the float the GPU sees: a Poisson's ratio that rounds to 0.5
// is refused as 0.5 is.
ElasticMaterial readElasticMaterial(const Field& field) {
    const ObjectFields fields(field, {"model", "youngsModulus", "poissonRatio", "density"}, "for a material");
    ElasticMaterial material;
    if (auto f = fields.optional("model"))
        material.model = static_cast<ElasticModel>(readChoice(*f, {"neoHookean", "corotated"}));
    material.youngsModulus = readFloat(fields.required("youngsModulus"), greaterThan(0.0));
    if (auto f = fields.optional("poissonRatio")) {
        if (f->json().is_number() && f->json().get<double>() >= 0.5)
            f->failExpected("a Poisson's ratio in [0, 0.5): 0.5 is incompressible, which no finite Lame "
                            "parameter gives (use 0.45 to 0.49 for nearly incompressible solids)");
        material.poissonRatio = readFloat(*f, {.min = 0.0, .max = 0.5, .maxExclusive = true});
    }
    if (auto f = fields.optional("density")) material.density = readFloat(*f, greaterThan(0.0));
    return material;
}

SolidMethod readSolidMethod(const Field& field) {
    return static_cast<SolidMethod>(readChoice(field, {"pd", "xpbd", "vbd"}));
}

SolidObject readSolid(const Field& field, std::size_t index, SolidShape shape, SceneAssets& assets) {
    const bool box = shape == SolidShape::Box;
    const std::string_view type = box ? "tetBox" : shape == SolidShape::Ball ? "tetBall" : "tetMesh";
    std::vector<std::string_view> keys = {"type",   "name",     "position", "rotation", "mass",     "strain",
                                          "volume", "velocity", "color",    "method",   "contacts", "material",
                                          "volumeConstraint"};
    if (box) keys.insert(keys.end(), {"cells", "size", "pinnedFaces", "pinsAsAttachments", "attachment"});
    else if (shape == SolidShape::Ball) keys.insert(keys.end(), {"cells", "radius"});
    else
        keys.insert(keys.end(), {"file", "tetgen", "node", "ele", "scale", "weldTolerance", "pinnedRegions",
                                 "pinsAsAttachments", "attachment"});
    const ObjectFields fields(field, std::move(keys), fmt::format("for a {} object", type));
    SolidObject solid;
    solid.source = field.pointer();
    solid.shape = shape;
    solid.name = readNameOrDefault(fields, type, index);
    if (auto f = fields.optional("method")) solid.method = readSolidMethod(*f);
    if (auto f = fields.optional("material")) solid.material = readElasticMaterial(*f);
    if (!solid.material && solid.method != SolidMethod::Pd)
        fields.self().fail(fmt::format(R"("method": "{}" needs a "material" (such as {{"model": "neoHookean", )"
                                       R"("youngsModulus": 1e5, "poissonRatio": 0.3}}))",
                                       solid.method == SolidMethod::Xpbd ? "xpbd" : "vbd"));
    if (solid.material)
        for (const char* key : {"mass", "strain", "volume"})
            if (auto f = fields.optional(key))
                f->fail(fmt::format(R"("{}" is set by the "material" (its density gives the mass, its Young's )"
                                    R"(modulus and Poisson's ratio the elasticity): remove one of them)",
                                    key));
    if (solid.method != SolidMethod::Pd)
        for (const char* key : {"strain", "volume", "attachment", "pinsAsAttachments"})
            if (auto f = fields.optional(key))
                f->fail(fmt::format(R"("{}" is a "method": "pd" key (projective dynamics' own elements; )"
                                    R"(the pins of an XPBD or VBD solid are fixed))",
                                    key));
    // The PBD volume constraint of XPBD solids' tetrahedra (docs/physics.md §16, "XPBD for solids").
    if (auto f = fields.optional("volumeConstraint")) {
        if (solid.method != SolidMethod::Xpbd)
            f->fail(R"("volumeConstraint" is a "method": "xpbd" key (the PBD volume constraint of its tetrahedra))");
        const ObjectFields volume(*f, {"stiffness"}, "for a volume constraint");
        solid.volumeConstraintStiffness = readFloat(volume.required("stiffness"), closedInterval(0.0, 1.0));
    }
    if (box) {
        if (auto f = fields.optional("size")) solid.size = readVec3(*f, kLengthRange);
        if (auto f = fields.optional("cells")) {
            if (!f->json().is_array() || f->json().size() != 3) f->failExpected("an array of 3 integers [x, y, z]");
            for (int a = 0; a < 3; ++a)
                solid.cells[a] = static_cast<uint32_t>(readInteger(f->element(size_t(a)), 1, kMaxSolidCells));
        }
        if (auto f = fields.optional("pinnedFaces")) solid.pinnedFaces = readPinnedFaces(*f);
        if (auto f = fields.optional("pinsAsAttachments")) solid.pinsAsAttachments = readBool(*f);
        if (auto f = fields.optional("attachment")) solid.attachment = readPdParams(*f, solid.attachment);
    } else if (shape == SolidShape::Mesh) {
        readTetMeshSource(fields, solid, assets);
        // Pins by region, in the files' coordinates (before scale, rotation
        // and position): tetgen adds points and TetGen files drop unused
        // ones, so a region names vertices where numbers could not.
        if (auto f = fields.optional("pinnedRegions")) {
            std::set<uint32_t> pins;
            readPinRegions(*f, solid.tetMesh->positions, solid.meshFile, pins);
            solid.pinnedVertices.assign(pins.begin(), pins.end());
        }
        if (auto f = fields.optional("pinsAsAttachments")) solid.pinsAsAttachments = readBool(*f);
        if (auto f = fields.optional("attachment")) solid.attachment = readPdParams(*f, solid.attachment);
    } else {
        if (auto f = fields.optional("radius")) solid.radius = readFloat(*f, kLengthRange);
        if (auto f = fields.optional("cells"))
            solid.cellsAcross = static_cast<uint32_t>(
                readInteger(*f, 2, kMaxSolidCells, "an integer number of cells along the diameter in [2, 256]"));
    }
    if (auto f = fields.optional("position")) solid.position = readVec3(*f);
    if (auto f = fields.optional("rotation")) solid.rotation = readRotation(*f);
    if (auto f = fields.optional("mass")) solid.mass = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("strain")) solid.strain = readPdParams(*f, solid.strain, "singular value");
    if (auto f = fields.optional("volume")) solid.volume = readPdParams(*f, solid.volume, "volume ratio");
    if (auto f = fields.optional("velocity")) solid.initialVelocity = readVec3(*f);
    if (auto f = fields.optional("color")) solid.color = readColor(*f);
    if (auto f = fields.optional("contacts")) solid.contacts = readContacts(*f);
    return solid;
}

uint64_t vertexCount(const SolidObject& solid) {
    if (solid.shape == SolidShape::Mesh) return solid.tetMesh->positions.size();
    const glm::u64vec3 cells = solid.shape == SolidShape::Box ? glm::u64vec3(solid.cells)
                                                              : glm::u64vec3(solid.cellsAcross);
    return (cells.x + 1) * (cells.y + 1) * (cells.z + 1);
}

// Every object's name and its index in the "objects" array.
struct NamedEntry {
    std::string name;  // a copy: the object vectors reallocate while they grow
    std::size_t index;
};

void readObjects(const Field& field, Scene& scene, SceneAssets& assets) {
    const SolverSettings& solver = scene.solver;  // read first: the springs' bending depends on the integrator
    const std::vector<Field> entries = readArray(field);
    // A scene with nothing to simulate is a mistake.
    if (entries.empty() && scene.bodies.empty()) field.failExpected("at least one object (or a \"bodies\" entry)");
    uint64_t totalVertices = 0;
    std::vector<NamedEntry> names;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        switch (readTypeTag(entries[i], {"cloth", "tetBox", "tetBall", "mesh", "tetMesh"})) {
            case 0:
                scene.cloths.push_back(readCloth(entries[i], i, solver));
                totalVertices += uint64_t{scene.cloths.back().grid.resolution.x} * scene.cloths.back().grid.resolution.y;
                names.push_back({scene.cloths.back().name, i});
                break;
            case 3:
                scene.cloths.push_back(readCloth(entries[i], i, solver, &assets));
                totalVertices += scene.cloths.back().mesh->surface->positions.size();
                names.push_back({scene.cloths.back().name, i});
                break;
            case 4:
                scene.solids.push_back(readSolid(entries[i], i, SolidShape::Mesh, assets));
                totalVertices += vertexCount(scene.solids.back());
                names.push_back({scene.solids.back().name, i});
                break;
            default:
                scene.solids.push_back(readSolid(entries[i], i,
                                                 entries[i].json()["type"] == "tetBox" ? SolidShape::Box
                                                                                       : SolidShape::Ball,
                                                 assets));
                totalVertices += vertexCount(scene.solids.back());
                names.push_back({scene.solids.back().name, i});
                break;
        }
    }
    if (totalVertices > std::numeric_limits<uint32_t>::max())
        field.fail(fmt::format("the objects have {} vertices in total; particle indices are 32-bit", totalVertices));
    // Names identify objects in the UI and in messages: unique across all types.
    for (std::size_t k = 0; k < names.size(); ++k)
        for (std::size_t first = 0; first < k; ++first)
            if (names[first].name == names[k].name) {
                const Field element = field.element(names[k].index);
                const Field where = element.json().contains("name") ? element.member("name") : element;
                where.fail(fmt::format("duplicate name {} (already used by {})", json_input::quoteInput(names[k].name),
                                       field.element(names[first].index).location()));
            }
}

// The field at a JSON pointer of the document that `root` is (its tokens
// are keys and indices this loader wrote: no escapes).
Field fieldAt(const Field& root, std::string_view pointer) {
    Field field = root;
    for (std::size_t at = 1; at <= pointer.size() && !pointer.empty();) {
        const std::size_t end = std::min(pointer.find('/', at), pointer.size());
        const std::string token(pointer.substr(at, end - at));
        if (field.json().is_array()) field = field.element(static_cast<std::size_t>(std::stoul(token)));
        else field = field.member(token);
        at = end + 1;
    }
    return field;
}

// Each attachment's body or collider by name, once both lists are read.
template <typename Named>
void resolveAttachmentTarget(const Field& where, ClothAttachment& attachment, const std::vector<Named>& items,
                             std::string_view list) {
    for (std::size_t i = 0; i < items.size(); ++i)
        if (items[i].name == attachment.name) {
            attachment.index = static_cast<uint32_t>(i);
            return;
        }
    std::string names;
    for (const Named& item : items) names += (names.empty() ? "" : ", ") + json_input::quoteInput(item.name);
    where.fail(fmt::format("no entry of \"{}\" is named {} ({})", list, json_input::quoteInput(attachment.name),
                           items.empty() ? fmt::format("the scene has no \"{}\"", list)
                                         : fmt::format("its names: {}", names)));
}

void resolveAttachmentTargets(const Field& root, Scene& scene) {
    for (ClothObject& cloth : scene.cloths)
        for (ClothAttachment& attachment : cloth.attachments) {
            const bool body = attachment.target == AttachmentTarget::Body;
            const Field where = fieldAt(root, attachment.source).member(body ? "body" : "collider");
            if (body) resolveAttachmentTarget(where, attachment, scene.bodies, "bodies");
            else resolveAttachmentTarget(where, attachment, scene.colliders, "colliders");
        }
}

// ---------------------------------------------------------------------------
// Colliders

struct ColliderType {
    std::string_view name;
    ColliderShape shape;
    std::vector<std::string_view> shapeKeys;  // besides the keys every collider has
};

// Keys valid only for some shapes (a radius on a box) are errors, not ignored.
const std::vector<ColliderType>& colliderTypes() {
    static const std::vector<ColliderType> types = {
        {"plane", ColliderShape::Plane, {}},
        {"sphere", ColliderShape::Sphere, {"radius"}},
        {"box", ColliderShape::Box, {"halfExtents"}},
        {"capsule", ColliderShape::Capsule, {"radius", "halfLength"}},
        {"mesh", ColliderShape::Mesh, {"file", "scale", "resolution", "weldTolerance"}},
    };
    return types;
}

const std::vector<std::string_view>& colliderTypeNames() {
    static const std::vector<std::string_view> names = [] {
        std::vector<std::string_view> result;
        for (const ColliderType& type : colliderTypes()) result.push_back(type.name);
        return result;
    }();
    return names;
}

// A kinematic collider's "keyframes" (docs/scene-format.md, "Kinematic
// colliders"). Times are checked as the 32-bit floats the GPU steps with:
// two frames that differ only in the decimal would make a segment of length 0.
KeyframeTrackDesc readKeyframes(const Field& field) {
    const ObjectFields fields(field, {"loop", "rotation", "frames"}, "for keyframes");
    KeyframeTrackDesc track;
    if (auto f = fields.optional("loop")) track.loop = readBool(*f);
    if (auto f = fields.optional("rotation"))
        track.rotation = readChoice(*f, {"slerp", "linear"}) == 0 ? KeyframeRotation::Slerp : KeyframeRotation::Linear;
    const Field framesField = fields.required("frames");
    const std::vector<Field> frames = readArray(framesField);
    if (frames.size() < 2)
        framesField.failExpected(fmt::format("at least 2 frames (a pose at time 0 and a later one), got {}",
                                             frames.size()));
    for (std::size_t k = 0; k < frames.size(); ++k) {
        const ObjectFields frame(frames[k], {"time", "position", "rotation"}, "for a keyframe");
        const Field timeField = frame.required("time");
        KeyframeDesc desc;
        // A frame without a position or rotation keeps the previous frame's.
        if (k > 0) desc = track.frames.back();
        const float time = readFloat(timeField, atLeast(0.0));
        if (k == 0 && time != 0.0f) timeField.failExpected(fmt::format("0 (the first frame's time), got {}", time));
        if (k > 0 && !(double(time) > desc.time))
            timeField.failExpected(fmt::format("a time > {} (the previous frame's; times increase strictly), got {}",
                                               desc.time, time));
        desc.time = time;
        if (auto f = frame.optional("position")) desc.position = readVec3(*f);
        if (auto f = frame.optional("rotation")) desc.rotation = readRotation(*f);
        track.frames.push_back(desc);
    }
    return track;
}

ColliderDesc readCollider(const Field& field, std::size_t index, SceneAssets& assets,
                          std::vector<PendingSdfGrid>& grids) {
    const ColliderType& type = colliderTypes()[readTypeTag(field, colliderTypeNames())];
    std::vector<std::string_view> allowedKeys = {"type",        "name",     "position",        "rotation",
                                                 "friction",    "staticFriction", "thickness", "restitution",
                                                 "velocity",    "angularVelocity", "keyframes", "parent"};
    allowedKeys.insert(allowedKeys.end(), type.shapeKeys.begin(), type.shapeKeys.end());
    const ObjectFields fields(field, std::move(allowedKeys), fmt::format("for a {} collider", type.name));

    ColliderDesc collider;
    collider.shape = type.shape;
    collider.name = readNameOrDefault(fields, type.name, index);
    if (auto f = fields.optional("position")) collider.position = readVec3(*f);
    if (auto f = fields.optional("rotation")) collider.rotation = readRotation(*f);
    if (auto f = fields.optional("friction")) collider.friction = readFloat(*f, atLeast(0.0));
    collider.staticFriction = readStaticFriction(fields, collider.friction, kNoMaxFriction);
    if (auto f = fields.optional("restitution")) collider.restitution = readFloat(*f, closedInterval(0.0, 1.0));
    if (auto f = fields.optional("thickness")) collider.thickness = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("velocity")) collider.linearVelocity = readVec3(*f);
    if (auto f = fields.optional("angularVelocity")) collider.angularVelocity = readVec3(*f);
    if (auto f = fields.optional("radius")) collider.radius = readFloat(*f, kLengthRange);
    if (auto f = fields.optional("halfLength")) collider.halfLength = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("halfExtents")) collider.halfExtents = readVec3(*f, kLengthRange);
    if (type.shape == ColliderShape::Mesh) readColliderMesh(fields, collider, assets, index, grids);
    if (auto f = fields.optional("parent")) {
        collider.parent = readNonEmptyString(*f);
        for (std::string_view key : {"velocity", "angularVelocity"})
            if (auto other = fields.optional(key))
                other->fail("a collider with a \"parent\" moves with it (its keyframes give it a velocity of its own)");
    }
    if (auto f = fields.optional("keyframes")) {
        // The frames say where it is and how fast it moves: nothing else may.
        for (std::string_view key : {"position", "rotation", "velocity", "angularVelocity"})
            if (auto other = fields.optional(key))
                other->fail(fmt::format("a collider with \"keyframes\" takes its {} from them (give the first "
                                        "pose in the first frame)",
                                        key == "position" || key == "rotation" ? "pose" : "velocity"));
        collider.keyframes = readKeyframes(*f);
        collider.position = collider.keyframes->frames.front().position;
        collider.rotation = collider.keyframes->frames.front().rotation;
    }
    return collider;
}

std::vector<ColliderDesc> readColliders(const Field& field, SceneAssets& assets) {
    const std::vector<Field> entries = readArray(field);
    if (entries.size() > gpu::kMaxColliders)
        field.fail(fmt::format("expected at most {} colliders (the GPU keeps one bit per collider), got {}",
                               gpu::kMaxColliders, entries.size()));
    std::vector<ColliderDesc> colliders;
    std::vector<PendingSdfGrid> grids;
    for (std::size_t i = 0; i < entries.size(); ++i) colliders.push_back(readCollider(entries[i], i, assets, grids));
    // A parent is an earlier kinematic collider: parents are moved first.
    for (std::size_t i = 0; i < colliders.size(); ++i) {
        if (colliders[i].parent.empty()) continue;
        const Field parent = entries[i].member("parent");
        std::size_t j = 0;
        while (j < i && colliders[j].name != colliders[i].parent) ++j;
        if (j == i) {
            bool later = false;
            for (std::size_t k = i; k < colliders.size(); ++k)
                later = later || colliders[k].name == colliders[i].parent;
            parent.failExpected(fmt::format("the name of a collider before this one{}, got {}",
                                            later ? " (a parent comes first in the list)" : "",
                                            json_input::describeValue(parent.json())));
        }
        if (!colliders[j].kinematic())
            parent.fail(fmt::format("the parent {} is not kinematic: give it \"keyframes\" (or a \"parent\")",
                                    quoteInput(colliders[i].parent)));
    }
    for (const PendingSdfGrid& grid : grids) {
        ColliderDesc& collider = colliders[grid.owner];
        collider.meshSdf =
            loadAsset(grid.file, [&] { return assets.sdfGrid(grid.path, grid.weldTolerance, collider.sdfResolution); });
    }
    return colliders;
}

// ---------------------------------------------------------------------------
// Rigid bodies

// Tessellation detail of a primitive body (box cells per edge, icosphere
// subdivisions, capsule slices): enough contact points, and not so many that
// a body costs more than a cloth.
constexpr int64_t kMaxBoxCells = 32;
constexpr int64_t kMaxSphereSubdivisions = 5;
constexpr int64_t kMaxCapsuleSlices = 128;
// Contact points a body may have: a mesh body's vertices. Each point is
// tested against every collider every substep.
constexpr std::size_t kMaxBodyPoints = 1u << 16;

BodyDesc readBody(const Field& field, std::size_t index, SceneAssets& assets, std::vector<PendingSdfGrid>& grids) {
    const std::size_t typeIndex = readTypeTag(field, {"box", "sphere", "capsule", "mesh"});
    const BodyShape shape = static_cast<BodyShape>(typeIndex);
    static constexpr std::string_view kTypeNames[] = {"box", "sphere", "capsule", "mesh"};
    const std::string_view type = kTypeNames[typeIndex];
    std::vector<std::string_view> keys = {"type",     "name",     "position",    "rotation", "velocity",
                                          "angularVelocity", "mass", "density", "friction", "staticFriction",
                                          "restitution", "color"};
    if (shape == BodyShape::Box) keys.insert(keys.end(), {"halfExtents", "cells"});
    else if (shape == BodyShape::Sphere) keys.insert(keys.end(), {"radius", "subdivisions"});
    else if (shape == BodyShape::Capsule) keys.insert(keys.end(), {"radius", "halfLength", "slices"});
    else keys.insert(keys.end(), {"file", "scale", "weldTolerance", "resolution"});
    // A shape moved by keyframes has no dynamics of its own: it is a kinematic
    // collider (docs/scene-format.md, "Kinematic colliders"), which bodies and
    // particles meet as an infinite mass.
    for (const char* kinematic : {"keyframes", "parent"})
        if (field.json().is_object() && field.json().contains(kinematic))
            field.member(kinematic).fail(
                R"(a body moves by its own dynamics; a shape driven by keyframes is a kinematic collider: give it )"
                R"(to "colliders" with its "keyframes")");
    const ObjectFields fields(field, std::move(keys), fmt::format("for a {} body", type));
    BodyDesc body;
    body.source = field.pointer();
    body.shape = shape;
    body.name = readNameOrDefault(fields, type, index);
    if (auto f = fields.optional("halfExtents")) body.halfExtents = readVec3(*f, kLengthRange);
    if (auto f = fields.optional("radius")) body.radius = readFloat(*f, kLengthRange);
    if (auto f = fields.optional("halfLength")) body.halfLength = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("cells")) body.detail = static_cast<uint32_t>(readInteger(*f, 1, kMaxBoxCells));
    if (auto f = fields.optional("subdivisions"))
        body.detail = static_cast<uint32_t>(readInteger(*f, 0, kMaxSphereSubdivisions));
    if (auto f = fields.optional("slices")) body.detail = static_cast<uint32_t>(readInteger(*f, 4, kMaxCapsuleSlices));
    if (shape == BodyShape::Mesh) {
        const Field file = fields.required("file");
        const std::string path = readNonEmptyString(file);
        const std::optional<double> weldTolerance = readWeldTolerance(fields);
        if (auto f = fields.optional("scale")) body.meshScale = readFloat(*f, greaterThan(0.0));
        body.meshSurface = loadAsset(file, [&] { return assets.surface(path, weldTolerance, "a rigid body"); });
        body.meshFile = assets.resolve(path).string();
        if (body.meshSurface->positions.size() > kMaxBodyPoints)
            file.fail(fmt::format("{} has {} vertices; a rigid body's vertices are its contact points, at most {}",
                                  body.meshFile, body.meshSurface->positions.size(), kMaxBodyPoints));
        body.sdfResolution =
            readPendingSdfGrid(fields, file, path, weldTolerance, body.sdfResolution, index, assets, grids);
    }
    const std::optional<Field> mass = fields.optional("mass");
    const std::optional<Field> density = fields.optional("density");
    if (mass && density) density->fail(R"(give "mass" or "density", not both)");
    if (mass) body.mass = readFloat(*mass, greaterThan(0.0));
    if (density) body.density = readFloat(*density, greaterThan(0.0));
    if (auto f = fields.optional("position")) body.position = readVec3(*f);
    if (auto f = fields.optional("rotation")) body.rotation = readRotation(*f);
    if (auto f = fields.optional("velocity")) body.velocity = readVec3(*f);
    if (auto f = fields.optional("angularVelocity")) body.angularVelocity = readVec3(*f);
    if (auto f = fields.optional("friction")) body.friction = readFloat(*f, atLeast(0.0));
    body.staticFriction = readStaticFriction(fields, body.friction, kNoMaxFriction);
    if (auto f = fields.optional("restitution")) body.restitution = readFloat(*f, closedInterval(0.0, 1.0));
    if (auto f = fields.optional("color")) body.color = readColor(*f);
    // A body that cannot be stepped is refused now, with its path: a surface
    // wound inward or enclosing nothing, an inertia too degenerate to invert.
    try {
        const double kilograms = bodyMass(body).mass;
        if (!(kilograms < 1e30 && kilograms > 1e-30))
            field.fail(fmt::format("a mass of {:.3g} kg is outside the range a float holds", kilograms));
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        (shape == BodyShape::Mesh ? fields.required("file") : field)
            .fail(shape == BodyShape::Mesh ? fmt::format("{}: {}", body.meshFile, what) : what);
    }
    return body;
}

// The mesh bodies' grids are baked once every grid of the scene is counted
// (bakeBodyGrids), as the colliders' are.
std::vector<BodyDesc> readBodies(const Field& field, SceneAssets& assets, std::vector<PendingSdfGrid>& grids) {
    const std::vector<Field> entries = readArray(field);
    std::vector<BodyDesc> bodies;
    for (std::size_t i = 0; i < entries.size(); ++i) bodies.push_back(readBody(entries[i], i, assets, grids));
    return bodies;
}

void bakeBodyGrids(std::vector<BodyDesc>& bodies, const std::vector<PendingSdfGrid>& grids, SceneAssets& assets) {
    for (const PendingSdfGrid& grid : grids) {
        BodyDesc& body = bodies[grid.owner];
        body.meshSdf =
            loadAsset(grid.file, [&] { return assets.sdfGrid(grid.path, grid.weldTolerance, body.sdfResolution); });
    }
}

// Names identify objects in the UI and in messages, so they must be unique
// within their list. Points at the later of two equal names.
template <typename Named>
void requireUniqueNames(const std::vector<Named>& items, const Field& array) {
    auto whereNameIs = [&](std::size_t i) {
        const Field element = array.element(i);
        return element.json().contains("name") ? element.member("name") : element;
    };
    std::set<std::string_view> seen;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (seen.insert(items[i].name).second) continue;
        std::size_t first = 0;
        while (items[first].name != items[i].name) ++first;
        whereNameIs(i).fail(fmt::format("duplicate name {} (already used by {})", json_input::quoteInput(items[i].name),
                                        array.element(first).location()));
    }
}

// ---------------------------------------------------------------------------

Scene readScene(const Json& document, std::string defaultName, SceneAssets& assets) {
    const Field root(document, "");
    const ObjectFields fields(root, {"name", "solver", "camera", "objects", "colliders", "bodies"},
                              "at the top level");
    Scene scene;
    scene.name = std::move(defaultName);
    if (auto f = fields.optional("name")) scene.name = readNonEmptyString(*f);
    if (auto f = fields.optional("solver")) scene.solver = readSolver(*f, SolverSettings{});
    if (auto f = fields.optional("camera")) scene.camera = readCamera(*f);

    // Bodies first: a scene of bodies alone needs no "objects".
    std::vector<PendingSdfGrid> bodyGrids;
    if (auto f = fields.optional("bodies")) {
        scene.bodies = readBodies(*f, assets, bodyGrids);
        requireUniqueNames(scene.bodies, *f);
    }
    if (scene.bodies.empty() || fields.optional("objects")) readObjects(fields.required("objects"), scene, assets);

    if (auto f = fields.optional("colliders")) {
        scene.colliders = readColliders(*f, assets);
        requireUniqueNames(scene.colliders, *f);
    }
    resolveAttachmentTargets(root, scene);
    bakeBodyGrids(scene.bodies, bodyGrids, assets);
    // With particles in the scene every body is also a collider for them.
    const bool particles = !scene.cloths.empty() || !scene.solids.empty();
    if (particles && scene.colliders.size() + scene.bodies.size() > gpu::kMaxColliders)
        fields.required("bodies").fail(
            fmt::format("{} bodies and {} colliders: with objects in the scene every body is a collider for them "
                        "too, and at most {} fit (the GPU keeps one bit per collider)",
                        scene.bodies.size(), scene.colliders.size(), gpu::kMaxColliders));
    scene.assetLog = assets.log();
    return scene;
}

bool isBlank(std::string_view text) {
    return text.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

// The promise is one line per error: a key or file name holding a newline
// must not break it.
std::string asOneLine(std::string_view text) {
    std::string line;
    for (char c : text) {
        if (static_cast<unsigned char>(c) >= 0x20) line += c;
        else if (c == '\n') line += "\\n";
        else line += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    }
    return line;
}

[[noreturn]] void throwSceneError(const std::filesystem::path& source, std::string_view problem) {
    throw SceneError(asOneLine(fmt::format("{}: {}", clipInput(source.string()), problem)));
}

}  // namespace

std::string readSceneText(const std::filesystem::path& file) {
    try {
        return readWholeFile(file, kMaxFileBytes);
    } catch (const FileReadError& error) {
        throwSceneError(file, error.what());
    }
}

Scene parseScene(std::string_view jsonText, const std::filesystem::path& sourceName) {
    if (isBlank(jsonText)) throwSceneError(sourceName, "file is empty (expected a JSON object)");
    try {
        // Mesh files are found relative to the scene file's folder.
        SceneAssets assets(sourceName.parent_path());
        Scene scene = readScene(json_input::parseJsonText(jsonText), sourceName.stem().string(), assets);
        scene.path = sourceName.string();
        return scene;
    } catch (const json_input::JsonInputError& error) {
        throwSceneError(sourceName, error.what());
    }
}

Scene loadScene(const std::filesystem::path& file) { return parseScene(readSceneText(file), file); }

SolverSettings parseSolverSettings(std::string_view jsonText, const SolverSettings& base, std::string_view sourceName) {
    try {
        const Json document = json_input::parseJsonText(jsonText);
        const Field solver(document, "/solver");
        if (!document.is_object()) solver.failExpected("an object of solver settings");
        return readSolver(solver, base);
    } catch (const json_input::JsonInputError& error) {
        throw SceneError(fmt::format("{}: {}", sourceName, error.what()));
    }
}

}  // namespace vksim
