// The CPU reference of the solids (solvers/elastic_solid_reference.h) against
// closed forms of linear elasticity: the static elongation of a bar hanging
// under its own weight, falling with refinement, and its lateral contraction
// at Poisson's ratio nu. The GPU solvers are tested against this reference
// and the same closed forms (tests/gpu/solid_physics_test.cpp).
#include <gtest/gtest.h>

#include <glm/glm.hpp>

#include "solvers/elastic_solid_reference.h"

namespace vksim {
namespace {

constexpr double kGravity = 9.81;

// A bar of 0.1 x `length` x 0.1 m along y, hanging from its top face (+y).
SolidObject hangingBar(glm::uvec3 cells, float youngsModulus, float poissonRatio, float length = 1.0f) {
    SolidObject bar;
    bar.name = "bar";
    bar.shape = SolidShape::Box;
    bar.size = glm::vec3(0.1f, length, 0.1f);
    bar.cells = cells;
    bar.pinnedFaces = {BoxFace::PlusY};
    bar.method = SolidMethod::Vbd;
    bar.material = ElasticMaterial{.model = ElasticModel::NeoHookean, .youngsModulus = youngsModulus,
                                   .poissonRatio = poissonRatio, .density = 1000.0f};
    return bar;
}

struct StaticBar {
    ElasticSolidModel model;
    NewtonResult result;
};

StaticBar hangStatically(const SolidObject& bar) {
    StaticBar s{elasticSolidModel(bar), {}};
    s.result = minimiseElasticObjective(s.model, {.acceleration = glm::dvec3(0.0, -kGravity, 0.0)}, s.model.rest,
                                        1e-9);
    return s;
}

// The mean displacement of the bottom face along y.
double bottomDrop(const StaticBar& s) {
    double lowest = 1e30, sum = 0.0;
    for (const glm::dvec3& p : s.model.rest) lowest = std::min(lowest, p.y);
    int count = 0;
    for (size_t i = 0; i < s.model.rest.size(); ++i)
        if (std::abs(s.model.rest[i].y - lowest) < 1e-6) {
            sum += s.model.rest[i].y - s.result.x[i].y;
            ++count;
        }
    return sum / count;
}

// delta = rho g L^2 / (2 E) at nu = 0. E = 1e8 Pa keeps the strain below
// 1e-4, where the Neo-Hookean bar differs from linear elasticity by a few
// 1e-6 (the floor a finer bar reaches); above it is the discretisation's
// error, which falls with each refinement, most along the bar's length.
TEST(ElasticSolidReference, HangingBarElongationConvergesToTheClosedForm) {
    const double closedForm = 1000.0 * kGravity * 1.0 / (2.0 * 1e8);
    double previous = 1e30;
    for (glm::uvec3 cells : {glm::uvec3(1, 2, 1), glm::uvec3(1, 4, 1), glm::uvec3(1, 8, 1), glm::uvec3(1, 16, 1),
                             glm::uvec3(2, 16, 2)}) {
        const StaticBar s = hangStatically(hangingBar(cells, 1e8f, 0.0f));
        ASSERT_TRUE(s.result.converged) << "gradient " << s.result.gradientNorm;
        const double error = std::abs(bottomDrop(s) / closedForm - 1.0);
        std::cout << fmt::format("cells {}x{}x{}: drop {:.6e} m, closed form {:.6e} m, relative error {:.2e} "
                                 "({} Newton iterations)\n",
                                 cells.x, cells.y, cells.z, bottomDrop(s), closedForm, error, s.result.iterations);
        EXPECT_LT(error, previous);
        previous = error;
    }
    EXPECT_LT(previous, 1e-5);
}

// At mid-length of a long bar, far from the pinned face, the stress is
// uniaxial: the width contracts by nu times the axial strain there,
// rho g (L/2) / E.
TEST(ElasticSolidReference, HangingBarContractsByPoissonsRatio) {
    const float nu = 0.3f;
    const StaticBar s = hangStatically(hangingBar({4, 40, 4}, 1e7f, nu));
    ASSERT_TRUE(s.result.converged);
    double widthRest = 0.0, widthNow = 0.0, minX = 1e30, maxX = -1e30, minXNow = 1e30, maxXNow = -1e30;
    for (size_t i = 0; i < s.model.rest.size(); ++i)
        if (std::abs(s.model.rest[i].y - 0.0) < 1e-6) {  // the mid-length layer (the box is centred at 0)
            minX = std::min(minX, s.model.rest[i].x);
            maxX = std::max(maxX, s.model.rest[i].x);
            minXNow = std::min(minXNow, s.result.x[i].x);
            maxXNow = std::max(maxXNow, s.result.x[i].x);
        }
    widthRest = maxX - minX;
    widthNow = maxXNow - minXNow;
    const double axialStrain = 1000.0 * kGravity * 0.5 / 1e7;
    const double ratio = -(widthNow / widthRest - 1.0) / axialStrain;
    std::cout << fmt::format("lateral / axial strain at mid-length: {:.4f} (nu = {})\n", ratio, nu);
    EXPECT_NEAR(ratio, nu, 0.05 * nu);
}

}  // namespace
}  // namespace vksim
