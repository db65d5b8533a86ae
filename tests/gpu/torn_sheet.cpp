#include "torn_sheet.h"

#include <vector>

#include <glm/glm.hpp>

namespace vksim::test {

Scene tornSheet(PbdPath path, float capacity) {
    Scene scene = clothScene({6, 10}, {0.5f, 1.0f}, 1.0f);
    ClothObject& cloth = scene.cloths[0];
    cloth.stretch.stiffness = 0.02f;
    cloth.bending.stiffness = 0.1f;
    cloth.tearing = {.enabled = true, .strain = kTornSheetStrain, .capacity = capacity};
    scene.solver.gravity = glm::vec3(0.0f);
    scene.solver.damping = 0.0f;
    scene.solver.pbd.path = path;
    return scene;
}

void pullTornSheet(GpuRun& run, const SimModel& model) {
    std::vector<glm::vec3> v;
    for (const glm::vec4& x : model.positions) v.emplace_back(0.0f, 0.0f, kTornSheetPullRate * x.z);
    run.stepper().particles().writeVelocities(v);
}

}  // namespace vksim::test
