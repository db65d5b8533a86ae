// What every solver must do, typed over the solvers (solver_traits.h): match
// its CPU reference (reference/), be deterministic, conserve the momentum of
// its internal forces, and name its own pass when it goes non-finite. The
// GPU side uses only the public World API. Each case prints what it measured.
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gpu_harness.h"
#include "solver_traits.h"
#include "solvers/model_builder.h"
#include "world/world.h"
#include "world_frames.h"

namespace vksim::test {
namespace {

template <typename Traits>
class SolverConformance : public GpuTest {};

using Solvers = ::testing::Types<PbdTraits, PdTraits, SpringsVerletTraits, SpringsNewtonTraits, VbdTraits>;
TYPED_TEST_SUITE(SolverConformance, Solvers);

std::vector<glm::vec4> positionsOf(const World& world) { return world.positions().downloadArray<glm::vec4>(); }

// Sum of m (x1 - x0) / dt over the particles, m = 1/w from the positions'
// w: the momentum averaged over the frame, which is the momentum itself
// while every substep conserves it.
glm::dvec3 frameMomentum(const std::vector<glm::vec4>& x0, const std::vector<glm::vec4>& x1, double dt) {
    glm::dvec3 p(0.0);
    for (size_t i = 0; i < x0.size(); ++i)
        if (x0[i].w > 0.0f) p += (glm::dvec3(glm::vec3(x1[i])) - glm::dvec3(glm::vec3(x0[i]))) / (dt * x0[i].w);
    return p;
}

TYPED_TEST(SolverConformance, GpuMatchesTheCpuReference) {
    const Scene scene = TypeParam::referenceScene();
    World world(this->ctx(), scene, 1);
    typename TypeParam::Reference reference(world.model());
    const ParticleRange range = reference.range(reference.world());
    ASSERT_GT(range.count, 0u);
    constexpr uint32_t kFrames = 40;  // the fall, the contact and the first settling
    double worst = 0.0;
    for (uint32_t f = 1; f <= kFrames; ++f) {
        runWorldFrames(this->ctx(), world, 1);
        reference.step(scene.solver);
        const std::vector<glm::vec4> gpu = positionsOf(world);
        double d = 0.0;
        for (uint32_t i = range.first; i < range.end(); ++i)
            d = std::max(d, glm::length(glm::dvec3(glm::vec3(gpu[i])) - reference.positions()[i]));
        worst = std::max(worst, d);
        if (f % 10 == 0) std::cout << fmt::format("[conformance {}] gpu vs reference frame {:>2}: max {:.3e} m\n",
                                                  TypeParam::kName, f, d);
    }
    // The cloth moved: a test of a resting state could not fail.
    double moved = 0.0;
    for (uint32_t i = range.first; i < range.end(); ++i)
        moved = std::max(moved, glm::length(reference.positions()[i] - glm::dvec3(glm::vec3(world.model().positions[i]))));
    std::cout << fmt::format("[conformance {}] gpu vs reference worst {:.3e} m (bound {:.0e} m), cloth moved {:.3f} m\n",
                             TypeParam::kName, worst, TypeParam::kReferenceTolerance, moved);
    EXPECT_GT(moved, 0.1);
    EXPECT_LT(worst, TypeParam::kReferenceTolerance);
}

// The same scene built twice runs the same dispatches on the same data:
// any difference is a race (a colour sharing a particle, a missing barrier)
// or uninitialised memory.
TYPED_TEST(SolverConformance, TwoWorldsAreBitIdentical) {
    const Scene scene = TypeParam::referenceScene();
    World a(this->ctx(), scene, 1), b(this->ctx(), scene, 1);
    constexpr uint32_t kFrames = 20;
    runWorldFrames(this->ctx(), a, kFrames);
    runWorldFrames(this->ctx(), b, kFrames);
    const std::vector<glm::vec4> xa = positionsOf(a), xb = positionsOf(b), x0 = a.model().positions;
    ASSERT_EQ(xa.size(), xb.size());
    size_t differing = 0, moved = 0;
    for (size_t i = 0; i < xa.size(); ++i) {
        differing += std::memcmp(&xa[i], &xb[i], sizeof(glm::vec4)) != 0;
        moved += xa[i] != x0[i];
    }
    std::cout << fmt::format("[conformance {}] determinism: {} of {} particles differ after {} frames ({} moved)\n",
                             TypeParam::kName, differing, xa.size(), kFrames, moved);
    EXPECT_GT(moved, 0u);
    EXPECT_EQ(differing, 0u);
}

// Internal forces are translation invariant, so each substep keeps sum m v
// of a free object. The reference, in double, from random velocities and
// unequal masses: exact up to double rounding (each traits' bound says why).
TYPED_TEST(SolverConformance, ReferenceConservesMomentum) {
    SimModel model = buildModel(TypeParam::freeScene());
    TypeParam::makeMassesUnequal(model);
    for (uint32_t i = 0; i < model.velocities.size(); ++i)
        model.velocities[i] += glm::vec4(float(hashUnit(i, 1)), float(hashUnit(i, 2)), float(hashUnit(i, 3)), 0.0f);
    typename TypeParam::Reference reference(model);
    const glm::dvec3 p0 = reference.linearMomentum();
    double scale = 0.0;  // sum m |v|: what the rounding is relative to
    for (size_t i = 0; i < reference.velocities().size(); ++i)
        if (reference.inverseMasses()[i] > 0.0) scale += glm::length(reference.velocities()[i]) / reference.inverseMasses()[i];
    const SolverSettings settings = TypeParam::freeScene().solver;
    for (uint32_t f = 0; f < 30; ++f) reference.step(settings);
    const double drift = glm::length(reference.linearMomentum() - p0) / scale;
    // The random velocities deformed the object: internal forces did act.
    double speedChange = 0.0;
    for (uint32_t i = 0; i < model.velocities.size(); ++i)
        speedChange = std::max(speedChange, glm::length(reference.velocities()[i] - glm::dvec3(glm::vec3(model.velocities[i]))));
    std::cout << fmt::format("[conformance {}] reference momentum drift {:.2e} (relative to sum m|v|), "
                             "largest velocity change {:.3f} m/s\n", TypeParam::kName, drift, speedChange);
    EXPECT_GT(speedChange, 0.05);
    EXPECT_LT(drift, TypeParam::kReferenceMomentumTolerance);
}

// The GPU in float32. The public World API starts objects with a uniform
// velocity only, so the object is deformed by dragging one particle for a
// few frames (an external force), then released; from there on only
// internal forces act and the frame momentum must stay where it was.
TYPED_TEST(SolverConformance, GpuConservesMomentum) {
    const Scene scene = TypeParam::freeScene();
    World world(this->ctx(), scene, 1);
    const double dt = scene.solver.timeStep;
    const glm::vec3 grabbed = glm::vec3(world.model().positions[0]);
    world.drag(0, grabbed + glm::vec3(0.0f, 0.3f, 0.0f));
    runWorldFrames(this->ctx(), world, 3);
    world.release();
    std::vector<glm::vec4> previous = positionsOf(world);
    double mass = 0.0;
    for (const glm::vec4& x : previous) mass += x.w > 0.0f ? 1.0 / x.w : 0.0;
    std::optional<glm::dvec3> released;
    double drift = 0.0;
    constexpr uint32_t kFrames = 30;
    for (uint32_t f = 0; f < kFrames; ++f) {
        runWorldFrames(this->ctx(), world, 1);
        std::vector<glm::vec4> x = positionsOf(world);
        const glm::dvec3 p = frameMomentum(previous, x, dt);
        if (!released) released = p;
        drift = std::max(drift, glm::length(p - *released));
        previous = std::move(x);
    }
    const double relative = drift / glm::length(*released);
    std::cout << fmt::format("[conformance {}] gpu momentum after release ({:.4f}, {:.4f}, {:.4f}) kg m/s, "
                             "drift over {} frames {:.2e} kg m/s ({:.2e} relative), total mass {:.3f} kg\n",
                             TypeParam::kName, released->x, released->y, released->z, kFrames, drift, relative, mass);
    // Each solver's bound says why (solver_traits.h).
    EXPECT_LT(relative, TypeParam::kGpuMomentumTolerance);
}

// A scene that overflows float32 in its first substep is caught by the
// end-of-frame check, and the replay names a pass of this solver.
TYPED_TEST(SolverConformance, NonFiniteReplayNamesOneOfItsPasses) {
    World world(this->ctx(), TypeParam::nonFiniteScene(), 1);
    std::optional<uint64_t> flagged;
    for (uint32_t f = 0; f < 3 && !flagged; ++f) {
        runWorldFrames(this->ctx(), world, 1);
        flagged = world.nonFiniteFrame(0);
    }
    ASSERT_TRUE(flagged.has_value()) << "the overflow was not detected";
    std::string message;
    try {
        world.throwIfNonFinite(0);
    } catch (const NonFiniteError& e) {
        message = e.what();
    }
    std::cout << fmt::format("[conformance {}] {}\n", TypeParam::kName, message);
    const size_t open = message.find("pass \"");
    ASSERT_NE(open, std::string::npos) << message;
    const size_t first = open + 6, close = message.find('"', first);
    ASSERT_NE(close, std::string::npos) << message;
    const std::string pass = message.substr(first, close - first);
    EXPECT_TRUE(TypeParam::ownsPass(pass)) << "pass \"" << pass << "\" is not a " << TypeParam::kName << " pass";
}

}  // namespace
}  // namespace vksim::test
