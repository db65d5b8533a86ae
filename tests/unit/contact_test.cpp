// Contact velocity (docs/physics.md §3, contactVelocity in shaders/particle/contact.glsl):
// restitution on the normal part, Coulomb friction on the tangential part.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "cloth_scenes.h"
#include "geometry/shared_math.h"

namespace vksim {
namespace {

using glm::dvec3;

dvec3 unitVector(uint32_t i, uint32_t salt) {
    return glm::normalize(dvec3(test::hashUnit(i, salt), test::hashUnit(i, salt + 1), test::hashUnit(i, salt + 2)));
}

TEST(ContactVelocity, RestitutionReflectsTheApproachSpeed) {
    // Any normal: after the solve left a small normal velocity, the result's
    // normal part is mu_N times the approach speed, the tangential part is
    // kept (no friction).
    for (uint32_t i = 0; i < 50; ++i) {
        dvec3 n = unitVector(i, 1);
        dvec3 tangent = glm::normalize(glm::cross(n, unitVector(i, 7)));
        double approach = -2.0, restitution = 0.4;
        dvec3 v = 0.7 * tangent + 0.05 * n;
        dvec3 out = ref::contactVelocity(v, n, approach, -approach, 0.0, restitution, 0.1);
        EXPECT_NEAR(glm::dot(out, n), restitution * 2.0, 1e-14);
        EXPECT_LT(glm::length((out - glm::dot(out, n) * n) - 0.7 * tangent), 1e-14);
    }
}

TEST(ContactVelocity, NormalVelocityIsNeverReducedAndSlowContactsDoNotBounce) {
    const dvec3 n(0, 1, 0);
    // The solve already separates faster than the bounce: kept.
    EXPECT_DOUBLE_EQ(ref::contactVelocity({0, 1.5, 0}, n, -2.0, 2.0, 0.0, 0.5, 0.1).y, 1.5);
    // Approach below the threshold (resting contact): no bounce.
    EXPECT_DOUBLE_EQ(ref::contactVelocity({0, 0.01, 0}, n, -0.05, 0.05, 0.0, 1.0, 0.1).y, 0.01);
    // Separating particles that nothing pushed are left alone, friction
    // included.
    dvec3 v(3, 1, 0);
    dvec3 out = ref::contactVelocity(v, n, 0.5, 0.0, 10.0, 0.5, 0.1);
    EXPECT_EQ(out, v);
    // Pushed out though separating (a solid's vertex pressed down by the
    // weight above it): friction, no bounce.
    out = ref::contactVelocity(v, n, 0.5, 0.1, 10.0, 0.5, 0.1);
    EXPECT_NEAR(out.x, 3.0 * (1.0 - 10.0 * 1.5 * 0.1 / 3.0), 1e-15);
    EXPECT_EQ(out.y, 1.0);
}

TEST(ContactVelocity, FrictionFollowsCoulombAndNeverReverses) {
    // a = max(1 - mu_T (1 + mu_N) v_N / |v_T|, 0) with v_N the normal speed
    // the collision stages gave the particle, not its approach speed.
    const dvec3 n(0, 1, 0);
    dvec3 out = ref::contactVelocity({2, 0, 0}, n, -1.0, 1.0, 0.2, 0.5, 0.1);
    EXPECT_NEAR(out.x, 2.0 * (1.0 - 0.2 * 1.5 * 1.0 / 2.0), 1e-15);
    out = ref::contactVelocity({2, 0, 0}, n, -1.0, 3.0, 0.2, 0.5, 0.1);
    EXPECT_NEAR(out.x, 2.0 * (1.0 - 0.2 * 1.5 * 3.0 / 2.0), 1e-15);

    for (uint32_t i = 0; i < 200; ++i) {
        dvec3 nr = unitVector(i, 11);
        dvec3 v = 3.0 * dvec3(test::hashUnit(i, 20), test::hashUnit(i, 21), test::hashUnit(i, 22));
        double approach = -std::abs(test::hashUnit(i, 23)) - 0.01;
        double friction = 5.0 * std::abs(test::hashUnit(i, 24));
        double restitution = std::abs(test::hashUnit(i, 25));
        dvec3 after = ref::contactVelocity(v, nr, approach, -approach, friction, restitution, 0.0);
        dvec3 vt = v - glm::dot(v, nr) * nr;
        dvec3 afterT = after - glm::dot(after, nr) * nr;
        EXPECT_GE(glm::dot(afterT, vt), -1e-15) << "tangential velocity reversed";
        EXPECT_LE(glm::length(afterT), glm::length(vt) + 1e-15);
        EXPECT_LT(glm::length(glm::cross(afterT, vt)), 1e-12 * (1.0 + glm::dot(vt, vt))) << "direction changed";
    }
}

TEST(ContactVelocity, LargeFrictionStopsSliding) {
    const dvec3 n = glm::normalize(dvec3(0.2, 1, -0.1));
    dvec3 out = ref::contactVelocity(dvec3(1, 0.3, 2), n, -0.5, 0.5, 100.0, 0.0, 0.1);
    EXPECT_LT(glm::length(out - glm::dot(out, n) * n), 1e-15);
}

// math/coulomb_friction.glsl: a contact sticks inside the static cone and
// slides with the kinetic coefficient outside it.
TEST(CoulombFriction, StaticConeHoldsKineticConeSlides) {
    // mu_s = 0.6, mu_k = 0.2, normal 1: a tangential 0.5 sticks (all of it is
    // taken), 0.7 slides with 0.2 taken.
    EXPECT_TRUE(ref::frictionSticks(0.5, 1.0, 0.6));
    EXPECT_DOUBLE_EQ(ref::frictionMagnitude(0.5, 1.0, 0.6, 0.2), 0.5);
    EXPECT_FALSE(ref::frictionSticks(0.7, 1.0, 0.6));
    EXPECT_DOUBLE_EQ(ref::frictionMagnitude(0.7, 1.0, 0.6, 0.2), 0.2);
    // Nothing to hold: nothing taken.
    EXPECT_EQ(ref::frictionMagnitude(0.0, 1.0, 0.6, 0.2), 0.0);
}

// With mu_s = mu_k the rule is the single coefficient's min(stick, mu
// normal), exactly, so that scenes without "staticFriction" step as before:
// over random values about the cone's edge, where the two branches meet.
TEST(CoulombFriction, EqualCoefficientsAreTheSingleCoefficientRule) {
    uint32_t differing = 0;
    for (uint32_t i = 0; i < 2000; ++i) {
        const double normal = std::abs(test::hashUnit(i, 31));
        const double mu = 2.0 * std::abs(test::hashUnit(i, 32));
        const double stick = mu * normal * (1.0 + 1e-15 * std::round(10.0 * test::hashUnit(i, 33)));
        if (ref::frictionMagnitude(stick, normal, mu, mu) != std::min(stick, mu * normal)) ++differing;
    }
    EXPECT_EQ(differing, 0u);
}

// The pair correction (contact_math.glsl) with a slip between the kinetic
// and the static cones: undone with mu_s above it, cut by mu_k d with
// mu_s = mu_k.
TEST(CoulombFriction, PairCorrectionSticksInsideTheStaticCone) {
    // Two particles of equal mass, k pushed 0.01 into l's contact distance
    // 0.1 along y, slipping 0.004 along x over the substep: 0.4 of the depth.
    const dvec3 xk(0, 0.1, 0), xl(0, 0, 0), pk(0.004, 0.09, 0), pl(0, 0, 0);
    const dvec3 rest(0, 1, 0);
    const dvec3 held = ref::contactCorrection(pk, 1.0, xk, pl, 1.0, xl, rest, 0.1, 0.6, 0.2, true);
    const dvec3 slides = ref::contactCorrection(pk, 1.0, xk, pl, 1.0, xl, rest, 0.1, 0.2, 0.2, true);
    const dvec3 n = glm::normalize(pk - pl);
    auto tangential = [&](const dvec3& c) { return c - glm::dot(c, n) * n; };
    const dvec3 slip = tangential(pk - xk);
    // Half of each correction is k's (equal masses).
    EXPECT_LT(glm::length(tangential(held) + 0.5 * slip), 1e-15) << "the slip is not undone";
    const double depth = 0.1 - glm::length(pk - pl);
    EXPECT_NEAR(glm::length(tangential(slides)), 0.5 * 0.2 * depth, 1e-15);
}

}  // namespace
}  // namespace vksim
