// Kinematic colliders driven by keyframes (docs/physics.md §17): the GPU
// pass against its CPU reference in double (model/keyframe_reference.h),
// the keyframes reached at their times, and what rests on a moving
// kinematic platform carried along by friction, and only by friction.
#include <fmt/format.h>

#include "gpu_harness.h"
#include "model/keyframe_reference.h"
#include "solvers/model_builder.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class Keyframes : public GpuTest {};

// h = 1/256 s, exact in binary, so that the keyframe times below are whole
// numbers of substeps and the GPU's clock sums them without rounding.
constexpr float kTimeStep = 1.0f / 64.0f;
constexpr uint32_t kSubsteps = 4;

glm::vec4 rotationDegrees(glm::vec3 axis, double degrees) {
    const double half = glm::radians(degrees) / 2.0;
    return glm::vec4(glm::dvec4(glm::normalize(glm::dvec3(axis)) * std::sin(half), std::cos(half)));
}

ColliderDesc kinematicBox(std::string name, glm::vec3 halfExtents, KeyframeTrackDesc track) {
    ColliderDesc box;
    box.name = std::move(name);
    box.shape = ColliderShape::Box;
    box.halfExtents = halfExtents;
    box.keyframes = std::move(track);
    return box;
}

// Four tracks: a looping slerp with three frames whose last pose is not the
// first (the wrap jumps), the same with linear rotation, a held one, and a
// loop that closes (its last frame repeats the first).
std::vector<ColliderDesc> trackColliders() {
    KeyframeTrackDesc open;
    open.loop = true;
    open.frames = {{0.0, {0.0f, 1.0f, 0.0f}, rotationDegrees({0, 0, 1}, 0)},
                   {0.25, {1.0f, 1.5f, -0.5f}, rotationDegrees({0, 0, 1}, 120)},
                   {0.5, {2.0f, 1.0f, 0.0f}, rotationDegrees({1, 1, 0}, 200)}};
    KeyframeTrackDesc linear = open;
    linear.rotation = KeyframeRotation::Linear;
    KeyframeTrackDesc held = open;
    held.loop = false;
    KeyframeTrackDesc closed;
    closed.loop = true;
    closed.frames = {{0.0, {0.0f, 0.0f, 3.0f}, rotationDegrees({0, 1, 0}, 0)},
                     {0.125, {0.5f, 0.0f, 3.0f}, rotationDegrees({0, 1, 0}, 90)},
                     {0.375, {0.5f, 0.5f, 3.0f}, rotationDegrees({0, 1, 0}, 180)},
                     {0.5, {0.0f, 0.0f, 3.0f}, rotationDegrees({0, 1, 0}, 0)}};
    // An arm on the closed track: a capsule held 0.4 m out along the
    // parent's x, and a hand swinging on the arm (a parent's child).
    ColliderDesc arm;
    arm.name = "arm";
    arm.shape = ColliderShape::Capsule;
    arm.radius = 0.05f;
    arm.parent = "closed";
    arm.position = glm::vec3(0.4f, 0.0f, 0.0f);
    arm.rotation = rotationDegrees({0, 0, 1}, 90);
    KeyframeTrackDesc swing;
    swing.loop = true;
    swing.frames = {{0.0, {0.0f, 0.3f, 0.0f}, rotationDegrees({1, 0, 0}, -30)},
                    {0.25, {0.0f, 0.3f, 0.0f}, rotationDegrees({1, 0, 0}, 30)},
                    {0.5, {0.0f, 0.3f, 0.0f}, rotationDegrees({1, 0, 0}, -30)}};
    ColliderDesc hand = kinematicBox("hand", glm::vec3(0.05f), swing);
    hand.parent = "arm";
    return {kinematicBox("open", glm::vec3(0.1f), open), kinematicBox("linear", glm::vec3(0.1f), linear),
            kinematicBox("held", glm::vec3(0.1f), held), kinematicBox("closed", glm::vec3(0.1f), closed), arm,
            hand};
}

// A small cloth far from the colliders: the world needs something to step.
Scene trackScene() {
    Scene scene = clothScene({4, 4}, {0.2f, 0.2f}, -20.0f);
    scene.solver.timeStep = kTimeStep;
    scene.solver.substeps = kSubsteps;
    scene.colliders = trackColliders();
    return scene;
}

double rotationDistance(glm::dvec4 a, glm::dvec4 b) { return std::min(glm::length(a - b), glm::length(a + b)); }

struct TrackErrors {
    double position = 0.0, rotation = 0.0, linear = 0.0, angular = 0.0;
};

TrackErrors compare(const std::vector<gpu::Collider>& rows, const Scene& scene, uint64_t substeps, double h) {
    TrackErrors worst;
    const std::vector<KinematicPose> poses = colliderPosesAfter(scene.colliders, substeps, h);
    for (size_t c = 0; c < scene.colliders.size(); ++c) {
        const KinematicPose& want = poses[c];
        const gpu::Collider& row = rows[c];
        worst.position = std::max(worst.position, glm::length(glm::dvec3(row.position) - want.position));
        worst.rotation = std::max(worst.rotation, rotationDistance(glm::dvec4(row.rotation), want.rotation));
        worst.linear = std::max(worst.linear, glm::length(glm::dvec3(row.linearVelocity) - want.linearVelocity));
        worst.angular = std::max(worst.angular, glm::length(glm::dvec3(row.angularVelocity) - want.angularVelocity));
    }
    return worst;
}

// Every frame for 1.25 s (two and a half loops, the held track past its
// end), the GPU's poses and velocities against the reference's at n h,
// the arm and the hand composed with their parents'.
// Positions are of order 1 m: float rounding is ~1e-7 m, and the
// interpolation's few operations stay within 1e-6 m (1e-6 in a
// quaternion). A velocity is a difference of two such poses over h =
// 1/256 s, so its rounding is ~2^-23 x 2 m x 256 = 6e-5 m/s, and the
// rotation vector's about as much in rad/s: 1e-3 bounds both with room.
// At every keyframe's time (a whole number of substeps) the pose is the
// frame's own, to float rounding (1e-6 m; a quaternion normalised again).
TEST_F(Keyframes, GpuFollowsTheReferenceAndReachesEveryKeyframe) {
    const Scene scene = trackScene();
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    const double h = double(kTimeStep) / kSubsteps;
    TrackErrors worst;
    double worstAtFrames = 0.0;
    uint32_t framesMet = 0;
    for (uint32_t f = 1; f <= 80; ++f) {
        gpu.frames(1);
        const std::vector<gpu::Collider> rows = gpu.stepper().colliders().colliders().downloadArray<gpu::Collider>();
        const TrackErrors e = compare(rows, scene, uint64_t(f) * kSubsteps, h);
        worst = {std::max(worst.position, e.position), std::max(worst.rotation, e.rotation),
                 std::max(worst.linear, e.linear), std::max(worst.angular, e.angular)};
        const double t = f * double(kTimeStep);
        for (size_t c = 0; c < scene.colliders.size(); ++c) {
            if (!scene.colliders[c].parent.empty()) continue;  // their frames are in the parent's frame
            const KeyframeTrackDesc& track = *scene.colliders[c].keyframes;
            const double local = keyframeTrackTime(track, t);
            for (const KeyframeDesc& frame : track.frames)
                if (frame.time == local && (frame.time > 0.0 || !track.loop)) {
                    worstAtFrames = std::max(worstAtFrames,
                                             glm::length(glm::dvec3(rows[c].position) - glm::dvec3(frame.position)));
                    const glm::dvec4 q = glm::normalize(glm::dvec4(frame.rotation));
                    worstAtFrames = std::max(worstAtFrames, rotationDistance(glm::dvec4(rows[c].rotation), q));
                    ++framesMet;
                }
        }
    }
    std::cout << fmt::format("[keyframes] GPU vs reference over 80 frames: position {:.2e} m, rotation {:.2e}, "
                             "velocity {:.2e} m/s, angular velocity {:.2e} rad/s; at {} keyframe times {:.2e}\n",
                             worst.position, worst.rotation, worst.linear, worst.angular, framesMet, worstAtFrames);
    EXPECT_LT(worst.position, 1e-6);
    EXPECT_LT(worst.rotation, 1e-6);
    EXPECT_LT(worst.linear, 1e-3);
    EXPECT_LT(worst.angular, 1e-3);
    EXPECT_GE(framesMet, 20u);
    EXPECT_LT(worstAtFrames, 1e-6);
}

// The velocities are the displacement over the substep: integrating them
// over the run gives back the path (to rounding), the held track is at
// rest past its end, and the jump of an open loop adds no velocity.
TEST_F(Keyframes, VelocitiesAreTheSubstepsMotion) {
    const Scene scene = trackScene();
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    gpu.frames(1);
    std::vector<gpu::Collider> rows = gpu.stepper().colliders().colliders().downloadArray<gpu::Collider>();
    const float h = kTimeStep / kSubsteps;
    // After one frame, the closed track moved 4 h at 0.5 m / 0.125 s = 4 m/s along x.
    std::cout << fmt::format("[keyframes] closed track after 1 frame: x {:.7f} m, vx {:.5f} m/s (4 m/s)\n",
                             rows[3].position.x, rows[3].linearVelocity.x);
    EXPECT_NEAR(rows[3].linearVelocity.x, 4.0, 1e-3);
    EXPECT_NEAR(rows[3].position.x, 4.0 * 4.0 * h, 1e-6);
    // Its rotation turns 90 degrees in 0.125 s about y: 4 pi rad/s.
    EXPECT_NEAR(rows[3].angularVelocity.y, 4.0 * M_PI, 1e-3);
    gpu.frames(39);  // t = 0.625 s: the held track has stood since 0.5 s
    rows = gpu.stepper().colliders().colliders().downloadArray<gpu::Collider>();
    EXPECT_EQ(glm::length(glm::vec3(rows[2].linearVelocity)), 0.0f);
    EXPECT_EQ(glm::length(glm::vec3(rows[2].angularVelocity)), 0.0f);
}

// Over thousands of substeps of an h that binary cannot hold (1/15000 s),
// the clock keeps a float's precision of the loop's time: a plain float sum
// drifts with every addition's rounding (here 1.6e-6 s after 2000
// substeps, computed on the CPU in float, and growing with n), Kahan's
// stays within an ulp of the loop's 0.5 s (6e-8 s) of the exact n h wrapped
// (measured: 0).
TEST_F(Keyframes, TheClockDoesNotDrift) {
    Scene scene = trackScene();
    scene.solver.timeStep = 1.0f / 60.0f;
    scene.solver.substeps = 250;
    scene.solver.pbd.iterations = 1;
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    const uint32_t frames = 8;
    gpu.frames(frames);
    const std::vector<gpu::KeyframeClock> clocks =
        gpu.stepper().keyframes()->clocks().downloadArray<gpu::KeyframeClock>();
    const float h = scene.solver.timeStep / float(scene.solver.substeps);
    const double t = double(frames) * scene.solver.substeps * double(h);
    const KeyframeTrackDesc& track = *scene.colliders[0].keyframes;
    const double want = keyframeTrackTime(track, t);
    const double error = std::abs(double(clocks[0].time) + double(-clocks[0].compensation) - want);
    std::cout << fmt::format("[keyframes] clock after {} substeps: {:.9f} s, exact {:.9f} s, error {:.2e} s\n",
                             frames * scene.solver.substeps, clocks[0].time, want, error);
    EXPECT_LT(error, 1e-7);
}

// A platform: a wide kinematic box whose top face is at y = 0, sliding
// along x at 0.5 m/s for as long as the tests run.
constexpr float kPlatformSpeed = 0.5f;
ColliderDesc platform(float friction) {
    KeyframeTrackDesc slide;
    slide.frames = {{0.0, {0.0f, -0.5f, 0.0f}, glm::vec4(0, 0, 0, 1)},
                    {10.0, {10.0f * kPlatformSpeed, -0.5f, 0.0f}, glm::vec4(0, 0, 0, 1)}};
    ColliderDesc box = kinematicBox("platform", glm::vec3(5.0f, 0.5f, 5.0f), slide);
    box.friction = friction;
    return box;
}

double meanX(const std::vector<glm::vec4>& positions) {
    double sum = 0.0;
    for (const glm::vec4& p : positions) sum += p.x;
    return sum / double(positions.size());
}

// Coulomb friction accelerates what rests on the platform at mu g until it
// moves with it (as on a conveyor, moving_collider_test.cpp): after t its
// centre has moved V t - V^2 / (2 mu g) (0.4745 m after 1 s at V = 0.5 m/s,
// mu = 0.5). The cloth starts at rest on the surface, in contact from the
// first substep; 1% leaves room for the substeps' discretisation of the
// acceleration phase (its end falls inside a substep). Without friction
// the platform slides under it and it stays where it was.
TEST_F(Keyframes, APlatformCarriesAClothByFrictionOnly) {
    const double mu = 0.5, g = 9.81, t = 1.0;
    const double expected = kPlatformSpeed * t - kPlatformSpeed * kPlatformSpeed / (2.0 * mu * g);
    double moved[2] = {0.0, 0.0};
    for (int withFriction = 0; withFriction < 2; ++withFriction) {
        Scene scene = clothScene({8, 8}, {0.4f, 0.4f}, 0.0f);
        scene.solver.timeStep = kTimeStep;
        scene.solver.substeps = kSubsteps;
        scene.colliders = {platform(withFriction ? float(mu) : 0.0f)};
        const SimModel model = buildModel(scene);
        GpuRun gpu(ctx(), model, scene.solver);
        const double start = meanX(gpu.positions());
        gpu.frames(64);  // 1 s
        moved[withFriction] = meanX(gpu.positions()) - start;
    }
    std::cout << fmt::format("[keyframes] cloth on a platform moving {} m/s for 1 s: moved {:.4f} m with mu = 0.5 "
                             "(V t - V^2/(2 mu g) = {:.4f} m), {:.2e} m without friction\n",
                             kPlatformSpeed, moved[1], expected, moved[0]);
    EXPECT_NEAR(moved[1], expected, 0.01 * expected);
    EXPECT_LT(std::abs(moved[0]), 1e-6);
}

// A rigid box resting on the platform is carried the same way (its
// friction impulse brings its contact to the surface's velocity, at most
// mu g h a substep). Measured 0.2% from the closed form, as the cloth;
// 1% leaves it the same room.
TEST_F(Keyframes, APlatformCarriesARigidBox) {
    const double mu = 0.5, g = 9.81, t = 1.0;
    const double expected = kPlatformSpeed * t - kPlatformSpeed * kPlatformSpeed / (2.0 * mu * g);
    Scene scene;
    scene.name = "box on a platform";
    scene.solver.timeStep = kTimeStep;
    scene.solver.substeps = kSubsteps;
    BodyDesc box;
    box.name = "box";
    box.halfExtents = glm::vec3(0.1f);
    box.position = glm::vec3(0.0f, 0.1f, 0.0f);
    box.friction = float(mu);
    box.detail = 2;
    scene.bodies = {box};
    scene.colliders = {platform(float(mu))};
    const SimModel model = buildModel(scene);
    GpuRun gpu(ctx(), model, scene.solver);
    const double start = gpu.stepper().solver<RigidSolver>().readStates()[0].position.x;
    gpu.frames(64);
    const gpu::RigidBodyState state = gpu.stepper().solver<RigidSolver>().readStates()[0];
    const double moved = state.position.x - start;
    std::cout << fmt::format("[keyframes] rigid box on the platform after 1 s: moved {:.4f} m (closed form {:.4f} m), "
                             "vx {:.4f} m/s, y {:.4f} m\n",
                             moved, expected, state.linearVelocity.x, state.position.y);
    EXPECT_NEAR(moved, expected, 0.01 * expected);
    EXPECT_NEAR(state.linearVelocity.x, kPlatformSpeed, 0.02 * kPlatformSpeed);
}

// The clocks are state: a world saved mid-run and loaded continues bit for
// bit (the shipped scene's test does the same for scenes/kinematic_platform.json).
TEST_F(Keyframes, SavedStateContinuesBitForBit) {
    Scene scene = clothScene({8, 8}, {0.4f, 0.4f}, 0.0f);
    scene.solver.timeStep = kTimeStep;
    scene.solver.substeps = kSubsteps;
    scene.colliders = {platform(0.5f)};
    World world(ctx(), scene, 1);
    runWorldFrames(ctx(), world, 10);
    const std::string saved = world.saveState();
    runWorldFrames(ctx(), world, 10);
    const uint64_t straight = world.stateHash();
    World other(ctx(), scene, 1);
    other.loadState(saved);
    runWorldFrames(ctx(), other, 10);
    EXPECT_EQ(other.stateHash(), straight);
    EXPECT_EQ(passRunsInLastFrame(world, KeyframeStage::kPassName), kSubsteps);
}

}  // namespace
}  // namespace vksim::test
