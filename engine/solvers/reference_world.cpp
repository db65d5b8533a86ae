#include "solvers/reference_world.h"

#include <limits>
#include <stdexcept>

#include "geometry/shared_math.h"

namespace vksim {

SubstepParams SubstepParams::from(const SolverSettings& settings) {
    SubstepParams params;
    params.h = double(settings.timeStep) / double(settings.substeps);
    params.gravity = glm::dvec3(settings.gravity);
    params.damping = settings.damping;
    params.collisionMargin = settings.collisionMargin;
    params.stencilStep = settings.stencilStep;
    params.restitutionThreshold = 2.0 * glm::length(params.gravity) * params.h;
    return params;
}

void ReferenceSolver::predictSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                     const SolverSettings&) {
    world.predict(range, params);
}

void ReferenceSolver::updateSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                    const SolverSettings&) {
    world.updateVelocities(range, params.h);
}

ReferenceWorld::ReferenceWorld(const SharedModel& model, ParticleRange contactsInIterations) {
    if (model.velocities.size() != model.positions.size())
        throw std::invalid_argument("ReferenceWorld: positions and velocities differ in length");
    if (model.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument("ReferenceWorld: more colliders than the contact masks hold");
    for (const glm::vec4& x : model.positions) {
        positions_.emplace_back(glm::vec3(x));
        inverseMasses_.push_back(x.w);
    }
    for (const glm::vec4& v : model.velocities) velocities_.emplace_back(glm::vec3(v));
    const std::vector<float> drags = particleDrags(model);
    drags_.assign(drags.begin(), drags.end());
    predicted_ = positions_;
    contacts_.resize(positions_.size());
    stages_.assign(positions_.size(), glm::dvec4(0.0));
    for (const gpu::Collider& c : model.colliders) colliders_.push_back(ReferenceCollider::fromGpu(c));
    meshSdfGrids_ = model.meshSdfGrids;
    objectContacts_.emplace(model, contactsInIterations);
    if (objectContacts_->empty()) objectContacts_.reset();
}

void ReferenceWorld::step(const SolverSettings& settings, ReferenceSolver& solver) {
    if (settings.substeps == 0 || !(settings.timeStep > 0.0f))
        throw std::invalid_argument("ReferenceWorld::step: needs timeStep > 0 and substeps > 0");
    solver.checkSettings(settings);
    const ParticleRange range = solver.range(*this);
    if (range.count == 0) return;
    const SubstepParams params = SubstepParams::from(settings);
    // What the GPU passes bind as their mesh SDF buffer (sdf.glsl).
    const ref::MeshSdfGridScope grids(meshSdfGrids_);
    for (uint32_t s = 0; s < settings.substeps; ++s) {
        solver.predictSubstep(*this, range, params, settings);
        generateCollisions(range, params);
        if (objectContacts_) objectContacts_->detect(predicted_, inverseMasses_, settings.contactSolve);
        solver.solveSubstep(*this, range, params, settings);
        solver.updateSubstep(*this, range, params, settings);
        applyContactVelocities(range, params);
    }
}

void ReferenceWorld::projectContactsAfterSolve(const SolverSettings& settings) {
    if (!objectContacts_) return;
    for (uint32_t it = 0; it < settings.contactIterations; ++it)
        objectContacts_->project(predicted_, positions_, inverseMasses_, settings.contactSolve,
                                 gpu::kContactPairsAll);
}

void ReferenceWorld::predict(ParticleRange range, const SubstepParams& params) {
    predicted_ = positions_;
    for (uint32_t i = range.first; i < range.end(); ++i) {
        velocities_[i] =
            ref::predictedVelocity(velocities_[i], inverseMasses_[i], params.gravity, params.damping, drags_[i], params.h);
        predicted_[i] = ref::driftedPosition(positions_[i], velocities_[i], params.h);
    }
}

void ReferenceWorld::predictParticles(ParticleRange range, const SubstepParams& params, uint32_t integrator,
                                      std::span<const glm::dvec3> a) {
    if (integrator == gpu::kIntegratorSymplecticEuler) {
        predict(range, params);
        return;
    }
    for (uint32_t i = range.first; i < range.end(); ++i) {
        const ref::ParticleStep s = ref::predictParticle(integrator, positions_[i], velocities_[i], a[i], stages_[i],
                                                         params.damping, params.h);
        predicted_[i] = s.position;
        velocities_[i] = s.velocity;
        stages_[i] = s.stage;
    }
}

void ReferenceWorld::updateParticles(ParticleRange range, double h, uint32_t integrator,
                                     std::span<const glm::dvec3> a) {
    if (integrator == gpu::kIntegratorSymplecticEuler) {
        updateVelocities(range, h);
        return;
    }
    for (uint32_t i = range.first; i < range.end(); ++i) {
        const ref::ParticleStep s =
            ref::updateParticle(integrator, positions_[i], predicted_[i], velocities_[i], a[i], stages_[i], h);
        positions_[i] = s.position;
        velocities_[i] = s.velocity;
        stages_[i] = s.stage;
    }
}

std::vector<glm::dvec3> ReferenceWorld::predictedPositions(ParticleRange range,
                                                           const SolverSettings& settings) const {
    const SubstepParams params = SubstepParams::from(settings);
    std::vector<glm::dvec3> predicted = positions_;
    for (uint32_t i = range.first; i < range.end(); ++i)
        predicted[i] = positions_[i] + params.h * ref::predictedVelocity(velocities_[i], inverseMasses_[i],
                                                                         params.gravity, params.damping, drags_[i],
                                                                         params.h);
    return predicted;
}

void ReferenceWorld::generateCollisions(ParticleRange range, const SubstepParams& params) {
    for (uint32_t i = range.first; i < range.end(); ++i) {
        ReferenceContact contact;
        if (inverseMasses_[i] > 0.0) {
            double nearest = std::numeric_limits<double>::infinity();
            for (uint32_t c = 0; c < colliders_.size(); ++c) {
                const double C = colliderDistance(colliders_[c], predicted_[i]);
                if (C >= params.collisionMargin) continue;
                contact.candidates |= 1u << c;
                if (C < nearest) {
                    nearest = C;
                    const glm::dvec3 g = colliderGradient(colliders_[c], predicted_[i], params.stencilStep);
                    const double length = glm::length(g);
                    const glm::dvec3 vc = colliders_[c].pointVelocity(predicted_[i]);
                    contact.approachSpeed = length > 0.0 ? glm::dot(velocities_[i] - vc, g / length) : 0.0;
                }
            }
        }
        contacts_[i] = contact;
    }
}

uint32_t ReferenceWorld::collisionCandidates(const glm::dvec3& p, double margin) const {
    uint32_t candidates = 0;
    for (uint32_t c = 0; c < colliders_.size(); ++c)
        if (colliderDistance(colliders_[c], p) < margin) candidates |= 1u << c;
    return candidates;
}

glm::dvec3 ReferenceWorld::projectOutOfColliders(glm::dvec3 p, uint32_t candidates, double stencilStep,
                                                 uint32_t& touching, const glm::dvec3* start, double h) const {
    for (uint32_t c = 0; c < colliders_.size() && candidates != 0; ++c) {
        if ((candidates & (1u << c)) == 0) continue;
        const ReferenceCollider& collider = colliders_[c];
        const double C = colliderDistance(collider, p);
        if (C >= 0.0) continue;
        const glm::dvec3 g = colliderGradient(collider, p, stencilStep);
        const glm::dvec3 delta = ref::solveCollision(C, g);
        p += delta;
        const double length = glm::length(g);
        if (start && length > 0.0)
            p += ref::staticFriction(p - *start - h * collider.pointVelocity(p), g / length, glm::length(delta),
                                     collider.friction);
        touching |= 1u << c;
    }
    return p;
}

void ReferenceWorld::projectCollisions(ParticleRange range, const SubstepParams& params) {
    for (uint32_t i = range.first; i < range.end(); ++i) {
        ReferenceContact& contact = contacts_[i];
        predicted_[i] = projectOutOfColliders(predicted_[i], contact.candidates, params.stencilStep, contact.touching,
                                              &positions_[i], params.h);
    }
}

void ReferenceWorld::updateVelocities(ParticleRange range, double h) {
    for (uint32_t i = range.first; i < range.end(); ++i) {
        velocities_[i] = ref::positionBasedVelocity(positions_[i], predicted_[i], velocities_[i], h);
        positions_[i] = predicted_[i];
    }
}

void ReferenceWorld::applyContactVelocities(ParticleRange range, const SubstepParams& params) {
    for (uint32_t i = range.first; i < range.end(); ++i) {
        const ReferenceContact& contact = contacts_[i];
        if (contact.touching == 0) continue;
        uint32_t nearest = 0;
        double nearestC = std::numeric_limits<double>::infinity();
        for (uint32_t c = 0; c < colliders_.size(); ++c) {
            if ((contact.touching & (1u << c)) == 0) continue;
            const double C = colliderDistance(colliders_[c], positions_[i]);
            if (C < nearestC) {
                nearestC = C;
                nearest = c;
            }
        }
        const ReferenceCollider& collider = colliders_[nearest];
        const glm::dvec3 g = colliderGradient(collider, positions_[i], params.stencilStep);
        const double length = glm::length(g);
        if (length <= 0.0) continue;
        velocities_[i] = ref::movingContactVelocity(velocities_[i], collider.pointVelocity(positions_[i]), g / length,
                                                    contact.approachSpeed, collider.friction, collider.restitution,
                                                    params.restitutionThreshold);
    }
}

double ReferenceWorld::colliderDistance(const ReferenceCollider& collider, const glm::dvec3& p) const {
    return ref::sdfWorld(collider.type, collider.position, collider.rotation, collider.size, p) - collider.thickness;
}

glm::dvec3 ReferenceWorld::colliderGradient(const ReferenceCollider& collider, const glm::dvec3& p,
                                            double stencilStep) const {
    return ref::sdfGradientTetra(collider.type, collider.position, collider.rotation, collider.size, p, stencilStep);
}

}  // namespace vksim
