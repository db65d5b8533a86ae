// --export (app/frame_exporter.h) through the headless frame loop: the files
// are named <object>_<frame:05d> for frames 0, K, 2K, ...; each holds the
// state of its frame, read back without stalling the loop (a copy into the
// frame slot's host-visible buffer, written when the slot is collected); the
// copies' barriers pass synchronization validation.
#include <unistd.h>

#include <bit>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "../common/obj_file.h"
#include "app/frame_exporter.h"
#include "gpu_harness.h"
#include "run/frame_loop.h"
#include "world/world.h"

namespace vksim::test {
namespace {

class Export : public GpuTest {
protected:
    void SetUp() override {
        GpuTest::SetUp();
        dir_ = std::filesystem::temp_directory_path() / fmt::format("vksim_export_test_{}", ::getpid());
        std::filesystem::remove_all(dir_);
    }
    void TearDown() override {
        std::filesystem::remove_all(dir_);
        GpuTest::TearDown();
    }
    std::filesystem::path dir_;
};

// Two cloths over a sphere; the second's name needs sanitising and its
// particles start after the first's, so its triangle indices must be made local.
Scene twoClothsOverASphere() {
    Scene scene = clothScene({6, 5}, {1.0f, 1.0f}, 1.2f);
    ClothObject second = scene.cloths[0];
    second.name = "second/cloth";
    second.grid.resolution = {4, 4};
    second.position = {1.5f, 1.2f, 0.0f};
    scene.cloths.push_back(second);
    ColliderDesc sphere;
    sphere.shape = ColliderShape::Sphere;
    sphere.name = "ball";
    sphere.position = {0.0f, 0.5f, 0.0f};
    scene.colliders.push_back(sphere);
    return scene;
}

std::vector<std::byte> readBytes(const std::filesystem::path& path) {
    std::ifstream file(path, std::ios::binary);
    std::vector<char> chars((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::byte> bytes(chars.size());
    std::memcpy(bytes.data(), chars.data(), chars.size());
    return bytes;
}

TEST_F(Export, ObjEveryOtherFrameHoldsThatFramesPositionsNormalsAndFaces) {
    World sim(ctx(), twoClothsOverASphere(), kHeadlessFramesInFlight);
    FrameExporter exporter(ctx(), sim,
                           {dir_ / "created/on/demand", MeshFormat::Obj, 2}, kHeadlessFramesInFlight);
    FrameObserver* observers[] = {&exporter};
    simulateFrames(ctx(), sim, 5, observers);

    EXPECT_EQ(filesIn(dir_ / "created/on/demand"),
              (std::set<std::string>{"cloth_00000.obj", "cloth_00002.obj", "cloth_00004.obj",
                                     "second_cloth_00000.obj", "second_cloth_00002.obj", "second_cloth_00004.obj"}));
    EXPECT_EQ(exporter.framesWritten(), 3u);

    // Frame 4 is the last frame: its files must hold the state the GPU ends with.
    const std::vector<glm::vec4> positions = sim.particles().readPositions();
    const std::vector<glm::vec4> normals = sim.normals().downloadArray<glm::vec4>();
    const SimModel& model = sim.model();
    ASSERT_EQ(model.objects.size(), 2u);
    for (size_t o = 0; o < model.objects.size(); ++o) {
        const ObjectRange& range = model.objects[o];
        const ObjMesh last = readObj(exporter.filePath(o, 4));
        ASSERT_EQ(last.v.size(), range.particleCount) << range.name;
        ASSERT_EQ(last.vn.size(), range.particleCount) << range.name;
        for (uint32_t i = 0; i < range.particleCount; ++i) {
            EXPECT_EQ(glm::vec3(last.v[i]), glm::vec3(positions[range.firstParticle + i])) << range.name << " vertex " << i;
            EXPECT_EQ(glm::vec3(last.vn[i]), glm::vec3(normals[range.firstParticle + i])) << range.name << " normal " << i;
        }
        ASSERT_EQ(last.faces.size(), 3 * size_t{range.triangleCount});
        for (size_t k = 0; k < last.faces.size(); ++k)
            EXPECT_EQ(last.faces[k] + range.firstParticle, model.triangles[3 * range.firstTriangle + k]);
        // The cloth fell between frames 0 and 4: the files are of different frames.
        const ObjMesh first = readObj(exporter.filePath(o, 0));
        EXPECT_GT(first.v.at(range.particleCount - 1).y, last.v.at(range.particleCount - 1).y) << range.name;
    }
    std::cout << fmt::format("[export] 5 frames, every 2nd exported: 6 OBJ files; frame 4 equals the final GPU "
                             "state bit for bit ({} + {} vertices)\n",
                             model.objects[0].particleCount, model.objects[1].particleCount);
}

TEST_F(Export, PlyBodyIsTheFramesStateInLittleEndianFloats) {
    if constexpr (std::endian::native != std::endian::little) GTEST_SKIP() << "reads the floats in host order";
    World sim(ctx(), twoClothsOverASphere(), kHeadlessFramesInFlight);
    FrameExporter exporter(ctx(), sim,
                           {dir_, MeshFormat::Ply, 1}, kHeadlessFramesInFlight);
    FrameObserver* observers[] = {&exporter};
    simulateFrames(ctx(), sim, 3, observers);
    EXPECT_EQ(filesIn(dir_).size(), 6u);  // frames 0, 1, 2 of two objects

    const std::vector<glm::vec4> positions = sim.particles().readPositions();
    const ObjectRange& range = sim.model().objects[1];
    const std::vector<std::byte> bytes = readBytes(exporter.filePath(1, 2));
    const std::string text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const std::string endHeader = "end_header\n";
    const size_t body = text.find(endHeader) + endHeader.size();
    EXPECT_NE(text.find(fmt::format("element vertex {}\n", range.particleCount)), std::string::npos);
    EXPECT_NE(text.find(fmt::format("element face {}\n", range.triangleCount)), std::string::npos);
    ASSERT_EQ(bytes.size(), body + 24 * size_t{range.particleCount} + 13 * size_t{range.triangleCount});
    for (uint32_t i = 0; i < range.particleCount; ++i) {
        glm::vec3 stored;
        std::memcpy(&stored, bytes.data() + body + 24 * i, sizeof(stored));
        EXPECT_EQ(stored, glm::vec3(positions[range.firstParticle + i])) << "vertex " << i;
    }
}

TEST_F(Export, UnwritableDirectoryIsAOneLineError) {
    World sim(ctx(), twoClothsOverASphere(), kHeadlessFramesInFlight);
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "a_file") << "not a directory";
    try {
        FrameExporter exporter(ctx(), sim,
                               {dir_ / "a_file" / "frames", MeshFormat::Obj, 1}, kHeadlessFramesInFlight);
        FAIL() << "a directory under a regular file was accepted";
    } catch (const std::runtime_error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("a_file/frames: cannot create directory"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

}  // namespace
}  // namespace vksim::test
