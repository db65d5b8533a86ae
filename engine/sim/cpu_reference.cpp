#include "sim/cpu_reference.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sim/shared_math.h"

namespace vksim {

CpuReferenceSolver::CpuReferenceSolver(const SimModel& model) {
    if (model.velocities.size() != model.positions.size())
        throw std::invalid_argument("CpuReferenceSolver: positions and velocities differ in length");
    if (model.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument("CpuReferenceSolver: more colliders than the contact masks hold");
    for (const glm::vec4& x : model.positions) {
        positions_.emplace_back(glm::vec3(x));
        inverseMasses_.push_back(x.w);
    }
    for (const glm::vec4& v : model.velocities) velocities_.emplace_back(glm::vec3(v));
    predicted_ = positions_;
    contacts_.resize(positions_.size());

    for (const gpu::ConstraintMaterial& m : model.materials) materials_.push_back({m.mode, m.stiffness, m.compliance});
    for (const gpu::DistanceConstraint& c : model.distance) distance_.push_back({c.p0, c.p1, c.restLength, c.material});
    for (const gpu::BendingConstraint& c : model.bending)
        bending_.push_back({c.particles, glm::dvec4(c.K), c.scale, c.material});
    for (const gpu::AttachmentConstraint& c : model.attachments)
        attachments_.push_back({glm::dvec3(glm::vec3(c.target)), c.particle, c.material});
    for (const gpu::Collider& c : model.colliders)
        colliders_.push_back(ReferenceCollider::fromGpu(c));
    meshSdfGrids_ = model.meshSdfGrids;
    distanceLambdas_.resize(distance_.size());
    bendingLambdas_.resize(bending_.size());
    attachmentLambdas_.resize(attachments_.size());
}

void CpuReferenceSolver::step(const SolverSettings& settings) {
    if (settings.substeps == 0 || settings.iterations == 0 || !(settings.timeStep > 0.0f))
        throw std::invalid_argument("CpuReferenceSolver::step: needs timeStep > 0, substeps > 0, iterations > 0");
    SubstepParams params;
    params.h = double(settings.timeStep) / double(settings.substeps);
    params.gravity = glm::dvec3(settings.gravity);
    params.damping = settings.damping;
    params.collisionMargin = settings.collisionMargin;
    params.stencilStep = settings.stencilStep;
    // Approach speeds below what gravity adds in two substeps are resting
    // contact, not impact: no bounce (contact.glsl).
    params.restitutionThreshold = 2.0 * glm::length(params.gravity) * params.h;
    params.iterations = settings.iterations;
    // What the GPU passes bind as their mesh SDF buffer (sdf.glsl).
    const ref::MeshSdfGridScope grids(meshSdfGrids_);
    for (uint32_t s = 0; s < settings.substeps; ++s) substep(params);
}

// SPEC.md 1, one step of length h, pass by pass as the GPU records it.
void CpuReferenceSolver::substep(const SubstepParams& params) {
    predict(params);             // steps 1-2
    generateCollisions(params);  // step 3
    for (uint32_t iteration = 0; iteration < params.iterations; ++iteration) {  // step 4
        projectDistance(params, iteration);
        projectBending(params, iteration);
        projectAttachments(params, iteration);
        projectCollisions(params);
    }
    updateVelocities(params);        // step 5
    applyContactVelocities(params);  // step 6
}

// predict.comp: v += h g, damped; p = x + h v. Pinned particles do not move.
void CpuReferenceSolver::predict(const SubstepParams& params) {
    for (size_t i = 0; i < positions_.size(); ++i) {
        velocities_[i] =
            ref::predictedVelocity(velocities_[i], inverseMasses_[i], params.gravity, params.damping, params.h);
        predicted_[i] = positions_[i] + params.h * velocities_[i];
    }
}

std::vector<glm::dvec3> CpuReferenceSolver::predictedPositions(const SolverSettings& settings) const {
    const double h = double(settings.timeStep) / double(settings.substeps);
    std::vector<glm::dvec3> predicted(positions_.size());
    for (size_t i = 0; i < positions_.size(); ++i)
        predicted[i] = positions_[i] + h * ref::predictedVelocity(velocities_[i], inverseMasses_[i],
                                                                  glm::dvec3(settings.gravity), settings.damping, h);
    return predicted;
}

std::optional<double> CpuReferenceSolver::xpbdObjective(std::span<const glm::dvec3> predicted, double h) const {
    if (distance_.empty() && bending_.empty() && attachments_.empty()) return std::nullopt;
    bool defined = true;
    auto energy = [&](double C, uint32_t material) {
        const Material& m = materials_[material];
        defined = defined && m.mode == gpu::kModeXpbd && m.compliance > 0.0;
        return defined ? C * C / (2.0 * m.compliance) : 0.0;
    };
    double sum = 0.0;
    for (size_t i = 0; i < positions_.size(); ++i)
        if (inverseMasses_[i] > 0.0) {
            const glm::dvec3 d = positions_[i] - predicted[i];
            sum += glm::dot(d, d) / (2.0 * inverseMasses_[i] * h * h);
        }
    for (const Distance& c : distance_)
        sum += energy(glm::length(positions_[c.p0] - positions_[c.p1]) - c.restLength, c.material);
    for (const Bending& c : bending_) {
        const glm::dvec3 e = ref::isometricBendingVector(positions_[c.particles.x], positions_[c.particles.y],
                                                         positions_[c.particles.z], positions_[c.particles.w], c.K);
        sum += energy(0.5 * c.scale * glm::dot(e, e), c.material);
    }
    for (const Attachment& c : attachments_)
        sum += energy(glm::length(positions_[c.particle] - c.target), c.material);
    if (!defined) return std::nullopt;
    return sum;
}

// collide_generate.comp: candidates within the margin of the predicted
// position, and v.N towards the nearest of them.
void CpuReferenceSolver::generateCollisions(const SubstepParams& params) {
    for (size_t i = 0; i < positions_.size(); ++i) {
        Contact contact;
        if (inverseMasses_[i] > 0.0) {
            double nearest = std::numeric_limits<double>::infinity();
            for (uint32_t c = 0; c < colliders_.size(); ++c) {
                double C = colliderDistance(colliders_[c], predicted_[i]);
                if (C >= params.collisionMargin) continue;
                contact.candidates |= 1u << c;
                if (C < nearest) {
                    nearest = C;
                    glm::dvec3 g = colliderGradient(colliders_[c], predicted_[i], params.stencilStep);
                    double length = glm::length(g);
                    contact.approachSpeed = length > 0.0 ? glm::dot(velocities_[i], g / length) : 0.0;
                }
            }
        }
        contacts_[i] = contact;
    }
}

// project_distance.comp, one dispatch per colour: the array is sorted by
// colour, so walking it in order is the same sweep.
void CpuReferenceSolver::projectDistance(const SubstepParams& params, uint32_t iteration) {
    for (size_t j = 0; j < distance_.size(); ++j) {
        const Distance& c = distance_[j];
        const Material& m = materials_[c.material];
        double lambda = iteration == 0 ? 0.0 : distanceLambdas_[j];
        ref::PairCorrection r =
            ref::solveDistance(predicted_[c.p0], inverseMasses_[c.p0], predicted_[c.p1], inverseMasses_[c.p1],
                               c.restLength, m.mode, m.stiffness, m.compliance, params.iterations, params.h, lambda);
        predicted_[c.p0] += r.dp0;
        predicted_[c.p1] += r.dp1;
        distanceLambdas_[j] = lambda + r.dLambda;
    }
}

// project_bending.comp.
void CpuReferenceSolver::projectBending(const SubstepParams& params, uint32_t iteration) {
    for (size_t j = 0; j < bending_.size(); ++j) {
        const Bending& c = bending_[j];
        const Material& m = materials_[c.material];
        const glm::uvec4 p = c.particles;
        double lambda = iteration == 0 ? 0.0 : bendingLambdas_[j];
        ref::QuadCorrection r = ref::solveIsometricBending(
            predicted_[p.x], inverseMasses_[p.x], predicted_[p.y], inverseMasses_[p.y], predicted_[p.z],
            inverseMasses_[p.z], predicted_[p.w], inverseMasses_[p.w], c.K, c.scale, m.mode, m.stiffness,
            m.compliance, params.iterations, params.h, lambda);
        predicted_[p.x] += r.dp0;
        predicted_[p.y] += r.dp1;
        predicted_[p.z] += r.dp2;
        predicted_[p.w] += r.dp3;
        bendingLambdas_[j] = lambda + r.dLambda;
    }
}

// project_attachment.comp.
void CpuReferenceSolver::projectAttachments(const SubstepParams& params, uint32_t iteration) {
    for (size_t j = 0; j < attachments_.size(); ++j) {
        const Attachment& c = attachments_[j];
        const Material& m = materials_[c.material];
        double lambda = iteration == 0 ? 0.0 : attachmentLambdas_[j];
        ref::PointCorrection r = ref::solveAttachment(predicted_[c.particle], inverseMasses_[c.particle], c.target,
                                                      m.mode, m.stiffness, m.compliance, params.iterations,
                                                      params.h, lambda);
        predicted_[c.particle] += r.dp;
        attachmentLambdas_[j] = lambda + r.dLambda;
    }
}

// project_collision.comp: C = f(p) - thickness >= 0 for each candidate, in
// collider order, each seeing the previous one's correction.
void CpuReferenceSolver::projectCollisions(const SubstepParams& params) {
    for (size_t i = 0; i < positions_.size(); ++i) {
        Contact& contact = contacts_[i];
        if (contact.candidates == 0) continue;
        for (uint32_t c = 0; c < colliders_.size(); ++c) {
            if ((contact.candidates & (1u << c)) == 0) continue;
            double C = colliderDistance(colliders_[c], predicted_[i]);
            if (C >= 0.0) continue;
            predicted_[i] += ref::solveCollision(C, colliderGradient(colliders_[c], predicted_[i], params.stencilStep));
            contact.touching |= 1u << c;
        }
    }
}

// update_velocity.comp: v = (p - x) / h, x = p.
void CpuReferenceSolver::updateVelocities(const SubstepParams& params) {
    for (size_t i = 0; i < positions_.size(); ++i) {
        velocities_[i] = (predicted_[i] - positions_[i]) / params.h;
        positions_[i] = predicted_[i];
    }
}

// contact_velocity.comp: friction and restitution against the nearest
// collider the projection touched, with its normal at the new position.
void CpuReferenceSolver::applyContactVelocities(const SubstepParams& params) {
    for (size_t i = 0; i < positions_.size(); ++i) {
        const Contact& contact = contacts_[i];
        if (contact.touching == 0) continue;
        uint32_t nearest = 0;
        double nearestC = std::numeric_limits<double>::infinity();
        for (uint32_t c = 0; c < colliders_.size(); ++c) {
            if ((contact.touching & (1u << c)) == 0) continue;
            double C = colliderDistance(colliders_[c], positions_[i]);
            if (C < nearestC) {
                nearestC = C;
                nearest = c;
            }
        }
        const Collider& collider = colliders_[nearest];
        glm::dvec3 g = colliderGradient(collider, positions_[i], params.stencilStep);
        double length = glm::length(g);
        if (length <= 0.0) continue;
        velocities_[i] = ref::contactVelocity(velocities_[i], g / length, contact.approachSpeed, collider.friction,
                                              collider.restitution, params.restitutionThreshold);
    }
}

double CpuReferenceSolver::colliderDistance(const Collider& collider, const glm::dvec3& p) const {
    return ref::sdfWorld(collider.type, collider.position, collider.rotation, collider.size, p) - collider.thickness;
}

glm::dvec3 CpuReferenceSolver::colliderGradient(const Collider& collider, const glm::dvec3& p,
                                                double stencilStep) const {
    return ref::sdfGradientTetra(collider.type, collider.position, collider.rotation, collider.size, p, stencilStep);
}

double CpuReferenceSolver::distanceResidual() const {
    if (distance_.empty()) return 0.0;
    double sum = 0.0;
    for (const Distance& c : distance_)
        sum += std::abs(glm::length(positions_[c.p0] - positions_[c.p1]) - c.restLength);
    return sum / double(distance_.size());
}

glm::dvec3 CpuReferenceSolver::linearMomentum() const {
    glm::dvec3 momentum(0.0);
    for (size_t i = 0; i < positions_.size(); ++i)
        if (inverseMasses_[i] > 0.0) momentum += velocities_[i] / inverseMasses_[i];
    return momentum;
}

}  // namespace vksim
