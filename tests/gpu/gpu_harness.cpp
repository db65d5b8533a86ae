#include "gpu_harness.h"

#include <algorithm>

#include <fmt/format.h>

namespace vksim::test {

VulkanContext& sharedContext() {
    static std::unique_ptr<VulkanContext> ctx = [] {
        ContextOptions options;
        options.validation = true;
        if (const char* device = std::getenv("VKSIM_TEST_DEVICE")) options.deviceSelector = device;
        auto created = std::make_unique<VulkanContext>(options);
        std::cout << fmt::format("[gpu] device: {} ({})\n", created->deviceInfo().name, created->deviceInfo().driver);
        return created;
    }();
    return *ctx;
}

void GpuTest::SetUp() { messagesBefore_ = ctx().validationCounts().total(); }

void GpuTest::TearDown() {
    EXPECT_EQ(ctx().validationCounts().total(), messagesBefore_)
        << "the validation layer reported errors or warnings during this test (see stderr)";
}

GpuRun::GpuRun(VulkanContext& ctx, const SimModel& model, const SolverSettings& settings)
    : GpuRun(ctx, model, settings, settings, 4) {}

GpuRun::GpuRun(VulkanContext& ctx, const SimModel& model, const SolverSettings& settings,
               const SolverSettings& sizedFor, uint32_t headroom)
    : ctx_(ctx),
      settings_(settings),
      stepper_(ctx, model, settings),
      timer_(ctx, 1, headroom * stepper_.maxRunsPerFrame(sizedFor, nullptr)) {
    stepper_.plan().registerPasses(timer_);
}

void GpuRun::frames(uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) {
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            // No pass timestamps: on lavapipe they cost more than a small
            // scene's passes (gpu_timer.h), and the frames still count and
            // name their passes without them.
            timer_.beginFrame(cmd, 0, false);
            StepRecorder rec(cmd, timer_, stepper_.plan());
            stepper_.recordFrame(rec, FrameInputs{settings_});
            timer_.endFrame(cmd);
        });
        timer_.collect(0);
    }
}

Scene clothScene(glm::uvec2 resolution, glm::vec2 size, float height) {
    Scene scene;
    scene.name = "test cloth";
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.resolution = resolution;
    cloth.grid.size = size;
    cloth.position = glm::vec3(0.0f, height, 0.0f);
    cloth.mass = 1.0f;
    scene.cloths.push_back(cloth);
    return scene;
}

Scene swingingCloth(uint32_t side) {
    Scene scene = clothScene({side, side}, {2.0f, 2.0f}, 1.6f);
    ClothObject& cloth = scene.cloths[0];
    cloth.pinned = {{0, 0}, {side - 1, 0}};
    cloth.pinsAsAttachments = true;
    cloth.bending.model = ConstraintModel::Xpbd;
    cloth.bending.compliance = 1e-4f;
    ColliderDesc sphere;
    sphere.shape = ColliderShape::Sphere;
    sphere.position = glm::vec3(0.0f, 0.5f, 0.3f);
    sphere.radius = 0.5f;
    sphere.friction = 0.4f;
    scene.colliders = {sphere};
    scene.path = "swinging.json";
    return scene;
}

double largestDistance(const std::vector<glm::vec4>& gpu, std::span<const glm::dvec3> cpu) {
    double worst = 0.0;
    for (size_t i = 0; i < cpu.size(); ++i) worst = std::max(worst, glm::length(glm::dvec3(gpu[i]) - cpu[i]));
    return worst;
}

std::string sourcePath(const std::string& relative) { return std::string(VKSIM_SOURCE_DIR) + "/" + relative; }

}  // namespace vksim::test
