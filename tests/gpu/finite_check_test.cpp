// A simulation that goes NaN or Inf is caught by the end-of-frame check and
// reported with the frame, substep, pass and iteration where it happened,
// found by replaying with a probe after every pass. The NaNs are injected
// deterministically into the initial model or the scene, so each test knows
// the first pass whose output must go non-finite.
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "app/headless_app.h"
#include "diagnostics/non_finite_replay.h"
#include "geometry/collider_bounds.h"
#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "world/world.h"

namespace vksim::test {
namespace {

class FiniteCheck : public GpuTest {};

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

// An 8x8 cloth above a ball on the ground, two corners held by attachments, so
// every kind of pass runs (and is probed in replays). Few substeps and
// iterations: the replay probes every pass, and lavapipe is slow.
Scene clothOverBall() {
    Scene scene = clothScene({8, 8}, {1.0f, 1.0f}, 0.7f);
    scene.solver.substeps = 2;
    scene.solver.pbd.iterations = 3;
    scene.cloths[0].pinned = {{0, 0}, {7, 0}};
    scene.cloths[0].pinsAsAttachments = true;
    ColliderDesc ball;
    ball.name = "ball";
    ball.shape = ColliderShape::Sphere;
    ball.position = {0.0f, 0.3f, 0.2f};
    ball.radius = 0.3f;
    ColliderDesc ground;
    ground.name = "ground";
    scene.colliders = {ball, ground};
    return scene;
}

// Runs frames the way the frame loops do (alternating slots, each collected
// before it is recorded again), but waits after every frame. Returns the
// first frame the end-of-frame check flagged.
std::optional<uint64_t> runUntilNonFinite(VulkanContext& ctx, World& sim, uint32_t frames) {
    for (uint32_t frame = 0; frame < frames; ++frame) {
        const uint32_t slot = frame % 2;
        ctx.submitAndWait([&](VkCommandBuffer cmd) { sim.recordFrame(cmd, slot); });
        sim.collectTimings(slot);
        if (const std::optional<uint64_t> bad = sim.nonFiniteFrame(slot)) return bad;
    }
    return std::nullopt;
}

// The message World::throwIfNonFinite throws for `slot`, or "" if none.
std::string nonFiniteMessage(const World& sim, uint32_t slot) {
    try {
        sim.throwIfNonFinite(slot);
    } catch (const NonFiniteError& e) {
        return e.what();
    }
    return "";
}

TEST_F(FiniteCheck, FiniteRunReportsNothing) {
    const Scene scene = clothOverBall();
    World sim(ctx(), scene, 2);
    EXPECT_EQ(runUntilNonFinite(ctx(), sim, 8), std::nullopt);
    for (uint32_t slot = 0; slot < 2; ++slot) EXPECT_EQ(nonFiniteMessage(sim, slot), "");
    const TimingReport report = sim.timer().report();
    ASSERT_FALSE(report.passes.empty());
    EXPECT_EQ(report.passes.back().name, "finite check");

    // The probe after every pass finds nothing either (and, with the
    // validation layer on, orders itself correctly around every pass).
    EXPECT_EQ(findFirstNonFinitePass(ctx(), sim.model(), scene.solver, 2), std::nullopt);
}

TEST_F(FiniteCheck, NanInitialVelocityIsFoundInPredict) {
    const Scene scene = clothOverBall();
    SimModel model = buildModel(scene);
    const uint32_t particle = 37;
    model.velocities[particle].y = kNaN;

    const std::optional<NonFiniteSite> site = findFirstNonFinitePass(ctx(), model, scene.solver, 3);
    ASSERT_TRUE(site.has_value());
    std::cout << "[non-finite] " << describeNonFinite(*site) << "\n";
    EXPECT_EQ(site->frame, 0u);
    EXPECT_EQ(site->pass, "pbd: predict");
    EXPECT_EQ(site->position.substep, 0u);
    EXPECT_EQ(site->position.iteration, std::nullopt);
    EXPECT_EQ(site->quantity, "velocity");  // the first buffer predict is checked for
    EXPECT_EQ(site->particle, particle);
    EXPECT_TRUE(std::isnan(site->value.y));
    EXPECT_EQ(site->nonFiniteCount, 2u);  // its velocity and its predicted position
}

TEST_F(FiniteCheck, NanBallRadiusIsFoundInCollisionProjection) {
    const Scene scene = clothOverBall();
    SimModel model = buildModel(scene);
    // A NaN signed distance compares false with every margin, so every free
    // particle becomes a contact candidate and its projection writes NaN.
    model.colliders[0].size.x = kNaN;
    // Its bound follows, as with every collider edit (NaN: never culled).
    model.colliders[0].position.w = colliderBoundRadius(model.colliders[0], model.meshSdfGrids);

    const std::optional<NonFiniteSite> site = findFirstNonFinitePass(ctx(), model, scene.solver, 3);
    ASSERT_TRUE(site.has_value());
    std::cout << "[non-finite] " << describeNonFinite(*site) << "\n";
    EXPECT_EQ(site->frame, 0u);
    EXPECT_EQ(site->pass, "pbd: collide: project");
    EXPECT_EQ(site->position.substep, 0u);
    EXPECT_EQ(site->position.iteration, 0u);
    EXPECT_EQ(site->quantity, "predicted position");
    EXPECT_EQ(site->particle, 0u);
    EXPECT_EQ(site->nonFiniteCount, model.particleCount());
}

// Infinite restitution is harmless until the cloth first bounces: then the
// friction/restitution pass sets the normal velocity to +inf. The cloth falls
// freely onto the ground, so the substep of the first contact is known in
// closed form: the predicted height after k substeps from rest is
// y0 - g h^2 k(k+1)/2, and the projection touches the ground once it is < 0.
Scene clothOverBouncyGround() {
    Scene scene = clothScene({6, 6}, {0.5f, 0.5f}, 0.05f);
    scene.solver.substeps = 2;
    scene.solver.pbd.iterations = 2;
    ColliderDesc ground;
    ground.name = "ground";
    ground.restitution = std::numeric_limits<float>::infinity();
    scene.colliders = {ground};
    return scene;
}

TEST_F(FiniteCheck, InfiniteRestitutionGoesNonFiniteAtTheFirstBounce) {
    const Scene scene = clothOverBouncyGround();

    const double g = -scene.solver.gravity.y;
    const double h = scene.solver.timeStep / scene.solver.substeps;
    const double y0 = scene.cloths[0].position.y;
    auto height = [&](uint32_t k) { return y0 - g * h * h * k * (k + 1) / 2; };
    uint32_t k = 1;
    while (height(k) >= 0.0) ++k;
    // Far enough from the ground on both sides that float rounding cannot move the contact.
    ASSERT_GT(height(k - 1), 1e-4);
    ASSERT_LT(height(k), -1e-4);
    const uint32_t frame = (k - 1) / scene.solver.substeps;
    const uint32_t substep = (k - 1) % scene.solver.substeps;
    ASSERT_GE(frame, 3u) << "the test wants a frame after the first few";

    World sim(ctx(), scene, 2);
    const std::optional<uint64_t> flagged = runUntilNonFinite(ctx(), sim, frame + 3);
    ASSERT_TRUE(flagged.has_value()) << "no frame flagged; expected frame " << frame;
    EXPECT_EQ(*flagged, frame);
    const std::string message = nonFiniteMessage(sim, static_cast<uint32_t>(*flagged % 2));
    std::cout << "[non-finite] " << message << "\n";
    EXPECT_TRUE(message.starts_with(fmt::format(
        "simulation became non-finite in frame {}, substep {}, pass \"pbd: friction/restitution\": particle 0 velocity = ",
        frame, substep)))
        << message;
}

// A body spun at 1e30 rad/s (the loader accepts it): past 2^60 already, and
// its first substep's quaternion update overflows. The end-of-frame check
// reads the body states too, and the replay names the body, by index and
// name, and the pass: the one dispatch of the bodies, or on the per-substep
// path the first substep's first contacts pass, where the velocity update runs.
TEST_F(FiniteCheck, SpinningBodyIsNamedWithItsPass) {
    for (const RigidPath path : {RigidPath::Auto, RigidPath::PerSubstep}) {
        Scene scene;
        scene.name = "spin";
        scene.path = "spin.json";
        scene.solver.rigid.path = path;
        BodyDesc box;
        box.name = "spinner";
        box.source = "/bodies/0";
        box.angularVelocity = glm::vec3(1e30f);
        scene.bodies.push_back(box);
        // A second body, far off: with one body either path is one dispatch.
        BodyDesc still;
        still.name = "still";
        still.source = "/bodies/1";
        still.position = {5.0f, 0.0f, 0.0f};
        scene.bodies.push_back(still);
        World sim(ctx(), scene, 2);
        const std::optional<uint64_t> bad = runUntilNonFinite(ctx(), sim, 3);
        ASSERT_EQ(bad, std::optional<uint64_t>(0));
        const std::string message = nonFiniteMessage(sim, 0);
        std::cout << "[report] " << message << "\n";
        const std::string where = path == RigidPath::PerSubstep
                                      ? "frame 0, substep 0, pass \"rigid: collider contacts\" (iteration 0)"
                                      : "frame 0, pass \"rigid: step\"";
        EXPECT_TRUE(message.starts_with("simulation became non-finite in " + where + ": body 0 \"spinner\" "))
            << message;
    }
}

// The headless path: one line on stderr, exit status 1, no timing table.
TEST_F(FiniteCheck, HeadlessRunExitsWithOneLineOnStderr) {
    Scene scene = clothOverBall();
    scene.colliders[0].radius = kNaN;  // a Scene built in code: the loader would refuse this
    RunOptions options;
    options.headless = true;
    options.frames = 6;
    options.quiet = true;
    options.validate = true;

    ::testing::internal::CaptureStderr();
    const int status = runHeadless(options, scene);
    const std::string err = ::testing::internal::GetCapturedStderr();
    std::cout << "[stderr] " << err;
    EXPECT_EQ(status, kExitFailure);
    std::istringstream lines(err);
    std::string first, second;
    std::getline(lines, first);
    EXPECT_FALSE(std::getline(lines, second)) << "more than one line on stderr";
    EXPECT_TRUE(first.starts_with("vksim: simulation became non-finite in frame 0, substep 0, "
                                  "pass \"pbd: collide: project\" (iteration 0): particle 0 predicted position = "))
        << first;
}

// After World::loadState the replay starts from the loaded state, at its
// frame: a state whose cloth was thrown up reaches the ground (and the
// infinite restitution) later than the scene's own cloth would, and the
// report names that later frame, which a replay from frame 0 could not.
TEST_F(FiniteCheck, ReplayStartsFromALoadedState) {
    const Scene scene = clothOverBouncyGround();

    World own(ctx(), scene, 2);
    const std::optional<uint64_t> ownFrame = runUntilNonFinite(ctx(), own, 40);
    ASSERT_TRUE(ownFrame.has_value());

    World thrower(ctx(), scene, 1);
    ctx().submitAndWait([&](VkCommandBuffer cmd) { thrower.recordFrame(cmd, 0); });
    thrower.collectTimings(0);
    thrower.setVelocities(std::vector<glm::vec3>(thrower.particleCount(), glm::vec3(0.0f, 1.0f, 0.0f)));
    const std::string thrown = thrower.saveState();

    World sim(ctx(), scene, 2);
    sim.loadState(thrown);
    std::optional<uint64_t> flagged;
    for (uint32_t k = 0; k < 60 && !flagged; ++k) {
        const uint32_t slot = k % 2;
        ctx().submitAndWait([&](VkCommandBuffer cmd) { sim.recordFrame(cmd, slot); });
        sim.collectTimings(slot);
        flagged = sim.nonFiniteFrame(slot);
        if (flagged) {
            const std::string message = nonFiniteMessage(sim, slot);
            std::cout << "[non-finite] after a loaded state (own frame " << *ownFrame << "): " << message << "\n";
            EXPECT_TRUE(message.starts_with(fmt::format("simulation became non-finite in frame {}, ", *flagged)))
                << message;
        }
    }
    ASSERT_TRUE(flagged.has_value()) << "the thrown cloth never landed";
    EXPECT_GT(*flagged, *ownFrame + 5);
}

}  // namespace
}  // namespace vksim::test
