// "type": "mesh" objects and colliders in scene files (scene_loader.h,
// scene_assets.h) and what the model builder makes of them: cloth particles
// with area-weighted masses, edges as stretch constraints, bending across
// interior edges, pins by vertex number and by region; mesh colliders with
// their grid in the model's buffer, shared between colliders of the same
// mesh, and the log lines the program prints.
#include <chrono>
#include <filesystem>
#include <iostream>

#include <fmt/format.h>
#include <glm/gtc/quaternion.hpp>
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "../common/time_bounds.h"
#include "geometry/shared_math.h"
#include "geometry/signed_distance_grid.h"
#include "io/triangle_surface.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"

namespace vksim::test {
namespace {

// A scene in the scratch folder (so that caches land there), next to a copy
// of the corpus files it names.
Scene sceneIn(const ScratchFolder& folder, const std::string& json, std::initializer_list<const char*> meshes) {
    for (const char* mesh : meshes) std::filesystem::copy_file(meshCorpus(mesh), folder / mesh);
    return parseScene(json, folder / "scene.json");
}

// "attachments" on a mesh name OBJ vertex numbers ("vertices"); the built
// model holds each as its particle, the body's collider row (after the
// scene's colliders) and the vertex's rest position in that row's frame
// (docs/physics.md §1, "Attachments to bodies and colliders").
TEST(MeshScene, AttachmentsByVertexNumberBecomePointsInTheBodysFrame) {
    ScratchFolder folder;
    const Scene scene = sceneIn(folder, R"({
        "bodies": [ { "type": "box", "name": "crate", "position": [0.5, -1, 0],
                      "rotation": { "axis": [0, 1, 0], "degrees": 90 } } ],
        "colliders": [ { "type": "plane", "name": "ground", "position": [0, -3, 0] } ],
        "objects": [ { "type": "mesh", "name": "sheet", "file": "sheet_duplicates.obj", "pinned": [1],
                       "attachments": [ { "body": "crate", "vertices": [3, 7], "maxDistance": 0.1 } ] } ] })",
                                {"sheet_duplicates.obj"});
    const ClothObject& cloth = scene.cloths[0];
    ASSERT_EQ(cloth.attachments.size(), 1u);
    const TriangleSurface& surface = *cloth.mesh->surface;
    EXPECT_EQ(cloth.attachments[0].vertices,
              (std::vector<uint32_t>{surface.fileVertexToVertex[2], surface.fileVertexToVertex[6]}));
    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.frameAttachments.size(), 2u);
    for (const gpu::FrameAttachment& a : model.frameAttachments) {
        EXPECT_EQ(a.collider, 1u);  // the crate's row, after the ground
        EXPECT_EQ(a.local.w, 0.1f);
        // Back to the world by the body's initial pose: the vertex's rest position.
        const gpu::RigidBodyState& state = model.rigid.states[0];
        const glm::dquat q(state.rotation.w, state.rotation.x, state.rotation.y, state.rotation.z);
        const glm::dvec3 origin = glm::dvec3(glm::vec3(state.position)) +
                                  q * glm::dvec3(glm::vec3(model.rigid.shapes[0].position));
        const glm::dvec3 world = origin + q * glm::dvec3(glm::vec3(a.local));
        EXPECT_NEAR(glm::length(world - glm::dvec3(glm::vec3(model.positions[a.particle]))), 0.0, 1e-6);
    }
}

TEST(MeshScene, ClothFromObjWithPinsByNumberAndRegion) {
    ScratchFolder folder;
    const Scene scene = sceneIn(folder, R"({
        "objects": [ { "type": "mesh", "name": "sheet", "file": "sheet_duplicates.obj",
                       "scale": 2, "position": [0, 1, 0], "rotation": { "axis": [1, 0, 0], "degrees": 90 },
                       "mass": 0.6, "pinned": [1, -2],
                       "pinnedRegions": [ { "min": [1.5, 0.5, -1], "max": [3, 3, 1] } ] } ] })",
                                {"sheet_duplicates.obj"});
    ASSERT_EQ(scene.cloths.size(), 1u);
    const ClothObject& cloth = scene.cloths[0];
    ASSERT_TRUE(cloth.mesh.has_value());
    // File vertex 1 (0,0,0); -2 is file vertex 8 = (1.0000001, 1, 0), welded
    // into file vertex 3; the region holds (2, 1, 0).
    const TriangleSurface& surface = *cloth.mesh->surface;
    EXPECT_EQ(cloth.mesh->pinnedVertices,
              (std::vector<uint32_t>{surface.fileVertexToVertex[0], surface.fileVertexToVertex[2],
                                     surface.fileVertexToVertex[6]}));
    ASSERT_EQ(scene.assetLog.size(), 1u);
    std::cout << "[mesh scene] " << scene.assetLog[0] << "\n";
    EXPECT_NE(scene.assetLog[0].find("6 vertices (9 in the file"), std::string::npos);

    ModelDiagnostics diagnostics;
    const SimModel model = buildModel(scene, &diagnostics);
    EXPECT_EQ(model.particleCount(), 6u);
    EXPECT_EQ(model.triangleCount(), 4u);
    EXPECT_EQ(model.pbd.distance.size(), 9u);  // every edge
    EXPECT_EQ(model.pbd.bending.size(), 3u);   // every interior edge
    double mass = 0.0;
    uint32_t pinned = 0;
    for (const glm::vec4& x : model.positions) {
        if (x.w == 0.0f) ++pinned;
        else mass += 1.0 / x.w;
    }
    EXPECT_EQ(pinned, 3u);
    // Area-weighted: the corner (0, 1, 0) has one triangle of area 0.5 (in
    // file units; the mass only depends on ratios): 0.6 * (0.5 / 3) / 2.
    const uint32_t corner = surface.fileVertexToVertex[3];
    EXPECT_NEAR(1.0 / model.positions[corner].w, 0.6 * (0.5 / 3.0) / 2.0, 1e-6);
    EXPECT_GT(mass, 0.0);
    // Scaled by 2, turned 90 degrees about x (y -> z), moved up by 1.
    const glm::dvec3 far = glm::dvec3(model.positions[surface.fileVertexToVertex[6]]);
    EXPECT_NEAR(glm::length(far - glm::dvec3(4.0, 1.0, 2.0)), 0.0, 1e-6);
}

TEST(MeshScene, MassesOfAMeshClothSumToItsMass) {
    ScratchFolder folder;
    writeTextFile(folder / "sphere.obj", makeIcosphere(0.5, 2).obj());
    const Scene scene = parseScene(R"({ "objects": [ { "type": "mesh", "file": "sphere.obj", "mass": 2.5 } ] })",
                                   folder / "scene.json");
    const SimModel model = buildModel(scene);
    double mass = 0.0;
    for (const glm::vec4& x : model.positions) mass += 1.0 / x.w;
    EXPECT_NEAR(mass, 2.5, 1e-5);
    EXPECT_EQ(scene.cloths[0].name, "mesh0");
}

TEST(MeshScene, MeshCollidersShareAGridAndCarryTheirSurface) {
    ScratchFolder folder;
    const Scene scene = sceneIn(folder, R"({
        "objects": [ { "type": "cloth" } ],
        "colliders": [
            { "type": "mesh", "name": "a", "file": "tetrahedron.obj", "resolution": 8 },
            { "type": "plane" },
            { "type": "mesh", "name": "b", "file": "tetrahedron.obj", "resolution": 8, "scale": 3,
              "position": [2, 0, 0] },
            { "type": "mesh", "name": "c", "file": "tetrahedron.obj", "resolution": 12 } ] })",
                                {"tetrahedron.obj"});
    for (const std::string& line : scene.assetLog) std::cout << "[mesh scene] " << line << "\n";
    ASSERT_EQ(scene.assetLog.size(), 3u);  // the mesh once, two grids
    EXPECT_NE(scene.assetLog[1].find("baked in"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(folder / "tetrahedron.obj.r8.sdfcache"));

    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.colliders.size(), 4u);
    EXPECT_EQ(model.colliders[0].type, gpu::kColliderMesh);
    EXPECT_EQ(model.colliders[0].size.x, model.colliders[2].size.x);  // one grid for a and b
    EXPECT_NE(model.colliders[0].size.x, model.colliders[3].size.x);
    EXPECT_EQ(model.colliders[2].size.y, 3.0f);
    const SignedDistanceGrid& eight = *scene.colliders[0].meshSdf;
    const SignedDistanceGrid& twelve = *scene.colliders[3].meshSdf;
    EXPECT_EQ(model.meshSdfGrids.size(), 2 * gpu::kMeshSdfHeaderFloats + eight.values.size() + twelve.values.size());
    EXPECT_TRUE(model.colliderSurfaces[1].triangles.empty());
    EXPECT_EQ(model.colliderSurfaces[2].triangles.size(), 12u);
    EXPECT_EQ(model.colliderSurfaces[2].positions[1], glm::vec3(3, 0, 0));

    // b is a at 3 times the size, 2 m along x.
    const ref::MeshSdfGridScope grids(model.meshSdfGrids);
    auto f = [&](const gpu::Collider& c, glm::dvec3 p) {
        return ref::sdfWorld(c.type, glm::dvec3(glm::vec3(c.position)), glm::dvec4(c.rotation), glm::dvec4(c.size), p);
    };
    const glm::dvec3 p(0.1, 0.2, -0.3);
    EXPECT_NEAR(f(model.colliders[2], glm::dvec3(2, 0, 0) + 3.0 * p), 3.0 * f(model.colliders[0], p), 1e-5);

    // A second load reads the caches.
    const Scene again = parseScene(R"({ "objects": [ { "type": "cloth" } ],
        "colliders": [ { "type": "mesh", "file": "tetrahedron.obj", "resolution": 8 } ] })",
                                   folder / "scene.json");
    EXPECT_NE(again.assetLog[1].find("loaded from cache"), std::string::npos) << again.assetLog[1];
    EXPECT_EQ(again.colliders[0].meshSdf->values, eight.values);
}

TEST(MeshScene, ErrorsNameTheSceneTheKeyAndTheMeshFile) {
    ScratchFolder folder;
    for (const char* mesh : {"open_cube.obj", "sheet_duplicates.obj", "bad_index_zero.obj"})
        std::filesystem::copy_file(meshCorpus(mesh), folder / mesh);
    auto errorOf = [&](const std::string& json) {
        try {
            parseScene(json, folder / "scene.json");
        } catch (const SceneError& error) {
            return std::string(error.what());
        }
        return std::string("(no error)");
    };
    const std::string scene = (folder / "scene.json").string(), dir = folder.path().string();
    EXPECT_EQ(errorOf(R"({ "objects": [ { "type": "cloth" } ],
                           "colliders": [ { "type": "mesh", "file": "open_cube.obj" } ] })"),
              fmt::format("{}: /colliders/0/file: {}/open_cube.obj: not a closed surface: the edge between vertices 5 "
                          "and 6 (line 11) belongs to 1 face (4 boundary, 0 non-manifold edges); a mesh collider needs "
                          "a closed surface",
                          scene, dir));
    EXPECT_EQ(errorOf(R"({ "objects": [ { "type": "mesh", "file": "bad_index_zero.obj" } ] })"),
              fmt::format("{}: /objects/0/file: {}/bad_index_zero.obj: line 4: face 1 uses vertex index 0; OBJ "
                          "indices start at 1",
                          scene, dir));
    EXPECT_EQ(errorOf(R"({ "objects": [ { "type": "mesh", "file": "sheet_duplicates.obj", "pinned": [9] } ] })"),
              fmt::format("{}: /objects/0/pinned/0: vertex 9 is not used by any face", scene));
    EXPECT_EQ(errorOf(R"({ "objects": [ { "type": "mesh", "file": "sheet_duplicates.obj", "pinned": [2, 5] } ] })"),
              fmt::format("{}: /objects/0/pinned/1: vertex 5 is already pinned by /objects/0/pinned/0", scene));
    EXPECT_NE(errorOf(R"({ "objects": [ { "type": "mesh", "file": "sheet_duplicates.obj", "size": [1, 1] } ] })")
                  .find(R"(/objects/0/size: unknown key "size" for a mesh object)"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({ "objects": [ { "type": "mesh" } ] })").find(R"(/objects/0: missing required key "file")"),
              std::string::npos);
    EXPECT_NE(errorOf(R"({ "objects": [ { "type": "cloth" } ],
                           "colliders": [ { "type": "sphere", "file": "x.obj" } ] })")
                  .find(R"(unknown key "file" for a sphere collider)"),
              std::string::npos);
}

// 32 mesh colliders whose grids together pass 2^24 floats: refused from the
// grids' layouts, before any is baked (it used to bake them all, minutes at
// resolution 256, and only then count).
TEST(MeshScene, TooManyGridFloatsAreRefusedBeforeAnyIsBaked) {
    ScratchFolder folder;
    std::filesystem::copy_file(meshCorpus("tetrahedron.obj"), folder / "tetrahedron.obj");
    std::string colliders;
    for (int i = 0; i < 32; ++i)  // distinct resolutions: grids are shared only at the same one
        colliders += fmt::format(R"({}{{ "type": "mesh", "file": "tetrahedron.obj", "resolution": {} }})",
                                 i > 0 ? ", " : "", 100 + i);
    const auto start = std::chrono::steady_clock::now();
    std::string message = "(no error)";
    try {
        parseScene(R"({ "objects": [ { "type": "cloth" } ], "colliders": [ )" + colliders + "] }",
                   folder / "scene.json");
    } catch (const SceneError& error) {
        message = error.what();
    }
    const std::chrono::duration<double> seconds = std::chrono::steady_clock::now() - start;
    std::cout << "[mesh scene] " << message << " (" << seconds.count() << " s)\n";
    // (109 + i)^3 samples each (8 header floats): the twelfth grid passes 2^24 floats in all.
    EXPECT_EQ(message, fmt::format("{}: /colliders/11/resolution: the mesh distance grids need {} floats in "
                                   "all with this one; at most 16777216 (2^24) fit (lower a resolution)",
                                   (folder / "scene.json").string(), [] {
                                       std::size_t total = 0;
                                       for (std::size_t n = 109; n <= 120; ++n) total += 8 + n * n * n;
                                       return total;
                                   }()));
    for (const auto& entry : std::filesystem::directory_iterator(folder.path()))
        EXPECT_NE(entry.path().extension(), ".sdfcache") << "baked " << entry.path();
    EXPECT_LT(seconds.count(), 5.0 * kTimeBoundScale);
}

}  // namespace
}  // namespace vksim::test
