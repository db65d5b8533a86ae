#include "solvers/rigid/rigid_reference.h"

#include "geometry/shared_math.h"

namespace vksim {

RigidReference::RigidReference(const RigidModelView& model)
    : meshSdfGrids_(model.shared.meshSdfGrids), pairs_(model.rigid.pairs), roundStarts_(model.rigid.roundStarts) {
    const RigidModel& rigid = model.rigid;
    for (uint32_t b = 0; b < rigid.bodyCount(); ++b) {
        const gpu::RigidBody& gpuBody = rigid.bodies[b];
        Body body;
        // From the double model, not the float constants: the reference sees the exact body.
        body.inverseMass = 1.0 / rigid.masses[b];
        body.inertia = rigid.inertias[b];
        body.inverseInertia = glm::inverse(body.inertia);
        for (uint32_t i = 0; i < gpuBody.pointCount; ++i)
            body.points.emplace_back(glm::vec3(rigid.points[gpuBody.firstPoint + i]));
        body.friction = gpuBody.friction;
        body.staticFriction = gpuBody.staticFriction;
        body.restitution = gpuBody.restitution;
        body.boundingRadius = gpuBody.boundingRadius;
        body.shape = ReferenceCollider::fromGpu(rigid.shapes[b]);
        bodies_.push_back(std::move(body));
        const gpu::RigidBodyState& s = rigid.states[b];
        states_.push_back({glm::dvec3(glm::vec3(s.position)), glm::normalize(glm::dvec4(s.rotation)),
                           glm::dvec3(glm::vec3(s.linearVelocity)), glm::dvec3(glm::vec3(s.angularVelocity))});
    }
    for (const gpu::Collider& c : model.shared.colliders) colliders_.push_back(ReferenceCollider::fromGpu(c));
}

ReferenceCollider RigidReference::particleCollider(uint32_t b) const {
    const ReferenceBodyState& s = states_[b];
    const ref::BodyShapeFrame frame =
        ref::bodyShapeFrame(s.position, s.rotation, s.linearVelocity, s.angularVelocity, bodies_[b].shape.position);
    ReferenceCollider c = bodies_[b].shape;
    c.position = frame.origin;
    c.rotation = s.rotation;
    c.linearVelocity = frame.velocity;
    c.angularVelocity = s.angularVelocity;
    return c;
}

RigidReference::Change RigidReference::shareWithParticles(uint32_t b, const ParticleSums& sums, bool displacement,
                                                          double h) {
    const Body& body = bodies_[b];
    if (!(sums.mass > 0.0) || !(body.inverseMass > 0.0)) return {};
    ReferenceBodyState& s = states_[b];
    const glm::dmat3 inertia = ref::worldTensor(s.rotation, body.inertia);
    const ref::BodyVelocity dv = ref::aggregateVelocityChange(body.inverseMass, inertia, sums.j, sums.torque,
                                                              sums.mass, sums.moment, sums.spread);
    if (displacement) {
        s.position += dv.linear;
        s.rotation = ref::integrateRotation(s.rotation, dv.angular, 1.0);
        s.linearVelocity += dv.linear / h;
        s.angularVelocity += dv.angular / h;
    } else {
        s.linearVelocity += dv.linear;
        s.angularVelocity += dv.angular;
    }
    return {dv.linear, dv.angular};
}

void RigidReference::stepFrame(const SolverSettings& settings) {
    const double h = static_cast<double>(settings.timeStep) / settings.substeps;
    for (uint32_t s = 0; s < settings.substeps; ++s) stepSubstep(settings, h);
}

// As RigidSolver records it: per iteration every body's collider contacts
// (the first after its velocity update), then every round of pairs; then
// the positions. Bodies within a pass, and pairs within a round, touch
// disjoint state, so their order here changes nothing.
void RigidReference::stepSubstep(const SolverSettings& settings, double h) {
    const ref::MeshSdfGridScope grids(meshSdfGrids_);
    const uint32_t count = static_cast<uint32_t>(bodies_.size());
    for (uint32_t iteration = 0; iteration < settings.rigid.iterations; ++iteration) {
        for (uint32_t b = 0; b < count; ++b) {
            if (iteration == 0) integrateVelocity(b, settings, h);
            if (settings.rigid.contact == RigidContact::Impulse) collide(bodies_[b], states_[b], settings, h);
            else if (iteration == 0) penalty(bodies_[b], states_[b], settings, h);
        }
        for (const glm::uvec2& pair : pairs_) solvePair(pair.x, pair.y, settings, h);
    }
    for (uint32_t b = 0; b < count; ++b) integratePositions(b, settings, h);
}

void RigidReference::integrateVelocity(uint32_t b, const SolverSettings& settings, double h) {
    const Body& body = bodies_[b];
    ReferenceBodyState& s = states_[b];
    const RigidSettings& rigid = settings.rigid;
    s.startLinearVelocity = s.linearVelocity;
    s.startAngularVelocity = s.angularVelocity;
    const ref::BodyVelocity v = ref::integrateBodyVelocity(s.linearVelocity, s.angularVelocity, s.rotation,
                                                           body.inertia, body.inverseMass, glm::dvec3(settings.gravity),
                                                           h, rigid.linearDamping, rigid.angularDamping, rigid.gyroscopic);
    s.linearVelocity = v.linear;
    s.angularVelocity = v.angular;
}

void RigidReference::integratePositions(uint32_t b, const SolverSettings& settings, double h) {
    ReferenceBodyState& s = states_[b];
    const ref::BodyVelocity moving =
        ref::movingVelocity({s.startLinearVelocity, s.startAngularVelocity}, {s.linearVelocity, s.angularVelocity},
                            settings.rigid.integrator == RigidIntegrator::Midpoint);
    s.position += h * moving.linear;
    s.rotation = ref::integrateRotation(s.rotation, moving.angular, h);
    s.angularVelocity = ref::carriedAngularVelocity(s.angularVelocity, moving.angular, h);
    pushOut(bodies_[b], s, settings);
}

double RigidReference::bodyDistance(uint32_t b, const ReferenceBodyState& pose, const glm::dvec3& x) const {
    const ReferenceCollider& shape = bodies_[b].shape;
    return ref::sdfWorld(shape.type, pose.position + ref::quatRotate(pose.rotation, shape.position), pose.rotation,
                         shape.size, x);
}

glm::dvec3 RigidReference::bodyGradient(uint32_t b, const ReferenceBodyState& pose, const glm::dvec3& x,
                                        double stencil) const {
    const ReferenceCollider& shape = bodies_[b].shape;
    return ref::sdfGradientTetra(shape.type, pose.position + ref::quatRotate(pose.rotation, shape.position),
                                 pose.rotation, shape.size, x, stencil);
}

glm::dvec4 RigidReference::penetrationInside(uint32_t from, const ReferenceBodyState& fromPose, uint32_t into,
                                             const ReferenceBodyState& intoPose, double stencil, double sign) const {
    glm::dvec4 penetration(0.0);
    for (const glm::dvec3& point : bodies_[from].points) {
        const glm::dvec3 x = fromPose.position + ref::quatRotate(fromPose.rotation, point);
        const double depth = -bodyDistance(into, intoPose, x);
        if (!(depth > 0.0)) continue;
        const glm::dvec3 grad = bodyGradient(into, intoPose, x, stencil);
        if (!(glm::length(grad) > 0.0)) continue;
        penetration =
            glm::dvec4(glm::dvec3(penetration) + sign * depth * glm::normalize(grad), std::max(penetration.w, depth));
    }
    return penetration;
}

// body_pairs.comp for one pair.
void RigidReference::solvePair(uint32_t a, uint32_t b, const SolverSettings& settings, double h) {
    const Body& A = bodies_[a];
    const Body& B = bodies_[b];
    ReferenceBodyState& sA = states_[a];
    ReferenceBodyState& sB = states_[b];
    const double stencil = settings.stencilStep;
    const double reach = A.boundingRadius + B.boundingRadius +
                         h * (glm::length(sA.linearVelocity - sB.linearVelocity) +
                              glm::length(sA.angularVelocity) * A.boundingRadius +
                              glm::length(sB.angularVelocity) * B.boundingRadius);
    if (glm::length(sA.position - sB.position) > reach) return;
    const double inverseMassSum = A.inverseMass + B.inverseMass;
    if (!(inverseMassSum > 0.0)) return;

    const glm::dvec4 aInB = penetrationInside(a, sA, b, sB, stencil, 1.0);
    const glm::dvec4 bInA = penetrationInside(b, sB, a, sA, stencil, -1.0);
    const glm::dvec3 direction = glm::dvec3(aInB) + glm::dvec3(bInA);
    const double depth = std::max(aInB.w, bInA.w);
    const double slop = settings.rigid.penetrationSlop;
    if (depth > slop && glm::length(direction) > 0.0) {
        const glm::dvec3 separation = (depth - slop) * glm::normalize(direction);
        sA.position += (A.inverseMass / inverseMassSum) * separation;
        sB.position -= (B.inverseMass / inverseMassSum) * separation;
    }

    auto pointVelocity = [](const ReferenceBodyState& s, const glm::dvec3& x) {
        return s.linearVelocity + glm::cross(s.angularVelocity, x - s.position);
    };
    auto startPointVelocity = [](const ReferenceBodyState& s, const glm::dvec3& x) {
        return s.startLinearVelocity + glm::cross(s.startAngularVelocity, x - s.position);
    };
    glm::dvec3 pointSum(0.0), normalSum(0.0);
    double count = 0.0;
    auto gather = [&](uint32_t from, const ReferenceBodyState& fromPose, uint32_t into,
                      const ReferenceBodyState& intoPose, double sign) {
        for (const glm::dvec3& point : bodies_[from].points) {
            const glm::dvec3 x = fromPose.position + ref::quatRotate(fromPose.rotation, point);
            const glm::dvec3 vRelative = pointVelocity(fromPose, x) - pointVelocity(intoPose, x);
            const glm::dvec3 predicted = x + h * vRelative;
            const double phi = bodyDistance(into, intoPose, predicted);
            if (!(phi < 0.0)) continue;
            const glm::dvec3 grad = bodyGradient(into, intoPose, predicted, stencil);
            const double gradLength = glm::length(grad);
            if (!(gradLength > 0.0)) continue;
            const glm::dvec3 n = grad / gradLength;
            if (glm::dot(vRelative, n) >= 0.0) continue;
            pointSum += -phi * x;
            normalSum += -phi * sign * n;
            count += -phi;
        }
    };
    gather(a, sA, b, sB, 1.0);
    gather(b, sB, a, sA, -1.0);
    if (count == 0.0 || !(glm::length(normalSum) > 0.0)) return;
    const glm::dvec3 x = pointSum / count;
    const glm::dvec3 n = glm::normalize(normalSum);
    const glm::dvec3 vRelative = pointVelocity(sA, x) - pointVelocity(sB, x);
    const double vN = glm::dot(vRelative, n);
    if (vN >= 0.0) return;
    const double startVN = glm::dot(startPointVelocity(sA, x) - startPointVelocity(sB, x), n);
    const glm::dmat3 inverseInertiaA = ref::worldInverseInertia(sA.rotation, A.inverseInertia);
    const glm::dmat3 inverseInertiaB = ref::worldInverseInertia(sB.rotation, B.inverseInertia);
    const glm::dvec3 rA = x - sA.position, rB = x - sB.position;
    const glm::dmat3 K =
        ref::contactMatrix(A.inverseMass, inverseInertiaA, rA) + ref::contactMatrix(B.inverseMass, inverseInertiaB, rB);
    const glm::dvec3 j =
        ref::contactImpulse(K, vRelative, n, vN, startVN, A.material(), B.material(), settings.rigid.restingSpeed);
    const ref::BodyVelocity afterA =
        ref::applyImpulse({sA.linearVelocity, sA.angularVelocity}, A.inverseMass, inverseInertiaA, rA, j);
    const ref::BodyVelocity afterB =
        ref::applyImpulse({sB.linearVelocity, sB.angularVelocity}, B.inverseMass, inverseInertiaB, rB, -j);
    sA.linearVelocity = afterA.linear;
    sA.angularVelocity = afterA.angular;
    sB.linearVelocity = afterB.linear;
    sB.angularVelocity = afterB.angular;
}

// The averaged contact of each collider, as step_bodies.comp.
void RigidReference::collide(Body& body, ReferenceBodyState& s, const SolverSettings& settings, double h) const {
    const double stencil = settings.stencilStep;
    for (const ReferenceCollider& col : colliders_) {
        glm::dvec3 offsetSum(0.0), normalSum(0.0);
        double count = 0.0;
        for (const glm::dvec3& point : body.points) {
            const glm::dvec3 r = ref::quatRotate(s.rotation, point);
            const glm::dvec3 vPoint = s.linearVelocity + glm::cross(s.angularVelocity, r);
            const glm::dvec3 predicted = s.position + r + h * vPoint;
            const double phi = ref::sdfWorld(col.type, col.position, col.rotation, col.size, predicted) - col.thickness;
            if (!(phi < 0.0)) continue;
            const glm::dvec3 grad = ref::sdfGradientTetra(col.type, col.position, col.rotation, col.size, predicted, stencil);
            const double gradLength = glm::length(grad);
            if (!(gradLength > 0.0)) continue;
            const glm::dvec3 n = grad / gradLength;
            if (glm::dot(vPoint - col.pointVelocity(predicted), n) >= 0.0) continue;
            offsetSum += -phi * r;
            normalSum += -phi * n;
            count += -phi;
        }
        if (count == 0.0 || !(glm::length(normalSum) > 0.0)) continue;
        const glm::dvec3 r = offsetSum / count;
        const glm::dvec3 n = glm::normalize(normalSum);
        const glm::dvec3 colliderVelocity = col.pointVelocity(s.position + r);
        const glm::dvec3 vRelative = s.linearVelocity + glm::cross(s.angularVelocity, r) - colliderVelocity;
        const double vN = glm::dot(vRelative, n);
        if (vN >= 0.0) continue;
        const double startVN =
            glm::dot(s.startLinearVelocity + glm::cross(s.startAngularVelocity, r) - colliderVelocity, n);
        const glm::dmat3 inverseInertia = ref::worldInverseInertia(s.rotation, body.inverseInertia);
        const glm::dvec3 j = ref::contactImpulse(ref::contactMatrix(body.inverseMass, inverseInertia, r), vRelative, n,
                                                 vN, startVN, body.material(), col.material(),
                                                 settings.rigid.restingSpeed);
        const ref::BodyVelocity after =
            ref::applyImpulse({s.linearVelocity, s.angularVelocity}, body.inverseMass, inverseInertia, r, j);
        s.linearVelocity = after.linear;
        s.angularVelocity = after.angular;
    }
}

// step_bodies.comp penaltyContacts.
void RigidReference::penalty(const Body& body, ReferenceBodyState& s, const SolverSettings& settings, double h) const {
    const RigidSettings& rigid = settings.rigid;
    const uint32_t model = static_cast<uint32_t>(rigid.contact);
    for (const ReferenceCollider& col : colliders_) {
        glm::dvec3 force(0.0), torque(0.0);
        for (const glm::dvec3& point : body.points) {
            const glm::dvec3 r = ref::quatRotate(s.rotation, point);
            const glm::dvec3 x = s.position + r;
            const double phi = ref::sdfWorld(col.type, col.position, col.rotation, col.size, x) - col.thickness;
            const double magnitude =
                ref::penaltyMagnitude(model, phi, rigid.penaltyZone, rigid.penaltyStiffness, rigid.barrierStrength);
            if (!(magnitude > 0.0)) continue;
            const glm::dvec3 grad =
                ref::sdfGradientTetra(col.type, col.position, col.rotation, col.size, x, settings.stencilStep);
            if (!(glm::length(grad) > 0.0)) continue;
            const glm::dvec3 f = magnitude * glm::normalize(grad);
            force += f;
            torque += glm::cross(r, f);
        }
        s.linearVelocity += h * body.inverseMass * force;
        s.angularVelocity += h * ref::worldTensorTimes(s.rotation, body.inverseInertia, torque);
    }
}

void RigidReference::pushOut(const Body& body, ReferenceBodyState& s, const SolverSettings& settings) const {
    if (settings.rigid.contact != RigidContact::Impulse) return;
    for (const ReferenceCollider& col : colliders_) {
        glm::dvec4 penetration(0.0);
        for (const glm::dvec3& point : body.points) {
            const glm::dvec3 x = s.position + ref::quatRotate(s.rotation, point);
            const double depth = col.thickness - ref::sdfWorld(col.type, col.position, col.rotation, col.size, x);
            if (!(depth > 0.0)) continue;
            const glm::dvec3 grad =
                ref::sdfGradientTetra(col.type, col.position, col.rotation, col.size, x, settings.stencilStep);
            if (!(glm::length(grad) > 0.0)) continue;
            penetration = glm::dvec4(glm::dvec3(penetration) + depth * glm::normalize(grad), std::max(penetration.w, depth));
        }
        const double slop = settings.rigid.penetrationSlop;
        const glm::dvec3 direction(penetration);
        if (penetration.w > slop && glm::length(direction) > 0.0 && body.inverseMass > 0.0)
            s.position += (penetration.w - slop) * glm::normalize(direction);
    }
}

glm::dvec3 RigidReference::angularMomentum(uint32_t b) const {
    const ReferenceBodyState& s = states_[b];
    return ref::worldTensorTimes(s.rotation, bodies_[b].inertia, s.angularVelocity);
}

double RigidReference::kineticEnergy(uint32_t b) const {
    const ReferenceBodyState& s = states_[b];
    const double m = 1.0 / bodies_[b].inverseMass;
    return 0.5 * m * glm::dot(s.linearVelocity, s.linearVelocity) + 0.5 * glm::dot(s.angularVelocity, angularMomentum(b));
}

}  // namespace vksim
