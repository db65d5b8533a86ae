#include "reference/rigid_reference.h"

#include "sim/shared_math.h"

namespace vksim {

RigidReference::RigidReference(const SimModel& model) : meshSdfGrids_(model.meshSdfGrids) {
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
        body.restitution = gpuBody.restitution;
        bodies_.push_back(std::move(body));
        const gpu::RigidBodyState& s = rigid.states[b];
        states_.push_back({glm::dvec3(glm::vec3(s.position)), glm::normalize(glm::dvec4(s.rotation)),
                           glm::dvec3(glm::vec3(s.linearVelocity)), glm::dvec3(glm::vec3(s.angularVelocity))});
    }
    for (const gpu::Collider& c : model.colliders) colliders_.push_back(ReferenceCollider::fromGpu(c));
}

void RigidReference::stepFrame(const SolverSettings& settings) {
    const double h = static_cast<double>(settings.timeStep) / settings.substeps;
    for (uint32_t s = 0; s < settings.substeps; ++s) stepSubstep(settings, h);
}

void RigidReference::stepSubstep(const SolverSettings& settings, double h) {
    const ref::MeshSdfGridScope grids(meshSdfGrids_);
    const RigidSettings& rigid = settings.rigid;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
        Body& body = bodies_[b];
        ReferenceBodyState& s = states_[b];
        const ref::BodyVelocity v = ref::integrateBodyVelocity(
            s.linearVelocity, s.angularVelocity, s.rotation, body.inertia, body.inverseInertia, body.inverseMass,
            glm::dvec3(settings.gravity), h, rigid.linearDamping, rigid.angularDamping, rigid.gyroscopic);
        s.linearVelocity = v.linear;
        s.angularVelocity = v.angular;
        collide(body, s, settings, h);
        s.position += h * s.linearVelocity;
        s.rotation = ref::integrateRotation(s.rotation, s.angularVelocity, h);
        pushOut(body, s, settings);
    }
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
            offsetSum += r;
            normalSum += n;
            count += 1.0;
        }
        if (count == 0.0 || !(glm::length(normalSum) > 0.0)) continue;
        const glm::dvec3 r = offsetSum / count;
        const glm::dvec3 n = glm::normalize(normalSum);
        const glm::dvec3 vRelative = s.linearVelocity + glm::cross(s.angularVelocity, r) - col.pointVelocity(s.position + r);
        const double vN = glm::dot(vRelative, n);
        if (vN >= 0.0) continue;
        const double restitution =
            ref::fadedRestitution(std::max(body.restitution, col.restitution), -vN, settings.rigid.restingSpeed);
        const double friction = std::sqrt(body.friction * col.friction);
        const glm::dvec3 wanted = ref::wantedContactVelocity(vRelative, n, restitution, friction);
        const glm::dmat3 inverseInertia = ref::worldInverseInertia(s.rotation, body.inverseInertia);
        const glm::dvec3 j = ref::contactImpulse(body.inverseMass, inverseInertia, r, wanted - vRelative);
        const ref::BodyVelocity after =
            ref::applyImpulse({s.linearVelocity, s.angularVelocity}, body.inverseMass, inverseInertia, r, j);
        s.linearVelocity = after.linear;
        s.angularVelocity = after.angular;
    }
}

void RigidReference::pushOut(const Body& body, ReferenceBodyState& s, const SolverSettings& settings) const {
    for (const ReferenceCollider& col : colliders_) {
        double deepest = 0.0;
        glm::dvec3 normal(0.0);
        for (const glm::dvec3& point : body.points) {
            const glm::dvec3 x = s.position + ref::quatRotate(s.rotation, point);
            const double depth = col.thickness - ref::sdfWorld(col.type, col.position, col.rotation, col.size, x);
            if (!(depth > deepest)) continue;
            const glm::dvec3 grad =
                ref::sdfGradientTetra(col.type, col.position, col.rotation, col.size, x, settings.stencilStep);
            if (!(glm::length(grad) > 0.0)) continue;
            deepest = depth;
            normal = glm::normalize(grad);
        }
        const double slop = settings.rigid.penetrationSlop;
        if (deepest > slop && body.inverseMass > 0.0) s.position += (deepest - slop) * normal;
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
