#include "solvers/reference_world.h"

#include <limits>
#include <stdexcept>

#include "geometry/shared_math.h"
#include "solvers/rigid/rigid_reference.h"

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
    tethers_ = model.solvedTethers;
    frameAttachments_ = model.frameAttachments;
    objectContacts_.emplace(model, contactsInIterations);
    if (objectContacts_->empty()) objectContacts_.reset();
}

void ReferenceWorld::step(const SolverSettings& settings, ReferenceSolver& solver) {
    if (settings.substeps == 0 || !(settings.timeStep > 0.0f))
        throw std::invalid_argument("ReferenceWorld::step: needs timeStep > 0 and substeps > 0");
    solver.checkSettings(settings);
    const ParticleRange range = solver.range(*this);
    if (range.count == 0) return;
    SubstepParams params = SubstepParams::from(settings);
    params.colliderFrictionInSolve = solver.holdsColliderFriction();
    // What the GPU passes bind as their mesh SDF buffer (sdf.glsl).
    const ref::MeshSdfGridScope grids(meshSdfGrids_);
    for (uint32_t s = 0; s < settings.substeps; ++s) {
        if (bodies_) {
            bodies_->stepSubstep(settings, params.h);
            for (uint32_t b = 0; b < bodies_->bodyCount(); ++b)
                colliders_[firstBodyCollider_ + b] = bodies_->particleCollider(b);
        }
        solver.predictSubstep(*this, range, params, settings);
        generateCollisions(range, params);
        if (objectContacts_) objectContacts_->detect(predicted_, inverseMasses_, settings.contactSolve);
        solver.solveSubstep(*this, range, params, settings);
        solver.updateSubstep(*this, range, params, settings);
        applyContactVelocities(range, params);
        exchangeWithBodies(range, false, params.h);
    }
}

void ReferenceWorld::coupleBodies(RigidReference& bodies) {
    if (bodies_) throw std::logic_error("ReferenceWorld::coupleBodies: already coupled");
    if (colliders_.size() + bodies.bodyCount() > gpu::kMaxColliders)
        throw std::invalid_argument("ReferenceWorld::coupleBodies: more colliders than the contact masks hold");
    bodies_ = &bodies;
    firstBodyCollider_ = static_cast<uint32_t>(colliders_.size());
    for (uint32_t b = 0; b < bodies.bodyCount(); ++b) colliders_.push_back(bodies.particleCollider(b));
    bodyPushes_.assign(positions_.size(), {});
}

// Sums in particle order (the GPU's over a fixed tree: rounding apart, the same).
void ReferenceWorld::exchangeWithBodies(ParticleRange range, bool displacement, double h) {
    if (!bodies_) return;
    const uint32_t count = bodies_->bodyCount();
    std::vector<RigidReference::Change> changes(count);
    std::vector<glm::dvec3> centres(count);
    const double scale = displacement ? 1.0 : 1.0 / h;
    for (uint32_t b = 0; b < count; ++b) {
        centres[b] = bodies_->states()[b].position;
        RigidReference::ParticleSums sums;
        for (uint32_t i = range.first; i < range.end(); ++i) {
            const BodyPushRecord& record = bodyPushes_[i];
            if (record.collider != firstBodyCollider_ + b) continue;
            const double m = 1.0 / inverseMasses_[i];  // pushed particles move
            const glm::dvec3 r = (displacement ? predicted_[i] : positions_[i]) - centres[b];
            const glm::dvec3 j = -m * scale * record.push;
            sums.j += j;
            sums.torque += glm::cross(r, j);
            sums.mass += m;
            sums.moment += m * r;
            sums.spread += m * (glm::dot(r, r) * glm::dmat3(1.0) - glm::outerProduct(r, r));
        }
        changes[b] = bodies_->shareWithParticles(b, sums, displacement, h);
        if (displacement) colliders_[firstBodyCollider_ + b] = bodies_->particleCollider(b);
    }
    for (uint32_t i = range.first; i < range.end(); ++i) {
        BodyPushRecord& record = bodyPushes_[i];
        if (record.collider == gpu::kNoBodyPush) continue;
        const uint32_t b = record.collider - firstBodyCollider_;
        const RigidReference::Change& change = changes[b];
        if (displacement)
            predicted_[i] += change.linear + glm::cross(change.angular, predicted_[i] - centres[b]);
        else
            velocities_[i] += change.linear + glm::cross(change.angular, positions_[i] - centres[b]);
        record.push = glm::dvec3(0.0);
    }
}

void ReferenceWorld::projectContactsAfterSolve(const SolverSettings& settings) {
    if (!objectContacts_) return;
    for (uint32_t it = 0; it < settings.contactIterations; ++it)
        objectContacts_->project(predicted_, positions_, inverseMasses_, settings.contactSolve,
                                 gpu::kContactPairsAll);
}

void ReferenceWorld::projectTethers(ParticleRange range) {
    for (const gpu::SolvedTether& tether : tethers_) {
        const uint32_t i = tether.particle;
        if (!range.contains(i)) continue;
        const ref::TetherProjection r =
            ref::projectTether(predicted_[i], glm::dvec3(glm::vec3(tether.anchor)), double(tether.anchor.w));
        if (r.normal == glm::dvec3(0.0)) continue;
        predicted_[i] = r.position;
        velocities_[i] = ref::tetherVelocity(velocities_[i], r.normal);
    }
}

void ReferenceWorld::projectFrameAttachments(ParticleRange range) {
    for (const gpu::FrameAttachment& a : frameAttachments_) {
        const uint32_t i = a.particle;
        if (!range.contains(i)) continue;
        const ReferenceCollider& row = colliders_.at(a.collider);
        const glm::dvec3 local(glm::vec3(a.local));
        const glm::dvec3 target = ref::frameAttachmentTarget(row.position, row.rotation, local);
        const glm::dvec3 move = ref::frameAttachmentMove(predicted_[i], target, double(a.local.w), double(a.stiffness));
        if (move == glm::dvec3(0.0)) continue;
        predicted_[i] += move;
        if (!bodies_ || a.collider < firstBodyCollider_) continue;
        BodyPushRecord& record = bodyPushes_[i];
        if (record.collider == gpu::kNoBodyPush) record.collider = a.collider;
        if (record.collider == a.collider) record.push += move;
    }
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
        if (bodies_) bodyPushes_[i] = {};
    }
}

uint32_t ReferenceWorld::collisionCandidates(const glm::dvec3& p, double margin) const {
    uint32_t candidates = 0;
    for (uint32_t c = 0; c < colliders_.size(); ++c)
        if (colliderDistance(colliders_[c], p) < margin) candidates |= 1u << c;
    return candidates;
}

glm::dvec3 ReferenceWorld::projectOutOfColliders(glm::dvec3 p, uint32_t candidates, double stencilStep,
                                                 uint32_t& touching, const glm::dvec3* start, double h,
                                                 BodyPushRecord* record, bool colliderFrictionInSolve,
                                                 double* pushed, PushFriction friction) const {
    double ownPushed = 0.0;
    if (!pushed) pushed = &ownPushed;
    for (uint32_t c = 0; c < colliders_.size() && candidates != 0; ++c) {
        if ((candidates & (1u << c)) == 0) continue;
        const ReferenceCollider& collider = colliders_[c];
        const double C = colliderDistance(collider, p);
        if (C >= 0.0) continue;
        const glm::dvec3 g = colliderGradient(collider, p, stencilStep);
        glm::dvec3 delta = ref::solveCollision(C, g);
        p += delta;
        *pushed += glm::length(delta);
        const double length = glm::length(g);
        if (start && length > 0.0 && frictionAfterSolve(c, colliderFrictionInSolve)) {
            const glm::dvec3 slip = p - *start - h * collider.pointVelocity(p);
            const glm::dvec3 correction =
                friction == PushFriction::Coulomb
                    ? ref::coulombCorrection(slip, g / length, glm::length(delta), collider.staticFriction,
                                             collider.friction)
                    : ref::staticFriction(slip, g / length, glm::length(delta), collider.staticFriction);
            p += correction;
            delta += correction;
        }
        // collider_stages.glsl's recordBodyPush: the substep's first body, only.
        if (record && bodies_ && c >= firstBodyCollider_) {
            if (record->collider == gpu::kNoBodyPush) record->collider = c;
            if (record->collider == c) record->push += delta;
        }
        touching |= 1u << c;
    }
    return p;
}

void ReferenceWorld::projectCollisions(ParticleRange range, const SubstepParams& params) {
    for (uint32_t i = range.first; i < range.end(); ++i) {
        ReferenceContact& contact = contacts_[i];
        predicted_[i] = projectOutOfColliders(predicted_[i], contact.candidates, params.stencilStep, contact.touching,
                                              &positions_[i], params.h, bodies_ ? &bodyPushes_[i] : nullptr,
                                              params.colliderFrictionInSolve, &contact.pushedOut);
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
        const glm::dvec3 before = velocities_[i];
        velocities_[i] = ref::movingContactVelocity(velocities_[i], collider.pointVelocity(positions_[i]), g / length,
                                                    contact.approachSpeed, contact.pushedOut / params.h,
                                                    frictionAfterSolve(nearest, params.colliderFrictionInSolve)
                                                        ? collider.friction
                                                        : 0.0,
                                                    collider.restitution, params.restitutionThreshold);
        // A body's friction and restitution: its share of the momentum too.
        if (bodies_ && bodyPushes_[i].collider == nearest) bodyPushes_[i].push += params.h * (velocities_[i] - before);
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
