// What a run writes about its rigid bodies: --export writes each body's
// surface at its pose (app/frame_exporter.h), --poses every body's pose and
// velocity per frame (app/pose_output.h), read back without stalling the
// frame loop. Scenes of bodies alone: nothing of the particles' is read back
// (a read-back of no particles was a buffer of 0 bytes, which crashed).
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "../common/obj_file.h"
#include "app/frame_exporter.h"
#include "app/pose_output.h"
#include "gpu_harness.h"
#include "run/frame_loop.h"
#include "solvers/rigid/rigid_solver.h"
#include "world/world.h"

namespace vksim::test {
namespace {

class RigidOutputs : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        dir_ = std::filesystem::temp_directory_path() / fmt::format("vksim_rigid_outputs_test_{}", ::getpid());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        std::filesystem::remove_all(dir_);
        GpuTest::TearDown();
    }
    std::filesystem::path dir_;
};

BodyDesc namedBody(std::string name, BodyShape shape, glm::vec3 position) {
    BodyDesc body;
    body.name = std::move(name);
    body.shape = shape;
    body.position = position;
    body.source = "/bodies/0";
    return body;
}

double largest(glm::dvec3 v) { return std::max({v.x, v.y, v.z}); }
double smallest(glm::dvec3 v) { return std::min({v.x, v.y, v.z}); }

// A box and a ball at rest without gravity: their poses stay the scene's
// (nothing moves them; each substep renormalises the quaternion, a float
// rounding). The exported box must be the box of the scene: every vertex,
// taken into the box's frame by the scene's pose (in double, independent of
// the exporter), lies on its surface (the largest |u_i| / h_i is 1) and the
// vertices span [-h, h] on each axis; every normal is a face's axis. The
// ball's vertices lie at its radius from its centre. Tolerance 1e-5 m: the
// files hold floats of coordinates below 2 m (ulp 2.4e-7 m) and OBJ's text
// keeps them to about 1e-6 relative; a wrong pose (a missed rotation, the
// shape's origin taken for the centre) is off by centimetres.
TEST_F(RigidOutputs, BodiesOnlyExportIsEachSurfaceAtItsPose) {
    Scene scene;
    scene.name = "bodies";
    scene.path = "bodies.json";
    scene.solver.gravity = glm::vec3(0.0f);
    BodyDesc box = namedBody("crate", BodyShape::Box, {0.5f, 1.0f, -0.25f});
    box.halfExtents = {0.3f, 0.2f, 0.1f};
    const glm::dquat pose = glm::angleAxis(glm::radians(40.0), glm::normalize(glm::dvec3(1.0, 2.0, 3.0)));
    box.rotation = glm::vec4(float(pose.x), float(pose.y), float(pose.z), float(pose.w));
    scene.bodies.push_back(box);
    BodyDesc ball = namedBody("ball", BodyShape::Sphere, {-1.5f, 0.5f, 0.0f});
    ball.radius = 0.25f;
    ball.source = "/bodies/1";
    scene.bodies.push_back(ball);

    World sim(ctx(), scene, kHeadlessFramesInFlight);
    ASSERT_EQ(sim.particleCount(), 0u);
    FrameExporter exporter(ctx(), sim, {dir_, MeshFormat::Obj, 1}, kHeadlessFramesInFlight);
    FrameObserver* observers[] = {&exporter};
    simulateFrames(ctx(), sim, 3, observers);

    EXPECT_EQ(filesIn(dir_), (std::set<std::string>{"crate_00000.obj", "crate_00001.obj", "crate_00002.obj",
                                                     "ball_00000.obj", "ball_00001.obj", "ball_00002.obj"}));
    EXPECT_EQ(exporter.framesWritten(), 3u);

    const ObjMesh crate = readObj(exporter.filePath(0, 2));
    ASSERT_GE(crate.v.size(), 8u);
    ASSERT_EQ(crate.vn.size(), crate.v.size());
    EXPECT_GT(crate.faces.size(), 0u);
    EXPECT_EQ(crate.faces.size() % 3, 0u);
    const glm::dvec3 h(box.halfExtents), centre(box.position);
    double surfaceError = 0.0, normalError = 0.0;
    glm::dvec3 low(1e9), high(-1e9);
    for (size_t i = 0; i < crate.v.size(); ++i) {
        const glm::dvec3 u = glm::inverse(pose) * (crate.v[i] - centre);
        surfaceError = std::max(surfaceError, std::abs(largest(glm::abs(u) / h) - 1.0) * smallest(h));
        low = glm::min(low, u);
        high = glm::max(high, u);
        const glm::dvec3 n = glm::inverse(pose) * crate.vn[i];
        normalError = std::max(normalError, 1.0 - largest(glm::abs(n)));
    }
    const double spanError = std::max(largest(glm::abs(low + h)), largest(glm::abs(high - h)));
    std::cout << fmt::format("[rigid export] crate: {} vertices, off its surface by {:.2e} m, span off by {:.2e} m, "
                             "normals off a face axis by {:.2e}\n",
                             crate.v.size(), surfaceError, spanError, normalError);
    EXPECT_LT(surfaceError, 1e-5);
    EXPECT_LT(spanError, 1e-5);
    EXPECT_LT(normalError, 1e-5);

    const ObjMesh sphere = readObj(exporter.filePath(1, 2));
    ASSERT_FALSE(sphere.v.empty());
    double radiusError = 0.0;
    for (const glm::dvec3& v : sphere.v)
        radiusError = std::max(radiusError, std::abs(glm::length(v - glm::dvec3(ball.position)) - ball.radius));
    std::cout << fmt::format("[rigid export] ball: {} vertices, off its radius by {:.2e} m\n", sphere.v.size(),
                             radiusError);
    EXPECT_LT(radiusError, 1e-5);
}

// One parsed row of a poses file.
struct PoseRow {
    uint64_t frame = 0;
    std::string body;
    std::array<float, 13> values{};  // x y z qx qy qz qw vx vy vz wx wy wz
};

// strtof: the text the writer promises reads back to the same float.
float parseFloat(const std::string& text) {
    char* end = nullptr;
    const float value = std::strtof(text.c_str(), &end);
    EXPECT_EQ(*end, '\0') << text;
    return value;
}

// The fields of one CSV line (RFC 4180: a quoted field may hold commas,
// and "" in it is a quote).
std::vector<std::string> csvFields(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            fields.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

std::vector<PoseRow> readPosesCsv(const std::filesystem::path& path) {
    std::ifstream file(path);
    std::string line;
    std::getline(file, line);
    EXPECT_EQ(line, "frame,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz");
    std::vector<PoseRow> rows;
    while (std::getline(file, line)) {
        const std::vector<std::string> fields = csvFields(line);
        EXPECT_EQ(fields.size(), 15u) << line;
        if (fields.size() != 15) continue;
        PoseRow row;
        row.frame = std::stoull(fields[0]);
        row.body = fields[1];
        for (size_t k = 0; k < 13; ++k) row.values[k] = parseFloat(fields[2 + k]);
        rows.push_back(row);
    }
    return rows;
}

std::vector<PoseRow> readPosesJson(const std::filesystem::path& path) {
    std::ifstream file(path);
    const nlohmann::json doc = nlohmann::json::parse(file);
    static const char* keys[] = {"x", "y", "z", "qx", "qy", "qz", "qw", "vx", "vy", "vz", "wx", "wy", "wz"};
    std::vector<PoseRow> rows;
    for (const nlohmann::json& entry : doc.at("poses")) {
        PoseRow row;
        row.frame = entry.at("frame").get<uint64_t>();
        row.body = entry.at("body").get<std::string>();
        // nlohmann reads numbers as double: the shortest float text reads to
        // the double nearest it, which rounds back to that float.
        for (size_t k = 0; k < 13; ++k) row.values[k] = static_cast<float>(entry.at(keys[k]).get<double>());
        rows.push_back(row);
    }
    return rows;
}

std::array<float, 13> valuesOf(const gpu::RigidBodyState& s) {
    return {s.position.x,       s.position.y,       s.position.z,       s.rotation.x,        s.rotation.y,
            s.rotation.z,       s.rotation.w,       s.linearVelocity.x, s.linearVelocity.y,  s.linearVelocity.z,
            s.angularVelocity.x, s.angularVelocity.y, s.angularVelocity.z};
}

// A ball thrown up in free fall, spinning about y (a sphere: no gyroscopic
// torque), written to CSV and JSON in the same run. Parsed back, each file
// holds one row per frame, the same floats in both, and the last row is the
// state the GPU ends with, bit for bit. Every row follows symplectic Euler,
// v_n = v0 + g h n, x_n = x0 + h n v0 + g h^2 n (n + 1) / 2 after n = (frame
// + 1) substeps: the floats follow it to the rounding of 20 frames x 4
// substeps of sums near 2 m (80 x 1.2e-7 x 2 m = 2e-5 m) and near 5 m/s
// (80 x 1.2e-7 x 5 = 5e-5 m/s); a row of the wrong frame is off by h v =
// 2 cm. The spin stays (0, 3, 0) rad/s and the quaternion unit and about y.
TEST_F(RigidOutputs, PosesRoundTripAndFollowFreeFall) {
    Scene scene;
    scene.name = "throw";
    scene.path = "throw.json";
    BodyDesc ball = namedBody("ball, \"the\" one", BodyShape::Sphere, {0.0f, 2.0f, 0.0f});
    ball.radius = 0.1f;
    ball.velocity = {0.5f, 1.0f, -0.25f};
    ball.angularVelocity = {0.0f, 3.0f, 0.0f};
    scene.bodies.push_back(ball);

    World sim(ctx(), scene, kHeadlessFramesInFlight);
    PoseWriter csv(ctx(), sim, (dir_ / "poses.csv").string(), kHeadlessFramesInFlight);
    PoseWriter json(ctx(), sim, (dir_ / "poses.json").string(), kHeadlessFramesInFlight);
    FrameObserver* observers[] = {&csv, &json};
    const uint32_t frames = 20;
    simulateFrames(ctx(), sim, frames, observers);
    csv.finish();
    json.finish();

    const std::vector<PoseRow> fromCsv = readPosesCsv(dir_ / "poses.csv");
    const std::vector<PoseRow> fromJson = readPosesJson(dir_ / "poses.json");
    ASSERT_EQ(fromCsv.size(), frames);
    ASSERT_EQ(fromJson.size(), frames);
    for (uint32_t f = 0; f < frames; ++f) {
        EXPECT_EQ(fromCsv[f].frame, f);
        EXPECT_EQ(fromJson[f].frame, f);
        EXPECT_EQ(fromJson[f].body, ball.name);
        EXPECT_EQ(fromCsv[f].body, ball.name);  // its comma and quotes survive the CSV quoting
        for (size_t k = 0; k < 13; ++k)
            EXPECT_EQ(std::bit_cast<uint32_t>(fromCsv[f].values[k]), std::bit_cast<uint32_t>(fromJson[f].values[k]))
                << "frame " << f << " value " << k;
    }
    const std::array<float, 13> last = valuesOf(sim.solver<RigidSolver>().readStates().at(0));
    for (size_t k = 0; k < 13; ++k)
        EXPECT_EQ(std::bit_cast<uint32_t>(fromCsv.back().values[k]), std::bit_cast<uint32_t>(last[k])) << "value " << k;

    const double h = double(scene.solver.timeStep) / scene.solver.substeps;
    const glm::dvec3 g(scene.solver.gravity), x0(ball.position), v0(ball.velocity);
    double positionError = 0.0, velocityError = 0.0, spinError = 0.0, unitError = 0.0, axisError = 0.0;
    for (uint32_t f = 0; f < frames; ++f) {
        const std::array<float, 13>& r = fromCsv[f].values;
        const double n = double(f + 1) * scene.solver.substeps;
        const glm::dvec3 x = x0 + h * n * v0 + g * h * h * n * (n + 1.0) / 2.0;
        const glm::dvec3 v = v0 + g * h * n;
        positionError = std::max(positionError, glm::length(glm::dvec3(r[0], r[1], r[2]) - x));
        velocityError = std::max(velocityError, glm::length(glm::dvec3(r[7], r[8], r[9]) - v));
        spinError = std::max(spinError, glm::length(glm::dvec3(r[10], r[11], r[12]) - glm::dvec3(ball.angularVelocity)));
        unitError = std::max(unitError, std::abs(glm::length(glm::dvec4(r[3], r[4], r[5], r[6])) - 1.0));
        axisError = std::max(axisError, std::max(std::abs(double(r[3])), std::abs(double(r[5]))));
    }
    std::cout << fmt::format("[poses] {} frames, CSV = JSON = GPU bits; against symplectic Euler: position {:.2e} m, "
                             "velocity {:.2e} m/s; spin {:.2e} rad/s; |q| - 1 {:.2e}; q off the y axis {:.2e}\n",
                             frames, positionError, velocityError, spinError, unitError, axisError);
    EXPECT_LT(positionError, 2e-5);
    EXPECT_LT(velocityError, 5e-5);
    EXPECT_LT(spinError, 1e-5);  // omega x I omega is 0 for a sphere, up to the rounding of I omega
    EXPECT_LT(unitError, 1e-6);  // renormalised every substep
    EXPECT_LT(axisError, 1e-6);
}

// A scene without bodies: the poses file is its header alone (no read-back
// of nothing).
TEST_F(RigidOutputs, PosesOfNoBodiesIsTheHeader) {
    World sim(ctx(), clothScene({4, 4}, {1.0f, 1.0f}, 1.0f), kHeadlessFramesInFlight);
    PoseWriter csv(ctx(), sim, (dir_ / "none.csv").string(), kHeadlessFramesInFlight);
    FrameObserver* observers[] = {&csv};
    simulateFrames(ctx(), sim, 2, observers);
    csv.finish();
    std::ifstream file(dir_ / "none.csv");
    std::stringstream text;
    text << file.rdbuf();
    EXPECT_EQ(text.str(), "frame,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n");
}

}  // namespace
}  // namespace vksim::test
