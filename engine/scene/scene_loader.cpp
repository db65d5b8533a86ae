#include "scene/scene_loader.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "scene/json_reader.h"
#include "shared/sim_types.h"

// The format this file reads is documented key by key in README.md, section "Scene files";
// keep the two in step. Each read* function below handles one JSON object
// and knows its allowed keys; missing keys keep the defaults of scene.h.

namespace vksim {
namespace {

using json_input::atLeast;
using json_input::closedInterval;
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

SolverSettings readSolver(const Field& field) {
    const ObjectFields fields(field, {"timeStep", "substeps", "iterations", "gravity", "damping", "collisionMargin",
                                      "stencilStep"});
    SolverSettings solver;
    if (auto f = fields.optional("timeStep")) solver.timeStep = readFloat(*f, kTimeStepRange);
    if (auto f = fields.optional("substeps")) solver.substeps = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("iterations"))
        solver.iterations = static_cast<uint32_t>(readInteger(*f, 1, kMaxSolverLoops));
    if (auto f = fields.optional("gravity")) solver.gravity = readVec3(*f);
    if (auto f = fields.optional("damping")) solver.damping = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("collisionMargin")) solver.collisionMargin = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("stencilStep")) solver.stencilStep = readFloat(*f, greaterThan(0.0));
    return solver;
}

CameraDesc readCamera(const Field& field) {
    const ObjectFields fields(field, {"target", "distance", "yaw", "pitch", "fov"});
    CameraDesc camera;
    if (auto f = fields.optional("target")) camera.target = readVec3(*f);
    if (auto f = fields.optional("distance")) camera.distance = readFloat(*f, greaterThan(0.0));
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
    std::vector<glm::uvec2> pinned;
    std::vector<std::string> pinnedBy;  // pointer of each entry, to name the first of a duplicate pair
    for (const Field& entry : readArray(field)) {
        if (!entry.json().is_array() || entry.json().size() != 2)
            entry.failExpected("a vertex [column, row]");
        const glm::uvec2 vertex{readGridIndex(entry.element(0), resolution.x, "column"),
                                readGridIndex(entry.element(1), resolution.y, "row")};
        // Harmless for fixed pins, but with pinsAsAttachments a repeated pin
        // would add a second attachment and silently double its stiffness.
        for (std::size_t i = 0; i < pinned.size(); ++i)
            if (pinned[i] == vertex)
                entry.fail(fmt::format("vertex [{}, {}] is already pinned by {}", vertex.x, vertex.y, pinnedBy[i]));
        pinned.push_back(vertex);
        pinnedBy.push_back(entry.location());
    }
    return pinned;
}

ClothObject readCloth(const Field& field, std::size_t index) {
    const ObjectFields fields(field, {"type", "name", "size", "resolution", "position", "rotation", "mass", "pinned",
                                      "stretch", "bending", "attachment", "pinsAsAttachments", "velocity", "color"},
                              "for a cloth object");
    ClothObject cloth;
    cloth.name = readNameOrDefault(fields, "cloth", index);
    if (auto f = fields.optional("size")) cloth.grid.size = readVec2(*f, greaterThan(0.0));
    if (auto f = fields.optional("resolution")) cloth.grid.resolution = readGridResolution(*f);
    if (auto f = fields.optional("position")) cloth.position = readVec3(*f);
    if (auto f = fields.optional("rotation")) cloth.rotation = readRotation(*f);
    if (auto f = fields.optional("mass")) cloth.mass = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("pinned")) cloth.pinned = readPinned(*f, cloth.grid.resolution);
    if (auto f = fields.optional("stretch")) cloth.stretch = readConstraintParams(*f);
    if (auto f = fields.optional("bending")) cloth.bending = readConstraintParams(*f);
    if (auto f = fields.optional("attachment")) cloth.attachment = readConstraintParams(*f);
    if (auto f = fields.optional("pinsAsAttachments")) cloth.pinsAsAttachments = readBool(*f);
    if (auto f = fields.optional("velocity")) cloth.initialVelocity = readVec3(*f);
    if (auto f = fields.optional("color")) cloth.color = readColor(*f);
    return cloth;
}

std::vector<ClothObject> readObjects(const Field& field) {
    const std::vector<Field> entries = readArray(field);
    // Nothing to simulate would mean zero-sized GPU buffers, which Vulkan forbids.
    if (entries.empty()) field.failExpected("at least one object");
    std::vector<ClothObject> cloths;
    uint64_t totalVertices = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        readTypeTag(entries[i], {"cloth"});
        cloths.push_back(readCloth(entries[i], i));
        totalVertices += uint64_t{cloths.back().grid.resolution.x} * cloths.back().grid.resolution.y;
    }
    if (totalVertices > std::numeric_limits<uint32_t>::max())
        field.fail(fmt::format("the objects have {} vertices in total; particle indices are 32-bit", totalVertices));
    return cloths;
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

ColliderDesc readCollider(const Field& field, std::size_t index) {
    const ColliderType& type = colliderTypes()[readTypeTag(field, colliderTypeNames())];
    std::vector<std::string_view> allowedKeys = {"type",     "name",     "position",   "rotation",
                                                 "friction", "thickness", "restitution"};
    allowedKeys.insert(allowedKeys.end(), type.shapeKeys.begin(), type.shapeKeys.end());
    const ObjectFields fields(field, std::move(allowedKeys), fmt::format("for a {} collider", type.name));

    ColliderDesc collider;
    collider.shape = type.shape;
    collider.name = readNameOrDefault(fields, type.name, index);
    if (auto f = fields.optional("position")) collider.position = readVec3(*f);
    if (auto f = fields.optional("rotation")) collider.rotation = readRotation(*f);
    if (auto f = fields.optional("friction")) collider.friction = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("restitution")) collider.restitution = readFloat(*f, closedInterval(0.0, 1.0));
    if (auto f = fields.optional("thickness")) collider.thickness = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("radius")) collider.radius = readFloat(*f, greaterThan(0.0));
    if (auto f = fields.optional("halfLength")) collider.halfLength = readFloat(*f, atLeast(0.0));
    if (auto f = fields.optional("halfExtents")) collider.halfExtents = readVec3(*f, greaterThan(0.0));
    return collider;
}

std::vector<ColliderDesc> readColliders(const Field& field) {
    const std::vector<Field> entries = readArray(field);
    if (entries.size() > gpu::kMaxColliders)
        field.fail(fmt::format("expected at most {} colliders (the GPU keeps one bit per collider), got {}",
                               gpu::kMaxColliders, entries.size()));
    std::vector<ColliderDesc> colliders;
    for (std::size_t i = 0; i < entries.size(); ++i) colliders.push_back(readCollider(entries[i], i));
    return colliders;
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
        whereNameIs(i).fail(fmt::format("duplicate name \"{}\" (already used by {})", items[i].name,
                                        array.element(first).location()));
    }
}

// ---------------------------------------------------------------------------

Scene readScene(const Json& document, std::string defaultName) {
    const Field root(document, "");
    const ObjectFields fields(root, {"name", "solver", "camera", "objects", "colliders"}, "at the top level");
    Scene scene;
    scene.name = std::move(defaultName);
    if (auto f = fields.optional("name")) scene.name = readNonEmptyString(*f);
    if (auto f = fields.optional("solver")) scene.solver = readSolver(*f);
    if (auto f = fields.optional("camera")) scene.camera = readCamera(*f);

    const Field objects = fields.required("objects");
    scene.cloths = readObjects(objects);
    requireUniqueNames(scene.cloths, objects);

    if (auto f = fields.optional("colliders")) {
        scene.colliders = readColliders(*f);
        requireUniqueNames(scene.colliders, *f);
    }
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
    throw SceneError(asOneLine(fmt::format("{}: {}", source.string(), problem)));
}

std::string readFileText(const std::filesystem::path& file) {
    std::error_code ignored;
    if (std::filesystem::is_directory(file, ignored))
        throwSceneError(file, fmt::format("cannot open file: {}", std::strerror(EISDIR)));

    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(file.c_str(), "rb"), &std::fclose);
    if (!stream) throwSceneError(file, fmt::format("cannot open file: {}", std::strerror(errno)));

    std::string text;
    char buffer[1 << 16];
    while (std::size_t bytes = std::fread(buffer, 1, sizeof buffer, stream.get())) {
        text.append(buffer, bytes);
        if (text.size() > kMaxFileBytes)
            throwSceneError(file, fmt::format("file is larger than {} MiB; not a scene file", kMaxFileBytes >> 20));
    }
    if (std::ferror(stream.get())) throwSceneError(file, fmt::format("cannot read file: {}", std::strerror(errno)));
    return text;
}

}  // namespace

Scene parseScene(std::string_view jsonText, const std::filesystem::path& sourceName) {
    if (isBlank(jsonText)) throwSceneError(sourceName, "file is empty (expected a JSON object)");
    try {
        Scene scene = readScene(json_input::parseJsonText(jsonText), sourceName.stem().string());
        scene.path = sourceName.string();
        return scene;
    } catch (const json_input::JsonInputError& error) {
        throwSceneError(sourceName, error.what());
    }
}

Scene loadScene(const std::filesystem::path& file) { return parseScene(readFileText(file), file); }

}  // namespace vksim
