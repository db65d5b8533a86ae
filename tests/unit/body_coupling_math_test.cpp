// The two-way coupling's shared math (shaders/rigid/rigid_math.glsl,
// aggregateVelocityChange, compiled as C++ double; docs/physics.md §11,
// "Two-way coupling"): the body and the particles that touched it share
// the momentum the particles gave, as one rigid aggregate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "geometry/shared_math.h"

namespace vksim {
namespace {

using glm::dmat3;
using glm::dvec3;

struct Particle {
    dvec3 r;  // offset from the body's centre of mass
    double m;
};

// A box-like inertia, turned by a rotation, and particles around it.
struct Aggregate {
    double inverseMass;
    dmat3 inertia;
    std::vector<Particle> particles;
};

Aggregate randomAggregate(std::mt19937& random) {
    std::uniform_real_distribution<double> unit(-1.0, 1.0), positive(0.1, 2.0);
    Aggregate aggregate;
    const double mass = positive(random);
    aggregate.inverseMass = 1.0 / mass;
    const dvec3 half(positive(random), positive(random), positive(random));
    const dmat3 principal(mass * (half.y * half.y + half.z * half.z) / 3.0, 0, 0, 0,
                          mass * (half.x * half.x + half.z * half.z) / 3.0, 0, 0, 0,
                          mass * (half.x * half.x + half.y * half.y) / 3.0);
    const glm::dquat q = glm::normalize(glm::dquat(unit(random), unit(random), unit(random), unit(random)));
    const dmat3 rotation = glm::mat3_cast(q);
    aggregate.inertia = rotation * principal * glm::transpose(rotation);
    for (int i = 0; i < 12; ++i)
        aggregate.particles.push_back({dvec3(unit(random), unit(random), unit(random)), 0.05 * positive(random)});
    return aggregate;
}

// The particles' sums the gather takes (rigid/particle_impulses.comp).
struct Sums {
    double mass = 0.0;
    dvec3 moment{0.0};
    dmat3 spread{0.0};
};

Sums sumsOf(const std::vector<Particle>& particles) {
    Sums sums;
    for (const Particle& p : particles) {
        sums.mass += p.m;
        sums.moment += p.m * p.r;
        sums.spread += p.m * (glm::dot(p.r, p.r) * dmat3(1.0) - glm::outerProduct(p.r, p.r));
    }
    return sums;
}

// Whatever j and torque the particles gave, the aggregate's change keeps the
// linear and angular momentum of body and particles: M dV plus each
// particle's m (dV + dw x r) is j, and I dw plus each one's
// r x m (dV + dw x r) is the torque, to double rounding (1e-12 relative).
TEST(BodyCouplingMath, TheAggregateKeepsMomentum) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    double worst = 0.0;
    for (int trial = 0; trial < 100; ++trial) {
        const Aggregate aggregate = randomAggregate(random);
        const Sums sums = sumsOf(aggregate.particles);
        const dvec3 j(unit(random), unit(random), unit(random)), torque(unit(random), unit(random), unit(random));
        const ref::BodyVelocity change = ref::aggregateVelocityChange(
            aggregate.inverseMass, aggregate.inertia, j, torque, sums.mass, sums.moment, sums.spread);
        dvec3 linear = change.linear / aggregate.inverseMass, angular = aggregate.inertia * change.angular;
        for (const Particle& p : aggregate.particles) {
            const dvec3 v = change.linear + glm::cross(change.angular, p.r);
            linear += p.m * v;
            angular += p.m * glm::cross(p.r, v);
        }
        worst = std::max({worst, glm::length(linear - j) / glm::length(j),
                          glm::length(angular - torque) / glm::length(torque)});
    }
    std::printf("aggregate: worst momentum error over 100 random bodies %.2e (relative)\n", worst);
    EXPECT_LT(worst, 1e-12);
}

// With one particle, the aggregate's change at the particle is the
// particle-body impulse of a contact that stops their relative motion: the
// particle, pushed by the body by d (momentum m d / h given back as
// j = -m d / h), and the body end at the same velocity at r, which is what
// (1/m + K)^-1 with the body's K matrix gives (docs/physics.md §11).
TEST(BodyCouplingMath, OneParticleIsTheKMatrixContact) {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int trial = 0; trial < 20; ++trial) {
        const Aggregate aggregate = randomAggregate(random);
        const Particle p = aggregate.particles[0];
        // Before the exchange the particle moves at u relative to a body at rest.
        const dvec3 u(unit(random), unit(random), unit(random));
        // Stopped by the push d = -u h, it gave the body j = -m d / h = m u.
        const dvec3 j = p.m * u;
        const Sums sums = sumsOf({p});
        const ref::BodyVelocity change = ref::aggregateVelocityChange(
            aggregate.inverseMass, aggregate.inertia, j, glm::cross(p.r, j), sums.mass, sums.moment, sums.spread);
        // The particle's velocity afterwards: stopped (0), then its share of the change.
        const dvec3 particleAfter = change.linear + glm::cross(change.angular, p.r);
        // The impulse P on the body at r that brings body point (K P) and
        // particle (u - P/m) to one velocity: P = (1/m + K)^-1 u.
        const dmat3 K = ref::contactMatrix(aggregate.inverseMass, glm::inverse(aggregate.inertia), p.r);
        const dvec3 bodyPoint = K * (glm::inverse(dmat3(1.0 / p.m) + K) * u);
        EXPECT_LT(glm::length(particleAfter - bodyPoint), 1e-12 * glm::length(u)) << trial;
    }
}

}  // namespace
}  // namespace vksim
