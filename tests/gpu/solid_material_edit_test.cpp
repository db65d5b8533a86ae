// A solid's material is live (World::edit with a solver's solid material
// edit; docs/physics.md §16): a softer bar sags further, the edited world is
// bit for bit a new World of the edited scene, and edits the scene could not
// hold (nu = 0.5, another density, a solid out of range) are refused,
// changing nothing.
#include <cmath>

#include <fmt/format.h>

#include "diagnostics/state_hash.h"
#include "gpu_harness.h"
#include "solvers/pbd/pbd_materials.h"
#include "solvers/pd/pd_material_edit.h"
#include "solvers/vbd/vbd_material_edit.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class SolidMaterialEdit : public GpuTest {};

// A 1 m bar of 8 x 2 x 2 cells held at -x, E = 2 MPa, sagging.
Scene sagBar(SolidMethod method) {
    Scene scene;
    SolidObject bar;
    bar.name = "bar";
    bar.shape = SolidShape::Box;
    bar.method = method;
    bar.size = {1.0f, 0.2f, 0.2f};
    bar.cells = {8, 2, 2};
    bar.position = {0.0f, 1.0f, 0.0f};
    bar.pinnedFaces = {BoxFace::MinusX};
    bar.material = ElasticMaterial{.youngsModulus = 2e6f, .poissonRatio = 0.3f, .density = 500.0f};
    scene.solids.push_back(bar);
    scene.solver.substeps = 2;
    return scene;
}

float lowestY(World& sim) {
    float lowest = INFINITY;
    for (const glm::vec4& p : sim.particles().readPositions()) lowest = std::min(lowest, p.y);
    return lowest;
}

template <class Edit>
void expectLiveMaterial(VulkanContext& ctx, SolidMethod method, const char* name) {
    const Scene scene = sagBar(method);
    World stiff(ctx, scene, 1), soft(ctx, scene, 1);
    runWorldFrames(ctx, stiff, 3);
    runWorldFrames(ctx, soft, 3);
    ElasticMaterial softer = *scene.solids[0].material;
    softer.youngsModulus = 2e5f;
    softer.poissonRatio = 0.45f;
    soft.edit(Edit{0, softer});
    EXPECT_EQ(*soft.scene().solids[0].material, softer);
    runWorldFrames(ctx, stiff, 30);
    runWorldFrames(ctx, soft, 30);
    const float stiffY = lowestY(stiff), softY = lowestY(soft);
    std::cout << fmt::format("[live solids] {}: lowest point after 33 frames {:.4f} m at E = 2 MPa, {:.4f} m after "
                             "E = 0.2 MPa, nu = 0.45 from frame 3\n",
                             name, stiffY, softY);
    EXPECT_LT(softY, stiffY - 0.01f) << name;

    soft.reset();
    World rebuilt(ctx, soft.scene(), 1);
    runWorldFrames(ctx, soft, 10);
    runWorldFrames(ctx, rebuilt, 10);
    EXPECT_EQ(hashPositions(soft.particles().readPositions()), hashPositions(rebuilt.particles().readPositions()))
        << name << ": the edited world is not a new World of the edited scene";

    for (auto change : {+[](ElasticMaterial& m) { m.poissonRatio = 0.5f; },
                        +[](ElasticMaterial& m) { m.youngsModulus = -1.0f; },
                        +[](ElasticMaterial& m) { m.youngsModulus = std::nanf(""); },
                        +[](ElasticMaterial& m) { m.density = 900.0f; }}) {
        ElasticMaterial bad = softer;
        change(bad);
        EXPECT_THROW(soft.edit(Edit{0, bad}), std::invalid_argument) << name;
        EXPECT_EQ(*soft.scene().solids[0].material, softer) << name;
    }
    EXPECT_THROW(soft.edit(Edit{1, softer}), std::invalid_argument) << name;
}

TEST_F(SolidMaterialEdit, PdSolidsAreLiveAndMatchAFreshBuild) {
    expectLiveMaterial<PdSolidMaterialEdit>(ctx(), SolidMethod::Pd, "PD");
}

TEST_F(SolidMaterialEdit, XpbdSolidsAreLiveAndMatchAFreshBuild) {
    expectLiveMaterial<PbdSolidMaterialEdit>(ctx(), SolidMethod::Xpbd, "XPBD");
}

TEST_F(SolidMaterialEdit, VbdSolidsAreLiveAndMatchAFreshBuild) {
    expectLiveMaterial<VbdMaterialEdit>(ctx(), SolidMethod::Vbd, "VBD");
}

}  // namespace
}  // namespace vksim::test
