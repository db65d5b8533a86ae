// The overlay's requests, made through Viewer::controls() as its panels make
// them (the ImGui widgets themselves only set these fields): pause, single
// step, slow motion, reset, a scene that fails to load (the error is kept and
// the running scene goes on), a scene change, every display mode drawn in
// the window with the overlay on top, framing the scene and resetting the camera. Validation on; any message fails.
#include <stdexcept>

#include <gtest/gtest.h>

#include "app/viewer.h"
#include "app/viewer_providers.h"
#include "geometry/shared_math.h"
#include "render/window.h"
#include "scene/scene_loader.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/rigid/rigid_solver.h"
#include "vk/context.h"
#include "window_test_support.h"
#include "world/world.h"

namespace vksim {
namespace {

std::string sourcePath(const std::string& relative) { return std::string(VKSIM_SOURCE_DIR) + "/" + relative; }

void showFrames(Viewer& viewer, uint32_t count) { ASSERT_EQ(test::showFrames(viewer, count), count); }

TEST(ViewerControls, PauseStepSlowMotionResetLoadAndDisplayModes) {
    Window window("vksim controls test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, loadScene(sourcePath("tests/cli/small_cloth.json")), Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    const auto recorded = [&] { return viewer.simulation().framesRecorded(); };
    showFrames(viewer, 2);
    EXPECT_EQ(recorded(), 2u);

    viewer.controls().paused = true;
    showFrames(viewer, 3);
    EXPECT_EQ(recorded(), 2u) << "paused: frames are drawn, nothing is simulated";
    viewer.controls().stepOnce = true;
    showFrames(viewer, 2);
    EXPECT_EQ(recorded(), 3u) << "a single step while paused";

    viewer.controls().paused = false;
    viewer.controls().slowMotion = 3;
    showFrames(viewer, 6);
    EXPECT_EQ(recorded(), 5u) << "slow motion 1/3: one simulated frame every third shown";
    viewer.controls().slowMotion = 1;

    viewer.controls().resetRequested = true;
    showFrames(viewer, 1);
    EXPECT_EQ(recorded(), 1u) << "reset rebuilds the simulation from frame 0";

    viewer.controls().loadRequest = sourcePath("tests/bad_scenes/syntax_error.json");
    showFrames(viewer, 1);
    std::printf("load error shown in the overlay: %s\n", viewer.lastError().c_str());
    EXPECT_NE(viewer.lastError().find("syntax_error.json"), std::string::npos);
    EXPECT_EQ(viewer.simulation().scene().name, "small cloth") << "the running scene goes on";

    viewer.controls().loadRequest = sourcePath("scenes/pd_bar.json");
    showFrames(viewer, 1);
    EXPECT_TRUE(viewer.lastError().empty());
    EXPECT_NE(viewer.simulation().scene().name, "small cloth");

    viewer.controls().loadRequest = sourcePath("tests/cli/small_cloth.json");
    for (size_t mode = 0; mode < kDisplayModeNames.size(); ++mode) {
        viewer.controls().display.mode = DisplayMode(mode);
        viewer.controls().display.colliders = mode % 2 == 0;
        showFrames(viewer, 2);
    }
    // F (frame the scene: a read-back of the positions between frames) and R.
    viewer.controls().frameRequested = true;
    showFrames(viewer, 1);
    viewer.controls().cameraResetRequested = true;
    showFrames(viewer, 1);
    viewer.finish();
    EXPECT_EQ(ctx.validationCounts().total(), 0u);
}

// The overlay's simulation panels and the mouse, through ViewerProviders
// (what the windowed run installs): a Ctrl-drag pick from straight above
// the cloth's free edge grabs a particle, the drag moves it 0.3 m along x on
// the same depth plane and the particle reaches that target; the residual
// plot fills once its panel asks; the sliders list each PBD family and each
// collider, and moving one changes the running scene. Then the same for a
// scene with a PD cloth: its residual and energy plots and its sliders; and
// an XPBD cloth's energy plot.
// The mouse grabs the nearer of a cloth and a rigid body under it: a click
// on the box drags the box (its grabbed point follows the target), a click
// on the cloth above it drags a particle and ends the body's drag.
TEST(ViewerControls, ProvidersGrabABodyOrTheClothAboveIt) {
    Window window("vksim body drag test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, parseScene(R"({
        "objects": [ { "type": "cloth", "size": [0.4, 0.4], "resolution": [8, 8], "position": [0, 1.0, 0],
                       "pinned": [[0, 0], [-1, 0], [0, -1], [-1, -1]] } ],
        "bodies": [ { "type": "box", "halfExtents": [0.1, 0.1, 0.1], "mass": 1, "position": [0, 0.1, 0] },
                    { "type": "box", "halfExtents": [0.1, 0.1, 0.1], "mass": 1, "position": [0.6, 0.1, 0] } ],
        "colliders": [ { "type": "plane" } ] })",
                              "grab.json"),
              Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    ViewerProviders providers(viewer);
    const OverlayProviders p = providers.providers();
    viewer.setProviders(p);
    showFrames(viewer, 2);
    viewer.finish();

    // The second box, alone under the ray: a body drag at its top face.
    const glm::vec3 above(0.6f, 2.0f, 0.0f);
    ASSERT_TRUE(p.picker->beginPick(Ray{above, {0, -1, 0}}));
    ASSERT_TRUE(viewer.simulation().draggedBody().has_value());
    EXPECT_EQ(viewer.simulation().draggedBody()->body, 1u);
    EXPECT_FALSE(viewer.simulation().dragged().has_value());
    p.picker->dragTo(Ray{above + glm::vec3(0.0f, 0.0f, 0.2f), {0, -1, 0}});
    const BodyDrag drag = *viewer.simulation().draggedBody();
    showFrames(viewer, 40);
    viewer.finish();
    const gpu::RigidBodyState state = viewer.simulation().solver<RigidSolver>().readStates()[1];
    const glm::vec3 point =
        glm::vec3(state.position) + glm::vec3(ref::quatRotate(glm::dvec4(state.rotation), glm::dvec3(drag.bodyPoint)));
    std::printf("grabbed box point %.2e m from the drag target after 40 frames\n", glm::length(point - drag.target));
    EXPECT_LT(glm::length(point - drag.target), 2e-2f);

    // The first box lies under the cloth: the cloth, nearer, is grabbed.
    ASSERT_TRUE(p.picker->beginPick(Ray{{0.01f, 2.0f, 0.01f}, {0, -1, 0}}));
    EXPECT_TRUE(viewer.simulation().dragged().has_value());
    EXPECT_FALSE(viewer.simulation().draggedBody().has_value());
    p.picker->release();
    EXPECT_FALSE(viewer.simulation().dragged().has_value());
}

TEST(ViewerControls, ProvidersPickDragResidualsAndSliders) {
    Window window("vksim providers test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, loadScene(sourcePath("tests/cli/small_cloth.json")), Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    ViewerProviders providers(viewer);
    const OverlayProviders p = providers.providers();
    viewer.setProviders(p);
    showFrames(viewer, 2);
    viewer.finish();

    // The free edge is the row of largest z (the pins hold row 0).
    const std::vector<glm::vec4> start = viewer.simulation().particles().readPositions();
    uint32_t edge = 0;
    for (uint32_t i = 1; i < start.size(); ++i)
        if (start[i].z > start[edge].z + 1e-6f) edge = i;
    const glm::vec3 above = glm::vec3(start[edge]) + glm::vec3(0.01f, 1.0f, 0.01f);
    ASSERT_TRUE(p.picker->beginPick(Ray{above, {0, -1, 0}}));
    const MouseAttachment grabbed = *viewer.simulation().dragged();
    p.picker->dragTo(Ray{above + glm::vec3(0.3f, 0, 0), {0, -1, 0}});
    const glm::vec3 target = viewer.simulation().dragged()->target;
    EXPECT_LT(glm::length(target - (grabbed.target + glm::vec3(0.3f, 0, 0))), 1e-5f) << "same depth plane";
    showFrames(viewer, 10);
    viewer.finish();
    const glm::vec3 dragged(viewer.simulation().particles().readPositions()[grabbed.particle]);
    std::printf("picked particle %u (edge particle %u), %.2e m from the drag target after 10 frames\n",
                grabbed.particle, edge, glm::length(dragged - target));
    EXPECT_LT(glm::length(dragged - target), 1e-3f);
    p.picker->release();
    EXPECT_FALSE(viewer.simulation().dragged().has_value());

    ASSERT_TRUE(p.convergence);
    p.convergence();  // the panel is open: tracking starts
    showFrames(viewer, 4);
    viewer.finish();
    const std::vector<ConvergenceSeries> convergence = p.convergence();
    ASSERT_EQ(convergence.size(), 1u);  // a PBD cloth: no PD series
    EXPECT_EQ(convergence[0].label, "PBD mean |C|");
    const std::vector<float>& residuals = convergence[0].values;
    ASSERT_EQ(residuals.size(), viewer.simulation().scene().solver.pbd.iterations);
    std::printf("residual per iteration:");
    for (float r : residuals) std::printf(" %.3e", r);
    std::printf("\n");
    for (float r : residuals) EXPECT_TRUE(std::isfinite(r) && r >= 0.0f);

    std::vector<LiveParameter> sliders = p.parameters();
    const auto find = [&](const std::string& group, const std::string& name) -> LiveParameter* {
        for (LiveParameter& s : sliders)
            if (s.group == group && s.name == name) return &s;
        return nullptr;
    };
    LiveParameter* stretch = find("small cloth: stretch", "stiffness");
    LiveParameter* friction = find("collider ball", "friction");
    LiveParameter* height = find("collider ball", "position y");
    LiveParameter* tilt = find("collider ball", "rotation z (deg)");
    LiveParameter* staticFriction = find("collider ball", "static friction");
    ASSERT_TRUE(stretch && friction && height && tilt && staticFriction);
    EXPECT_NEAR(tilt->value, 0.0f, 1e-4f);
    stretch->set(0.5f);
    friction->set(0.7f);
    // Below the friction now: refused, the scene keeps following the friction.
    EXPECT_THROW(staticFriction->set(0.6f), std::invalid_argument);
    staticFriction->set(0.9f);
    height->set(0.2f);
    tilt->set(90.0f);
    showFrames(viewer, 2);
    const Scene& scene = viewer.simulation().scene();
    EXPECT_EQ(scene.cloths[0].stretch.stiffness, 0.5f);
    EXPECT_EQ(scene.colliders[0].friction, 0.7f);
    EXPECT_EQ(scene.colliders[0].staticFriction, 0.9f);
    EXPECT_EQ(scene.colliders[0].position.y, 0.2f);
    // 90 degrees about z: the quaternion (0, 0, sin 45, cos 45).
    EXPECT_NEAR(scene.colliders[0].rotation.z, std::sqrt(0.5f), 1e-5f);
    EXPECT_NEAR(scene.colliders[0].rotation.w, std::sqrt(0.5f), 1e-5f);
    viewer.finish();

    // A PBD and a PD cloth: three plots (PBD mean |C|, PD |b - Aq|, PD
    // energy at q^0 .. q^L), a slider per PD family, collider sizes.
    viewer.controls().loadRequest = sourcePath("scenes/pd_vs_pbd_cloth.json");
    showFrames(viewer, 1);
    ASSERT_TRUE(viewer.lastError().empty()) << viewer.lastError();
    p.convergence();  // a new simulation starts untracked: the open panel turns tracking on
    showFrames(viewer, 4);
    viewer.finish();
    const std::vector<ConvergenceSeries> mixed = p.convergence();
    ASSERT_EQ(mixed.size(), 3u);
    const SolverSettings& solver = viewer.simulation().scene().solver;
    EXPECT_EQ(mixed[0].values.size(), solver.pbd.iterations);
    EXPECT_EQ(mixed[1].values.size(), solver.pd.localIterations);
    ASSERT_EQ(mixed[2].values.size(), solver.pd.localIterations + 1);
    EXPECT_FALSE(mixed[2].fromZero);
    std::printf("PD energy per iteration [J]:");
    for (float e : mixed[2].values) std::printf(" %.5e", e);
    std::printf("\n");
    EXPECT_LT(mixed[2].values.back(), mixed[2].values.front());

    sliders = p.parameters();
    LiveParameter* pdStretch = find("pd cloth: stretch (pd)", "stiffness [N/m]");
    LiveParameter* radius = find("collider left ball", "radius");
    ASSERT_TRUE(pdStretch && radius);
    EXPECT_TRUE(pdStretch->logarithmic);
    const float before = pdStretch->value;
    pdStretch->set(before * 0.25f);
    radius->set(0.3f);
    showFrames(viewer, 2);
    EXPECT_EQ(viewer.simulation().scene().cloths[1].pd.stretch.stiffness, before * 0.25f);
    EXPECT_EQ(viewer.simulation().scene().colliders[0].radius, 0.3f);
    viewer.finish();

    // An XPBD cloth: its energy is defined, a second plot.
    viewer.controls().loadRequest = sourcePath("scenes/cloth_xpbd.json");
    showFrames(viewer, 1);
    ASSERT_TRUE(viewer.lastError().empty()) << viewer.lastError();
    p.convergence();
    showFrames(viewer, 4);
    viewer.finish();
    const std::vector<ConvergenceSeries> xpbd = p.convergence();
    ASSERT_EQ(xpbd.size(), 2u);
    EXPECT_EQ(xpbd[1].label, "XPBD energy g(p)");
    EXPECT_EQ(xpbd[1].values.size(), viewer.simulation().scene().solver.pbd.iterations);
    EXPECT_EQ(ctx.validationCounts().total(), 0u);
}

LiveParameter* findParameter(std::vector<LiveParameter>& list, const std::string& group, const std::string& name) {
    for (LiveParameter& parameter : list)
        if (parameter.group == group && parameter.name == name) return &parameter;
    return nullptr;
}

// Mass-spring cloths in the Materials and colliders panel: the springs
// solver's integrator combo (its iteration sliders only where it iterates)
// and each cloth's values, edited live. Dihedral bending and the implicit
// integrators exclude each other: the combos grey out the one the other
// forbids, and a set() of it throws (the panel shows the message) leaving
// the scene as it was, so the frames after it run. Integrator edits that
// would overflow the GPU timer are refused too.
TEST(ViewerControls, SpringClothParameters) {
    Window window("vksim springs parameters test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, loadScene(sourcePath("scenes/springs_cloth.json")), Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    ViewerProviders providers(viewer);
    const OverlayProviders p = providers.providers();
    viewer.setProviders(p);
    showFrames(viewer, 2);
    const auto scene = [&]() -> const Scene& { return viewer.simulation().scene(); };

    // Symplectic Euler at 16 substeps, springs bending: the explicit
    // integrators open; implicit Euler and VBD would record more timed passes
    // than the timer holds (a pass per Jacobi iteration or colour sweep).
    std::vector<LiveParameter> list = p.parameters();
    LiveParameter* integrator = findParameter(list, "springs solver", "integrator");
    ASSERT_TRUE(integrator);
    EXPECT_EQ(integrator->kind, LiveParameter::Kind::Choice);
    ASSERT_EQ(integrator->choices.size(), 7u);
    EXPECT_EQ(integrator->value, float(SpringIntegrator::SymplecticEuler));
    for (size_t i = 0; i < 7; ++i) {
        const LiveChoice& choice = integrator->choices[i];
        const bool implicit = SpringIntegrator(i) == SpringIntegrator::ImplicitEuler ||
                              SpringIntegrator(i) == SpringIntegrator::Vbd;
        EXPECT_EQ(choice.unavailable.empty(), !implicit) << choice.name << ": " << choice.unavailable;
        if (implicit) {
            EXPECT_NE(choice.unavailable.find("timed passes"), std::string::npos) << choice.unavailable;
        }
    }
    EXPECT_FALSE(findParameter(list, "springs solver", "Newton iterations"));
    EXPECT_FALSE(findParameter(list, "springs solver", "VBD iterations"));
    for (const char* name : {"stretch [N/m]", "shear [N/m]", "bending model", "bending [N/m]", "drag [kg/s]",
                             "compression scale", "slack"})
        EXPECT_TRUE(findParameter(list, "cloth: springs", name)) << name;

    findParameter(list, "cloth: springs", "stretch [N/m]")->set(600.0f);
    findParameter(list, "cloth: springs", "compression scale")->set(0.25f);
    findParameter(list, "cloth: springs", "slack")->set(0.05f);
    showFrames(viewer, 2);
    EXPECT_EQ(scene().cloths[0].springs.stretch, 600.0f);
    EXPECT_EQ(scene().cloths[0].springs.compressionScale, 0.25f);
    EXPECT_EQ(scene().cloths[0].springs.slack, 0.05f);
    EXPECT_THROW(findParameter(list, "cloth: springs", "slack")->set(1.5f), std::invalid_argument);

    // Dihedral under an explicit integrator is fine; then implicit Euler and
    // VBD are greyed out, and picking one anyway is refused.
    findParameter(list, "cloth: springs", "bending model")->set(float(SpringBending::Dihedral));
    showFrames(viewer, 2);
    EXPECT_EQ(scene().cloths[0].springs.bending, SpringBending::Dihedral);
    list = p.parameters();
    integrator = findParameter(list, "springs solver", "integrator");
    ASSERT_TRUE(integrator);
    for (SpringIntegrator implicit : {SpringIntegrator::ImplicitEuler, SpringIntegrator::Vbd})
        EXPECT_NE(integrator->choices[size_t(implicit)].unavailable.find("dihedral"), std::string::npos);
    EXPECT_TRUE(integrator->choices[size_t(SpringIntegrator::Midpoint)].unavailable.empty());
    EXPECT_THROW(integrator->set(float(SpringIntegrator::Vbd)), std::invalid_argument);
    EXPECT_EQ(scene().solver.springs.integrator, SpringIntegrator::SymplecticEuler);
    integrator->set(float(SpringIntegrator::Midpoint));
    showFrames(viewer, 2);
    EXPECT_EQ(scene().solver.springs.integrator, SpringIntegrator::Midpoint);
    viewer.finish();

    // The flag: implicit Euler with quadratic bending. Newton and Jacobi
    // sliders; dihedral greyed out and refused; the bending stiffness in N m.
    viewer.controls().loadRequest = sourcePath("scenes/springs_flag.json");
    showFrames(viewer, 1);
    ASSERT_TRUE(viewer.lastError().empty()) << viewer.lastError();
    list = p.parameters();
    LiveParameter* newton = findParameter(list, "springs solver", "Newton iterations");
    LiveParameter* jacobi = findParameter(list, "springs solver", "Jacobi iterations");
    LiveParameter* bending = findParameter(list, "flag: springs", "bending model");
    ASSERT_TRUE(newton && jacobi && bending);
    EXPECT_EQ(newton->kind, LiveParameter::Kind::Integer);
    EXPECT_EQ(newton->value, 3.0f);
    EXPECT_TRUE(findParameter(list, "flag: springs", "bending [N m]"));
    EXPECT_FALSE(findParameter(list, "flag: springs", "shear [N/m]"));  // a mesh: its springs are its edges
    EXPECT_FALSE(bending->choices[size_t(SpringBending::Dihedral)].unavailable.empty());
    EXPECT_THROW(bending->set(float(SpringBending::Dihedral)), std::invalid_argument);
    EXPECT_EQ(scene().cloths[0].springs.bending, SpringBending::Quadratic);
    newton->set(2.0f);
    jacobi->set(20.0f);
    findParameter(list, "flag: springs", "bending [N m]")->set(0.02f);
    findParameter(list, "flag: springs", "drag [kg/s]")->set(0.003f);
    showFrames(viewer, 2);
    EXPECT_EQ(scene().solver.springs.newtonIterations, 2u);
    EXPECT_EQ(scene().solver.springs.jacobiIterations, 20u);
    EXPECT_EQ(scene().cloths[0].springs.bendingStiffness, 0.02f);
    EXPECT_EQ(scene().cloths[0].springs.drag, 0.003f);
    // More Jacobi iterations than the timer holds are refused, not recorded.
    const uint32_t before = scene().solver.springs.jacobiIterations;
    EXPECT_THROW(jacobi->set(5000.0f), std::invalid_argument);
    EXPECT_EQ(scene().solver.springs.jacobiIterations, before);

    // VBD: its sweep count instead of Newton's.
    findParameter(list, "springs solver", "integrator")->set(float(SpringIntegrator::Vbd));
    list = p.parameters();
    EXPECT_FALSE(findParameter(list, "springs solver", "Newton iterations"));
    LiveParameter* sweeps = findParameter(list, "springs solver", "VBD iterations");
    ASSERT_TRUE(sweeps);
    sweeps->set(4.0f);
    showFrames(viewer, 3);
    viewer.finish();
    EXPECT_EQ(scene().solver.springs.integrator, SpringIntegrator::Vbd);
    EXPECT_EQ(scene().solver.springs.vbdIterations, 4u);
    for (const glm::vec4& x : viewer.simulation().particles().readPositions())
        ASSERT_TRUE(std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z));
    EXPECT_EQ(ctx.validationCounts().total(), 0u);
}

// The Solver panel's PBD path combo sets the live settings' pbdPath: the
// default scene switched live through every path keeps running in the
// window, each frame within the GPU timer's room (a World sizes it for
// every path the scene can run) and validation quiet. "auto" names the path
// it takes; a path a scene cannot run is what the combo greys out, with the
// reason (pathMisfit).
TEST(ViewerControls, PbdPathSwitchedLive) {
    Window window("vksim pbd path test", 640, 360);
    VulkanContext ctx(test::validatedWindowContext(window));
    World sim(ctx, loadScene(sourcePath("scenes/cloth_sphere.json")), Viewer::kFramesInFlight);
    Viewer viewer(ctx, window, sim, {});
    showFrames(viewer, 2);
    World& world = viewer.simulation();
    const PbdPath automatic = world.solver<PbdSolver>().pathFor(world.scene().solver);
    for (PbdPath path : {PbdPath::PerColour, PbdPath::Workgroup, PbdPath::Clusters, PbdPath::Auto}) {
        EXPECT_FALSE(world.solver<PbdSolver>().pathMisfit(path).has_value()) << kPbdPathNames[size_t(path)];
        SolverSettings switched = world.scene().solver;
        switched.pbd.path = path;
        ASSERT_LE(world.passRunsPerFrame(switched), world.timerCapacity()) << kPbdPathNames[size_t(path)];
        world.scene().solver.pbd.path = path;
        const uint64_t before = world.framesRecorded();
        showFrames(viewer, 2);
        EXPECT_EQ(world.framesRecorded(), before + 2) << kPbdPathNames[size_t(path)];
        EXPECT_EQ(world.solver<PbdSolver>().pathFor(world.scene().solver), path == PbdPath::Auto ? automatic : path);
    }
    viewer.finish();
    EXPECT_EQ(ctx.validationCounts().total(), 0u);

    Scene big = loadScene(sourcePath("scenes/cloth_sphere.json"));
    big.cloths[0].grid.resolution = {64, 64};  // more than lavapipe's 2730 particles in a workgroup
    World bigWorld(ctx, big, 1);
    const std::optional<std::string>& misfit = bigWorld.solver<PbdSolver>().pathMisfit(PbdPath::Workgroup);
    if (4096 > bigWorld.solver<PbdSolver>().workgroupPath().capacity()) {
        ASSERT_TRUE(misfit.has_value());
        EXPECT_NE(misfit->find("'cloth' has 4096 particles"), std::string::npos) << *misfit;
    }
    EXPECT_FALSE(bigWorld.solver<PbdSolver>().pathMisfit(PbdPath::PerColour).has_value());
}

}  // namespace
}  // namespace vksim
