// Scene files: every shipped scene loads, defaults and parsed values land in
// the right fields, and every file of the bad-input corpus
// (tests/bad_scenes/, with expected.txt) is rejected by a one-line error
// that names the file and the offending value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <glm/gtc/constants.hpp>
#include <unistd.h>

#include "scene/scene_loader.h"

namespace vksim {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = VKSIM_SOURCE_DIR;
const fs::path kScenesDir = kSourceDir / "scenes";
const fs::path kBadScenesDir = kSourceDir / "tests" / "bad_scenes";

// A scene file in the temp directory, removed when the test ends.
class TempSceneFile {
public:
    TempSceneFile(std::string_view stem, std::string_view text)
        : path_(fs::temp_directory_path() / uniqueFileName(stem)) {
        std::ofstream(path_) << text;
    }
    ~TempSceneFile() {
        std::error_code ignored;
        fs::remove(path_, ignored);
    }
    TempSceneFile(const TempSceneFile&) = delete;
    TempSceneFile& operator=(const TempSceneFile&) = delete;
    const fs::path& path() const { return path_; }

private:
    // Unique per process so that parallel ctest runs do not share files.
    static std::string uniqueFileName(std::string_view stem) {
        return std::string(stem) + "." + std::to_string(::getpid()) + ".json";
    }
    fs::path path_;
};

template <int N>
void expectNear(const glm::vec<N, float>& actual, const glm::vec<N, float>& expected, float tolerance = 1e-6f) {
    for (int i = 0; i < N; ++i) EXPECT_NEAR(actual[i], expected[i], tolerance) << "component " << i;
}

void expectDefaultSolver(const SolverSettings& solver) {
    const SolverSettings defaults;
    EXPECT_EQ(solver.timeStep, defaults.timeStep);
    EXPECT_EQ(solver.substeps, defaults.substeps);
    EXPECT_EQ(solver.pbd.iterations, defaults.pbd.iterations);
    expectNear(solver.gravity, defaults.gravity);
    EXPECT_EQ(solver.damping, defaults.damping);
    EXPECT_EQ(solver.collisionMargin, defaults.collisionMargin);
    EXPECT_EQ(solver.stencilStep, defaults.stencilStep);
}

void expectParams(const ConstraintParams& actual, const ConstraintParams& expected) {
    EXPECT_EQ(actual.model, expected.model);
    EXPECT_FLOAT_EQ(actual.stiffness, expected.stiffness);
    EXPECT_FLOAT_EQ(actual.compliance, expected.compliance);
    EXPECT_EQ(actual.enabled, expected.enabled);
}

// ---------------------------------------------------------------------------
// Shipped scenes

std::vector<fs::path> shippedScenes() {
    std::vector<fs::path> scenes;
    for (const fs::directory_entry& entry : fs::directory_iterator(kScenesDir))
        if (entry.path().extension() == ".json") scenes.push_back(entry.path());
    std::sort(scenes.begin(), scenes.end());
    return scenes;
}

TEST(SceneLoader, LoadsEveryShippedScene) {
    const std::vector<fs::path> scenes = shippedScenes();
    ASSERT_GE(scenes.size(), 3u) << "expected cloth_sphere, cloth_xpbd and cloth_colliders in " << kScenesDir;
    for (const fs::path& file : scenes) {
        SCOPED_TRACE(file.string());
        try {
            const Scene scene = loadScene(file);
            EXPECT_EQ(scene.path, file.string());
            EXPECT_FALSE(scene.name.empty());
            EXPECT_FALSE(scene.cloths.empty() && scene.solids.empty() && scene.bodies.empty());
        } catch (const SceneError& error) {
            ADD_FAILURE() << error.what();
        }
    }
}

TEST(SceneLoader, DefaultSceneIsAClothPinnedAboveASphereOnTheGround) {
    const Scene scene = loadScene(kScenesDir / "cloth_sphere.json");
    ASSERT_EQ(scene.cloths.size(), 1u);
    const ClothObject& cloth = scene.cloths[0];
    EXPECT_EQ(cloth.grid.resolution, glm::uvec2(48, 48));
    // [-1, 0] in the file: negative columns count back from the last.
    ASSERT_EQ(cloth.pinned.size(), 2u);
    EXPECT_EQ(cloth.pinned[0], glm::uvec2(0, 0));
    EXPECT_EQ(cloth.pinned[1], glm::uvec2(47, 0));

    ASSERT_EQ(scene.colliders.size(), 2u);
    const ColliderDesc& ball = scene.colliders[0];
    const ColliderDesc& ground = scene.colliders[1];
    EXPECT_EQ(ball.shape, ColliderShape::Sphere);
    EXPECT_EQ(ground.shape, ColliderShape::Plane);
    EXPECT_FLOAT_EQ(ball.position.y - ball.radius, ground.position.y) << "the ball rests on the ground";
    EXPECT_GT(cloth.position.y, ball.position.y + ball.radius) << "the cloth starts above the ball";
}

TEST(SceneLoader, CollidersSceneUsesEveryShapeAndSeveralObjects) {
    const Scene scene = loadScene(kScenesDir / "cloth_colliders.json");
    EXPECT_GE(scene.cloths.size(), 2u);
    std::set<ColliderShape> shapes;
    for (const ColliderDesc& collider : scene.colliders) shapes.insert(collider.shape);
    EXPECT_EQ(shapes.size(), 4u);
}

// ---------------------------------------------------------------------------
// Defaults and parsed values

TEST(SceneLoader, MissingKeysTakeTheDefaultsOfSceneH) {
    const TempSceneFile file("scene_loader_minimal", R"({ "objects": [ { "type": "cloth" } ] })");
    const Scene scene = loadScene(file.path());

    EXPECT_EQ(scene.path, file.path().string());
    EXPECT_EQ(scene.name, file.path().stem().string()) << "the name defaults to the file's stem";
    expectDefaultSolver(scene.solver);

    const CameraDesc defaultCamera;
    expectNear(scene.camera.target, defaultCamera.target);
    EXPECT_EQ(scene.camera.distance, defaultCamera.distance);
    EXPECT_EQ(scene.camera.yawDegrees, defaultCamera.yawDegrees);
    EXPECT_EQ(scene.camera.pitchDegrees, defaultCamera.pitchDegrees);
    EXPECT_EQ(scene.camera.fovDegrees, defaultCamera.fovDegrees);

    ASSERT_EQ(scene.cloths.size(), 1u);
    const ClothObject& cloth = scene.cloths[0];
    const ClothObject defaults;
    EXPECT_EQ(cloth.name, "cloth0") << "unnamed objects are called <type><index>";
    expectNear(cloth.grid.size, defaults.grid.size);
    EXPECT_EQ(cloth.grid.resolution, defaults.grid.resolution);
    expectNear(cloth.position, defaults.position);
    expectNear(cloth.rotation, defaults.rotation);
    EXPECT_EQ(cloth.mass, defaults.mass);
    EXPECT_TRUE(cloth.pinned.empty());
    expectParams(cloth.stretch, defaults.stretch);
    expectParams(cloth.bending, defaults.bending);
    expectParams(cloth.attachment, defaults.attachment);
    EXPECT_EQ(cloth.pinsAsAttachments, defaults.pinsAsAttachments);
    EXPECT_EQ(cloth.tethers.mode, TetherMode::Off);
    expectNear(cloth.initialVelocity, defaults.initialVelocity);
    expectNear(cloth.color, defaults.color);

    EXPECT_TRUE(scene.colliders.empty());
}

// docs/scene-format.md, "Tethers": the mode, and the slack (default 0).
TEST(SceneLoader, ReadsTethers) {
    const TempSceneFile file("scene_loader_tethers", R"({ "objects": [
        { "type": "cloth", "pinned": [[0, 0]], "tethers": { "mode": "geodesic", "slack": 0.25 } },
        { "type": "cloth", "pinned": [[0, 0]], "tethers": { "mode": "euclidean" } } ] })");
    const Scene scene = loadScene(file.path());
    ASSERT_EQ(scene.cloths.size(), 2u);
    EXPECT_EQ(scene.cloths[0].tethers, (TetherParams{TetherMode::Geodesic, 0.25f}));
    EXPECT_EQ(scene.cloths[1].tethers, (TetherParams{TetherMode::Euclidean, 0.0f}));
}

// docs/scene-format.md, "Attachments to bodies and colliders": the target by
// name, the vertices (grid: row * columns + column; negative indices count
// back), maxDistance (default 0) and stiffness (default 1).
// docs/scene-format.md, "Contacts": every key, and the defaults.
TEST(SceneLoader, ReadsContacts) {
    const Scene scene = parseScene(R"({ "objects": [
        { "type": "cloth", "contacts": { "thickness": 0.004, "self": true, "friction": 0.5, "triangles": true } },
        { "type": "cloth", "contacts": {} } ] })",
                                   "inline/contacts.json");
    const ContactParams& all = scene.cloths[0].contacts;
    EXPECT_TRUE(all.enabled);
    EXPECT_EQ(all.thickness, 0.004f);
    EXPECT_TRUE(all.self);
    EXPECT_EQ(all.friction, 0.5f);
    EXPECT_TRUE(all.triangles);
    const ContactParams& defaults = scene.cloths[1].contacts;
    EXPECT_EQ(defaults, (ContactParams{.enabled = true}));
    EXPECT_FALSE(defaults.triangles);
}

TEST(SceneLoader, ReadsAttachments) {
    const Scene scene = parseScene(R"({
        "bodies": [ { "type": "box", "name": "crate" } ],
        "colliders": [ { "type": "sphere", "name": "ball" }, { "type": "sphere", "name": "post" } ],
        "objects": [ { "type": "cloth", "resolution": [4, 3], "attachments": [
            { "body": "crate", "grid": [[0, 0], [-1, 0]] },
            { "collider": "post", "grid": [[1, -1]], "maxDistance": 0.05, "stiffness": 0.5 } ] } ] })",
                                   "inline/attachments.json");
    ASSERT_EQ(scene.cloths[0].attachments.size(), 2u);
    const ClothAttachment& body = scene.cloths[0].attachments[0];
    EXPECT_EQ(body.target, AttachmentTarget::Body);
    EXPECT_EQ(body.index, 0u);
    EXPECT_EQ(body.vertices, (std::vector<uint32_t>{0, 3}));
    EXPECT_EQ(body.maxDistance, 0.0f);
    EXPECT_EQ(body.stiffness, 1.0f);
    const ClothAttachment& collider = scene.cloths[0].attachments[1];
    EXPECT_EQ(collider.target, AttachmentTarget::Collider);
    EXPECT_EQ(collider.name, "post");
    EXPECT_EQ(collider.index, 1u);
    EXPECT_EQ(collider.vertices, (std::vector<uint32_t>{9}));
    EXPECT_EQ(collider.maxDistance, 0.05f);
    EXPECT_EQ(collider.stiffness, 0.5f);
    EXPECT_EQ(collider.source, "/objects/0/attachments/1");
}

TEST(SceneLoader, ReadsEveryKey) {
    const TempSceneFile file("scene_loader_full", R"(
        // Comments are allowed, // and /* */ alike.
        {
          "name": "everything",
          "solver": { "timeStep": 0.01, "substeps": 3, "iterations": 12, "gravity": [0, -1.62, 0],
                      "damping": 0.5, "collisionMargin": 0.02, "stencilStep": 0.002 },
          "camera": { "target": [1, 2, 3], "distance": 7, "yaw": -45, "pitch": 10, "fov": 60 },
          "objects": [ {
            "type": "cloth", "name": "sail", "size": [3, 1.5], "resolution": [10, 5],
            "position": [0.5, 2, -1], "rotation": [0, 0, 2, 2], /* normalised on load */
            "mass": 2.5, "pinned": [[0, 0], [-1, -1], [3, 2]],
            "stretch": { "model": "xpbd", "compliance": 1e-6 },
            "bending": { "model": "pbd", "stiffness": 0.25, "enabled": false },
            "attachment": { "model": "xpbd", "compliance": 0.001 },
            "pinsAsAttachments": true, "velocity": [1, 0, 0], "color": [0.1, 0.2, 0.3]
          } ],
          "colliders": [
            { "type": "sphere", "name": "ball", "position": [0, 1, 0], "radius": 0.25,
              "friction": 0.7, "restitution": 0.5, "thickness": 0.03 },
            { "type": "box", "halfExtents": [1, 2, 3], "rotation": { "axis": [0, 2, 0], "degrees": 90 } },
            { "type": "capsule", "radius": 0.1, "halfLength": 0.4 },
            { "type": "plane" }
          ]
        })");
    const Scene scene = loadScene(file.path());

    EXPECT_EQ(scene.name, "everything");
    EXPECT_FLOAT_EQ(scene.solver.timeStep, 0.01f);
    EXPECT_EQ(scene.solver.substeps, 3u);
    EXPECT_EQ(scene.solver.pbd.iterations, 12u);
    expectNear(scene.solver.gravity, glm::vec3(0, -1.62f, 0));
    EXPECT_FLOAT_EQ(scene.solver.damping, 0.5f);
    EXPECT_FLOAT_EQ(scene.solver.collisionMargin, 0.02f);
    EXPECT_FLOAT_EQ(scene.solver.stencilStep, 0.002f);

    expectNear(scene.camera.target, glm::vec3(1, 2, 3));
    EXPECT_FLOAT_EQ(scene.camera.distance, 7.0f);
    EXPECT_FLOAT_EQ(scene.camera.yawDegrees, -45.0f);
    EXPECT_FLOAT_EQ(scene.camera.pitchDegrees, 10.0f);
    EXPECT_FLOAT_EQ(scene.camera.fovDegrees, 60.0f);

    ASSERT_EQ(scene.cloths.size(), 1u);
    const ClothObject& sail = scene.cloths[0];
    EXPECT_EQ(sail.name, "sail");
    expectNear(sail.grid.size, glm::vec2(3, 1.5f));
    EXPECT_EQ(sail.grid.resolution, glm::uvec2(10, 5));
    expectNear(sail.position, glm::vec3(0.5f, 2, -1));
    const float halfSqrt2 = glm::one_over_root_two<float>();
    expectNear(sail.rotation, glm::vec4(0, 0, halfSqrt2, halfSqrt2));
    EXPECT_FLOAT_EQ(sail.mass, 2.5f);
    EXPECT_EQ(sail.pinned, (std::vector<glm::uvec2>{{0, 0}, {9, 4}, {3, 2}}));
    expectParams(sail.stretch, {.model = ConstraintModel::Xpbd, .stiffness = 1.0f, .compliance = 1e-6f});
    expectParams(sail.bending, {.model = ConstraintModel::Pbd, .stiffness = 0.25f, .enabled = false});
    expectParams(sail.attachment, {.model = ConstraintModel::Xpbd, .compliance = 1e-3f});
    EXPECT_TRUE(sail.pinsAsAttachments);
    expectNear(sail.initialVelocity, glm::vec3(1, 0, 0));
    expectNear(sail.color, glm::vec3(0.1f, 0.2f, 0.3f));

    ASSERT_EQ(scene.colliders.size(), 4u);
    const ColliderDesc& ball = scene.colliders[0];
    EXPECT_EQ(ball.name, "ball");
    EXPECT_EQ(ball.shape, ColliderShape::Sphere);
    expectNear(ball.position, glm::vec3(0, 1, 0));
    EXPECT_FLOAT_EQ(ball.radius, 0.25f);
    EXPECT_FLOAT_EQ(ball.friction, 0.7f);
    EXPECT_FLOAT_EQ(ball.restitution, 0.5f);
    EXPECT_FLOAT_EQ(ball.thickness, 0.03f);

    const ColliderDesc& box = scene.colliders[1];
    EXPECT_EQ(box.name, "box1") << "unnamed colliders are called <type><index>";
    EXPECT_EQ(box.shape, ColliderShape::Box);
    expectNear(box.halfExtents, glm::vec3(1, 2, 3));
    // 90 degrees about +Y (the axis is normalised): (0, sin 45, 0, cos 45).
    expectNear(box.rotation, glm::vec4(0, halfSqrt2, 0, halfSqrt2));

    const ColliderDesc& capsule = scene.colliders[2];
    EXPECT_EQ(capsule.shape, ColliderShape::Capsule);
    EXPECT_FLOAT_EQ(capsule.radius, 0.1f);
    EXPECT_FLOAT_EQ(capsule.halfLength, 0.4f);

    const ColliderDesc& plane = scene.colliders[3];
    const ColliderDesc defaults;
    EXPECT_EQ(plane.name, "plane3");
    EXPECT_EQ(plane.shape, ColliderShape::Plane);
    expectNear(plane.position, defaults.position);
    expectNear(plane.rotation, defaults.rotation);
    EXPECT_EQ(plane.friction, defaults.friction);
    EXPECT_EQ(plane.restitution, defaults.restitution);
    EXPECT_EQ(plane.thickness, defaults.thickness);
}

TEST(SceneLoader, ParseSceneReadsTextInMemory) {
    const Scene scene = parseScene(R"({ "objects": [ { "type": "cloth", "mass": 3 } ] })", "inline/text.json");
    EXPECT_EQ(scene.path, "inline/text.json");
    EXPECT_EQ(scene.name, "text");
    ASSERT_EQ(scene.cloths.size(), 1u);
    EXPECT_FLOAT_EQ(scene.cloths[0].mass, 3.0f);
}

TEST(SceneLoader, ReadsTheRigidIntegrator) {
    EXPECT_EQ(parseScene(R"({ "bodies": [ { "type": "sphere" } ] })", "a.json").solver.rigid.integrator,
              RigidIntegrator::SymplecticEuler);
    const Scene scene =
        parseScene(R"({ "solver": { "rigid": { "integrator": "midpoint" } }, "bodies": [ { "type": "sphere" } ] })",
                   "b.json");
    EXPECT_EQ(scene.solver.rigid.integrator, RigidIntegrator::Midpoint);
}

// docs/scene-format.md, "solver.air" and "aero": still air by default and
// no object in the wind; an "aero" block alone is C_d 1, C_l 0.
TEST(SceneLoader, ReadsTheAirAndAnObjectsAero) {
    const Scene still = parseScene(R"({ "objects": [ { "type": "cloth" } ] })", "still.json");
    EXPECT_EQ(still.solver.air, AirSettings{});
    EXPECT_FALSE(still.solver.air.blows());
    EXPECT_FALSE(still.cloths[0].aero.feelsWind());
    const Scene windy = parseScene(R"({ "solver": { "air": { "density": 1.0, "wind": [3, 0, -1],
        "gusts": { "strength": 2, "scale": 0.5, "period": 4, "seed": 4294967295 } } },
        "objects": [ { "type": "cloth", "aero": {} }, { "type": "mesh", "file": "../assets/flag.obj",
        "method": "springs", "aero": { "drag": 0.8, "lift": 0.4 } } ] })",
                                   kScenesDir / "windy.json");
    const AirSettings& air = windy.solver.air;
    EXPECT_EQ(air.density, 1.0f);
    EXPECT_EQ(air.wind, glm::vec3(3.0f, 0.0f, -1.0f));
    EXPECT_EQ(air.gusts, (GustSettings{.strength = 2.0f, .scale = 0.5f, .period = 4.0f, .seed = 4294967295u}));
    EXPECT_TRUE(air.blows());
    EXPECT_EQ(windy.cloths[0].aero, (AeroParams{.drag = 1.0f, .lift = 0.0f}));
    EXPECT_EQ(windy.cloths[1].aero, (AeroParams{.drag = 0.8f, .lift = 0.4f}));
}

// ---------------------------------------------------------------------------
// Errors

void expectOneLine(const std::string& message) {
    EXPECT_EQ(message.find('\n'), std::string::npos) << "not one line: " << message;
    EXPECT_EQ(message.find('\r'), std::string::npos) << "not one line: " << message;
}

TEST(SceneLoader, MissingFileGivesACleanError) {
    const fs::path missing = kBadScenesDir / "does_not_exist.json";
    try {
        loadScene(missing);
        FAIL() << "loaded a file that does not exist";
    } catch (const SceneError& error) {
        EXPECT_EQ(std::string(error.what()), missing.string() + ": cannot open file: No such file or directory");
    }
}

TEST(SceneLoader, DirectoryIsNotAScene) {
    try {
        loadScene(kScenesDir);
        FAIL() << "loaded a directory";
    } catch (const SceneError& error) {
        EXPECT_EQ(std::string(error.what()), kScenesDir.string() + ": cannot open file: Is a directory");
    }
}

TEST(SceneLoader, ErrorStaysOneLineWhenAKeyHoldsANewline) {
    try {
        parseScene(R"({ "objects": [ { "type": "cloth" } ], "bad\nkey": 1 })", "newline.json");
        FAIL() << "accepted an unknown key";
    } catch (const SceneError& error) {
        const std::string message = error.what();
        expectOneLine(message);
        EXPECT_NE(message.find(R"(unknown key "bad\nkey")"), std::string::npos) << message;
    }
}

// One line of tests/bad_scenes/expected.txt: a file and a substring its error must contain.
struct BadScene {
    std::string fileName;
    std::string expectedSubstring;
};

// Names the case in test output (instead of GoogleTest's byte dump).
void PrintTo(const BadScene& scene, std::ostream* out) { *out << scene.fileName; }

// Lines are "<file name>\t<substring>"; blank lines and lines starting with '#' are skipped.
std::vector<BadScene> readExpectedErrors() {
    std::vector<BadScene> cases;
    std::ifstream list(kBadScenesDir / "expected.txt");
    std::string line;
    while (std::getline(list, line)) {
        if (line.empty() || line[0] == '#') continue;
        const std::size_t tab = line.find('\t');
        if (tab == std::string::npos) {
            cases.push_back({line, ""});  // the coverage test below reports it
            continue;
        }
        cases.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return cases;
}

TEST(SceneLoader, EveryBadSceneHasAnExpectedError) {
    const std::vector<BadScene> cases = readExpectedErrors();
    ASSERT_GE(cases.size(), 15u) << "cannot read " << kBadScenesDir / "expected.txt";

    std::set<std::string> listed;
    for (const BadScene& bad : cases) {
        EXPECT_FALSE(bad.expectedSubstring.empty()) << bad.fileName << ": no tab-separated substring in expected.txt";
        EXPECT_TRUE(listed.insert(bad.fileName).second) << bad.fileName << " is listed twice in expected.txt";
        EXPECT_TRUE(fs::exists(kBadScenesDir / bad.fileName)) << bad.fileName << " is listed but missing";
    }
    for (const fs::directory_entry& entry : fs::directory_iterator(kBadScenesDir)) {
        if (entry.path().extension() != ".json") continue;
        EXPECT_TRUE(listed.count(entry.path().filename().string()))
            << entry.path().filename() << " has no line in expected.txt";
    }
}

class SceneLoaderBadInput : public testing::TestWithParam<BadScene> {};

TEST_P(SceneLoaderBadInput, IsRejectedWithAOneLineErrorNamingFileAndValue) {
    const BadScene& bad = GetParam();
    const fs::path file = kBadScenesDir / bad.fileName;
    try {
        loadScene(file);
        FAIL() << bad.fileName << " was accepted";
    } catch (const SceneError& error) {
        const std::string message = error.what();
        EXPECT_TRUE(message.starts_with(file.string() + ": ")) << message;
        EXPECT_NE(message.find(bad.expectedSubstring), std::string::npos)
            << "expected to contain: " << bad.expectedSubstring << "\n                 got: " << message;
        expectOneLine(message);
    }
}

std::string testNameOf(const testing::TestParamInfo<BadScene>& info) {
    std::string name = fs::path(info.param.fileName).stem().string();
    std::replace_if(name.begin(), name.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
    return name;
}

// The prefix starts with "Scene" so that --gtest_filter='Scene*' selects the corpus too.
INSTANTIATE_TEST_SUITE_P(SceneCorpus, SceneLoaderBadInput, testing::ValuesIn(readExpectedErrors()), testNameOf);

}  // namespace
}  // namespace vksim
