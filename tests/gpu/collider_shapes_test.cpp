// The kernels that evaluate SDFs are built for the collider shapes their
// world has (a specialization constant, math/sdf.glsl): the others compile
// away, which lavapipe would otherwise run under an empty mask. Building for
// fewer shapes must change no bit, and the set must hold every shape the
// particle stages can meet, the rigid bodies' included.
#include <filesystem>

#include <fmt/format.h>

#include "../common/mesh_fixtures.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "state/collider_set.h"

namespace vksim::test {
namespace {

class ColliderShapes : public GpuTest {};

uint32_t bit(uint32_t shape) { return 1u << shape; }

// A cloth dropped onto a sphere, and, with `bystanders`, a plane, a box, a
// capsule and the torus mesh placed far from it: they are tested every
// substep and never touched, so the cloth must move exactly as without them.
Scene clothOnSphere(const ScratchFolder& folder, bool bystanders) {
    std::filesystem::copy_file(std::filesystem::path(VKSIM_SOURCE_DIR) / "assets" / "torus.obj", folder / "torus.obj",
                               std::filesystem::copy_options::overwrite_existing);
    std::string json = R"({
        "solver": { "substeps": 4, "iterations": 8 },
        "objects": [ { "type": "cloth", "size": [1.0, 1.0], "resolution": [16, 16], "position": [0, 0.6, 0] } ],
        "colliders": [ { "type": "sphere", "name": "ball", "radius": 0.3, "friction": 0.3 } BYSTANDERS ] })";
    const std::string others = R"(,
            { "type": "plane", "name": "far floor", "position": [0, -50, 0] },
            { "type": "box", "name": "far box", "halfExtents": [1, 1, 1], "position": [40, 0, 0] },
            { "type": "capsule", "name": "far capsule", "radius": 0.5, "halfLength": 1, "position": [-40, 0, 0] },
            { "type": "mesh", "name": "far torus", "file": "torus.obj", "resolution": 16, "position": [0, 0, 40] })";
    json.replace(json.find("BYSTANDERS"), 10, bystanders ? others : "");
    return parseScene(json, folder / "scene.json");
}

// The shape set is the world's: a sphere alone compiles one shape in, the
// bystanders bring every shape, and the positions after 30 frames (the
// cloth draped on the ball, its contacts and friction at work every
// substep) are equal bit for bit.
TEST_F(ColliderShapes, KernelsBuiltForFewerShapesChangeNoBit) {
    ScratchFolder folder;
    const Scene alone = clothOnSphere(folder, false);
    const Scene crowded = clothOnSphere(folder, true);
    const SimModel aloneModel = buildModel(alone);
    const SimModel crowdedModel = buildModel(crowded);
    GpuRun a(ctx(), aloneModel, alone.solver);
    GpuRun b(ctx(), crowdedModel, crowded.solver);
    EXPECT_EQ(a.stepper().colliders().shapes(), bit(gpu::kColliderSphere));
    EXPECT_EQ(b.stepper().colliders().shapes(),
              bit(gpu::kColliderPlane) | bit(gpu::kColliderSphere) | bit(gpu::kColliderBox) |
                  bit(gpu::kColliderCapsule) | bit(gpu::kColliderMesh));
    a.frames(30);
    b.frames(30);
    const std::vector<glm::vec4> x = a.positions();
    const std::vector<glm::vec4> y = b.positions();
    ASSERT_EQ(x.size(), y.size());
    uint32_t differing = 0;
    float lowest = 1e9f;
    for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] != y[i]) ++differing;
        lowest = std::min(lowest, x[i].y);
    }
    std::cout << fmt::format("[collider shapes] {} of {} particles differ; lowest y {:.4f} m (draped on the ball)\n",
                             differing, x.size(), lowest);
    EXPECT_EQ(differing, 0u);
    EXPECT_LT(lowest, 0.2f);  // it fell past the ball's equator: the contacts were exercised
}

// Rigid bodies become colliders of the cloth (and the rigid kernels test the
// bodies' shapes against each other), so their shapes are in the set.
TEST_F(ColliderShapes, TheSetHoldsTheRigidBodiesShapes) {
    ScratchFolder folder;
    const Scene scene = parseScene(R"({
        "objects": [ { "type": "cloth", "size": [0.5, 0.5], "resolution": [8, 8], "position": [0, 1, 0] } ],
        "bodies": [ { "type": "capsule", "radius": 0.1, "halfLength": 0.2, "mass": 1, "position": [0, 0.3, 0] } ],
        "colliders": [ { "type": "plane", "name": "ground" } ] })",
                                   folder / "scene.json");
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    EXPECT_EQ(run.stepper().colliders().shapes(), bit(gpu::kColliderPlane) | bit(gpu::kColliderCapsule));
    run.frames(2);
    // A collider may move, not take a shape the kernels were not built for.
    std::vector<gpu::Collider> colliders = model.colliders;
    colliders[0].type = gpu::kColliderCapsule;
    EXPECT_NO_THROW(run.stepper().colliders().set(colliders));
    colliders[0].type = gpu::kColliderSphere;
    EXPECT_THROW(run.stepper().colliders().set(colliders), std::invalid_argument);
}

}  // namespace
}  // namespace vksim::test
