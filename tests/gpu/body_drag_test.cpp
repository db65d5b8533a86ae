// Picking and dragging rigid bodies (World::pickBody, World::dragBody;
// interaction.h, BodyDrag; docs/physics.md §11, "Dragging a body"): the ray
// finds the nearest body surface at its current pose, and the grabbed point
// closes on the target as the closed form says.
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "solvers/rigid/rigid_solver.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

class BodyDragging : public GpuTest {};

// Two 0.2 m boxes, one above the other, in zero gravity (or with it).
Scene twoBoxes(bool gravity, std::string_view path = "auto", double angularDamping = 0.0) {
    return parseScene(fmt::format(R"({{
        "solver": {{ "gravity": [0, {}, 0], "rigid": {{ "path": "{}", "angularDamping": {} }} }},
        "bodies": [
          {{ "type": "box", "name": "low", "halfExtents": [0.1, 0.1, 0.1], "mass": 1, "position": [0, 0.1, 0] }},
          {{ "type": "box", "name": "high", "halfExtents": [0.1, 0.1, 0.1], "mass": 3, "position": [0, 0.6, 0],
            "rotation": {{ "axis": [0, 1, 0], "degrees": 30 }} }} ],
        "colliders": [ {{ "type": "plane", "friction": 0.5 }} ] }})",
                                  gravity ? -9.81 : 0.0, path, angularDamping),
                      "boxes.json");
}

glm::dvec3 worldPoint(const gpu::RigidBodyState& s, glm::vec3 bodyPoint) {
    return glm::dvec3(glm::vec3(s.position)) + ref::quatRotate(glm::dvec4(s.rotation), glm::dvec3(bodyPoint));
}

// A ray straight down hits the top face of the upper box first (its top at
// 0.7 m), a ray beside both misses, and a ray from below hits the ground
// box's bottom. The body point is the hit in the body frame.
TEST_F(BodyDragging, ARayPicksTheNearestBodySurface) {
    World world(ctx(), twoBoxes(false), 1);
    const std::optional<BodyPickHit> top = world.pickBody({{0.02f, 2.0f, 0.03f}, {0.0f, -1.0f, 0.0f}});
    ASSERT_TRUE(top.has_value());
    std::cout << fmt::format("[body drag] ray down: body {}, distance {:.6f} m, point ({:.4f}, {:.4f}, {:.4f}), body "
                             "point ({:.4f}, {:.4f}, {:.4f})\n",
                             top->body, top->distance, top->point.x, top->point.y, top->point.z, top->bodyPoint.x,
                             top->bodyPoint.y, top->bodyPoint.z);
    EXPECT_EQ(top->body, 1u);
    EXPECT_NEAR(top->distance, 1.3f, 1e-5f);
    EXPECT_NEAR(top->bodyPoint.y, 0.1f, 1e-5f);
    // The upper box is turned 30 degrees about y: the world offset (0.02, 0.03) in its frame.
    const double a = glm::radians(30.0);
    EXPECT_NEAR(top->bodyPoint.x, 0.02 * std::cos(a) - 0.03 * std::sin(a), 1e-5);
    EXPECT_NEAR(top->bodyPoint.z, 0.02 * std::sin(a) + 0.03 * std::cos(a), 1e-5);
    EXPECT_FALSE(world.pickBody({{0.5f, 2.0f, 0.0f}, {0.0f, -1.0f, 0.0f}}).has_value());
    const std::optional<BodyPickHit> side = world.pickBody({{-1.0f, 0.05f, 0.0f}, {2.0f, 0.0f, 0.0f}});
    ASSERT_TRUE(side.has_value());
    EXPECT_EQ(side->body, 0u);
    EXPECT_NEAR(side->distance, 0.9f, 1e-5f);
    EXPECT_THROW(world.pickBody({{0.0f, 1.0f, 0.0f}, {0.0f, 0.0f, 0.0f}}), std::invalid_argument);
}

// Grabbed on the line through its centre along the pull, in zero gravity,
// a body only translates: each substep sets the point's velocity to
// (target - x)/tau and moves it h of that, so the distance left after n
// substeps is d0 (1 - h/tau)^n, whatever the mass.
TEST_F(BodyDragging, TheGrabbedPointClosesOnTheTargetAsTheClosedFormSays) {
    World world(ctx(), twoBoxes(false), 1);
    const glm::vec3 grab(0.0f, 0.1f, 0.0f);  // the upper box's top centre
    const gpu::RigidBodyState start = world.solver<RigidSolver>().readStates()[1];
    const glm::dvec3 target = worldPoint(start, grab) + glm::dvec3(0.0, 0.3, 0.0);
    world.dragBody(1, grab, glm::vec3(target));
    const double h = world.scene().solver.timeStep / world.scene().solver.substeps;
    std::string trace;
    double worst = 0.0;
    for (uint32_t frame = 1; frame <= 30; ++frame) {
        runWorldFrames(ctx(), world, 1);
        const double left = glm::length(target - worldPoint(world.solver<RigidSolver>().readStates()[1], grab));
        const double expected = 0.3 * std::pow(1.0 - h / kBodyDragTime, 4.0 * frame);
        worst = std::max(worst, std::abs(left - expected));
        if (frame % 10 == 0) trace += fmt::format(" {}: {:.5e} (closed form {:.5e})", frame, left, expected);
    }
    std::cout << fmt::format("[body drag] distance to the target [m] by frame:{}; largest difference {:.2e} m\n", trace,
                             worst);
    EXPECT_LT(worst, 1e-5);
    // The other box is untouched, and a release ends the pull.
    EXPECT_LT(glm::length(glm::vec3(world.solver<RigidSolver>().readStates()[0].linearVelocity)), 1e-7f);
    world.release();
    EXPECT_FALSE(world.draggedBody().has_value());
}

// With gravity, the upper box lifted by a corner hangs from it: the corner
// stays at the target (its velocity is set every substep, after gravity),
// to the offset the rotation's second-order motion leaves, about
// h w^2 r tau / 2: 3.6 mm at 10 rad/s, which it reaches (bound 1 cm). The yank (5 m/s at the start) swings
// the box over the top and it keeps turning about the pin, even with
// angular damping (3/s): the pull is not dissipative (docs/physics.md §11,
// "Dragging a body"). Both dispatch paths give the same bits.
TEST_F(BodyDragging, ABoxLiftedByACornerHangsFromIt) {
    std::vector<gpu::RigidBodyState> finals;
    for (const char* path : {"oneWorkgroup", "perSubstep"}) {
        World world(ctx(), twoBoxes(true, path, 3.0), 1);
        const glm::vec3 corner(0.1f, 0.1f, 0.1f);
        const glm::dvec3 target = worldPoint(world.solver<RigidSolver>().readStates()[1], corner) + glm::dvec3(0.0, 0.5, 0.0);
        world.dragBody(1, corner, glm::vec3(target));
        double worst = 0.0;
        for (uint32_t frame = 1; frame <= 240; ++frame) {
            runWorldFrames(ctx(), world, 1);
            if (frame >= 60)
                worst = std::max(worst, glm::length(target - worldPoint(world.solver<RigidSolver>().readStates()[1], corner)));
        }
        const gpu::RigidBodyState state = world.solver<RigidSolver>().readStates()[1];
        const glm::dvec3 below = glm::dvec3(glm::vec3(state.position)) - target;
        std::cout << fmt::format("[body drag] {}: from 1 s to 4 s the corner stays within {:.2e} m of the target; at "
                                 "4 s the centre is ({:.4f}, {:.4f}, {:.4f}) m from it, |w| {:.2f} rad/s\n",
                                 path, worst, below.x, below.y, below.z,
                                 glm::length(glm::vec3(state.angularVelocity)));
        EXPECT_LT(worst, 1e-2);
        EXPECT_NEAR(glm::length(below), std::sqrt(0.03), 3e-3);  // the centre stays |corner| from the pin
        finals.push_back(state);
    }
    EXPECT_EQ(0, std::memcmp(&finals[0], &finals[1], sizeof(gpu::RigidBodyState)));
}

TEST_F(BodyDragging, BadArgumentsAreRefused) {
    World world(ctx(), twoBoxes(false), 1);
    EXPECT_THROW(world.dragBody(2, glm::vec3(0.0f), glm::vec3(0.0f)), std::invalid_argument);
    EXPECT_THROW(world.dragBody(0, glm::vec3(NAN), glm::vec3(0.0f)), std::invalid_argument);
    EXPECT_THROW(world.drag(0, glm::vec3(0.0f)), std::invalid_argument);  // no particles to drag
}

}  // namespace
}  // namespace vksim::test
