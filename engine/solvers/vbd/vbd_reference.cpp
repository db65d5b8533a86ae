#include "solvers/vbd/vbd_reference.h"

#include <limits>
#include <stdexcept>

#include "geometry/shared_math.h"

namespace vksim {
namespace {

glm::dvec3 row(const glm::vec4& g) { return glm::dvec3(glm::vec3(g)); }

// F of tet t at x (the GPU's tetDeformation, in double).
glm::dmat3 deformation(const gpu::VbdTet& t, std::span<const glm::dvec3> x) {
    return ref::tetDeformation(x[t.particles.x], x[t.particles.y], x[t.particles.z], x[t.particles.w], row(t.g1),
                               row(t.g2), row(t.g3));
}

// A vertex's collider penalty (vbd/vbd_collider.glsl), k = kVbdColliderWeight m/h^2.
ref::VbdColliderTerms colliderTerms(const glm::dvec4& plane, const glm::dvec3& x, double mass, double h) {
    return ref::vbdColliderTerms(plane, x, double(gpu::kVbdColliderWeight) * mass / (h * h));
}

}  // namespace

ref::LaggedFriction VbdReference::frictionTerms(uint32_t i, const glm::dvec3& x, double h,
                                                  const glm::dvec3& gradient, const glm::dmat3& hessian) const {
    const uint32_t r = i - vbd_.firstParticle;
    if (r >= colliderPlanes_.size()) return {glm::dvec3(0.0), glm::dmat3(0.0)};
    const ColliderFriction& f = colliderFrictions_[r];
    const double normalStiffness = (double(gpu::kVbdColliderWeight) + 1.0) * mass(i) / (h * h);
    return ref::vbdFrictionTerms(colliderPlanes_[r], x, normalStiffness, f.anchor, f.muStatic, f.muKinetic,
                                 double(gpu::kVbdFrictionStickSpeed) * h, gradient, hessian);
}

VbdReference::VbdReference(const VbdModelView& model)
    : ReferenceSimulation(model.shared), vbd_(model.vbd), previousVelocities_(model.shared.velocities.size()) {
    for (size_t i = 0; i < previousVelocities_.size(); ++i)
        previousVelocities_[i] = glm::dvec4(glm::dvec3(glm::vec3(model.shared.velocities[i])), 0.0);
}

void VbdReference::checkSettings(const SolverSettings& settings) const {
    if (settings.vbd.iterations == 0)
        throw std::invalid_argument("vbd: vertex block descent needs at least one iteration");
}

VbdReference::Terms VbdReference::vertexTerms(uint32_t i, std::span<const glm::dvec3> x) const {
    Terms sum;
    const gpu::VbdVertex& v = vbd_.vertices[i - vbd_.firstParticle];
    for (uint32_t k = v.firstTet; k < v.firstTet + v.tetCount; ++k) {
        const uint32_t entry = vbd_.incidentTets[k];
        const gpu::VbdTet& t = vbd_.tets[entry / 4];
        const gpu::ElasticMaterialRow& m = vbd_.materials[t.material];
        const glm::dvec3 g = ref::tetVertexRow(entry % 4, row(t.g1), row(t.g2), row(t.g3));
        const ref::VbdTetTerms terms = ref::tetVertexTerms(m.model, deformation(t, x), g, double(t.volume),
                                                           double(m.mu), double(m.lambda));
        sum.energy += terms.energy;
        sum.gradient += terms.gradient;
        sum.hessian += terms.hessian;
    }
    return sum;
}

double VbdReference::elasticEnergy(std::span<const glm::dvec3> x) const {
    double energy = 0.0;
    for (const gpu::VbdTet& t : vbd_.tets) {
        const gpu::ElasticMaterialRow& m = vbd_.materials[t.material];
        energy += double(t.volume) *
                  ref::elasticEnergyDensity(m.model, deformation(t, x), double(m.mu), double(m.lambda));
    }
    return energy;
}

std::vector<glm::dvec3> VbdReference::elasticForces(std::span<const glm::dvec3> x) const {
    std::vector<glm::dvec3> forces(x.size(), glm::dvec3(0.0));
    for (uint32_t i = vbd_.firstParticle; i < vbd_.firstParticle + vbd_.particleCount; ++i)
        forces[i] = -vertexTerms(i, x).gradient;
    return forces;
}

double VbdReference::objective(std::span<const glm::dvec3> x, std::span<const glm::dvec3> y, double h) const {
    double inertia = 0.0;
    for (uint32_t i = vbd_.firstParticle; i < vbd_.firstParticle + vbd_.particleCount; ++i)
        if (world_.inverseMasses()[i] > 0.0) {
            const glm::dvec3 d = x[i] - y[i];
            inertia += 0.5 * mass(i) / (h * h) * glm::dot(d, d);
            inertia += colliderTerms(colliderPlane(i), x[i], mass(i), h).energy;
        }
    // Half of each touching pair's energy per end (vbd/energy.glsl).
    double contact = 0.0;
    if (const ContactReferenceSolve* contacts = energyContacts())
        for (uint32_t i = vbd_.firstParticle; i < vbd_.firstParticle + vbd_.particleCount; ++i)
            contact += 0.5 * contacts->penalty(i, x[i], x, world_.positions(), world_.inverseMasses(),
                                               range(world_), h)
                                 .energy;
    return inertia + elasticEnergy(x) + contact;
}

std::vector<glm::dvec3> VbdReference::vertexBlockDescent(std::span<const glm::dvec3> start,
                                                         std::span<const glm::dvec3> y, double h,
                                                         uint32_t iterations, std::vector<double>* history) const {
    std::vector<glm::dvec3> x(start.begin(), start.end());
    if (history) history->push_back(objective(x, y, h));
    // The contact energy of the pairs within the range and their friction
    // (vbd_colour_contacts.comp). Its dispatch reads the other particle of a
    // pair at its iterate, or at the snapshot before the iteration when it
    // is of the same colour: in both cases where it was when the colour
    // began.
    const ContactReferenceSolve* contacts = energyContacts();
    std::vector<glm::dvec3> colourStart;
    for (uint32_t it = 0; it < iterations; ++it) {
        for (const VertexColour& colour : vbd_.vertexColours) {
            if (contacts) colourStart = x;
            for (uint32_t k = colour.first; k < colour.first + colour.count; ++k) {
                const uint32_t i = vbd_.vertexOrder[k];
                if (world_.inverseMasses()[i] <= 0.0) continue;
                const Terms e = vertexTerms(i, x);
                const double inertia = mass(i) / (h * h);
                glm::dmat3 H = glm::dmat3(inertia) + e.hessian;
                glm::dvec3 g = inertia * (x[i] - y[i]) + e.gradient;
                const ref::VbdColliderTerms collider = colliderTerms(colliderPlane(i), x[i], mass(i), h);
                g += collider.gradient;
                H += collider.hessian;
                if (contacts) {
                    const ContactReferenceSolve::Penalty penalty = contacts->penalty(
                        i, x[i], colourStart, world_.positions(), world_.inverseMasses(), range(world_), h);
                    g += penalty.gradient;
                    H += penalty.hessian;
                    const ContactReferenceSolve::Friction pairFriction = contacts->friction(
                        i, x[i], colourStart, world_.positions(), world_.inverseMasses(), range(world_), h, g, H);
                    g += pairFriction.gradient;
                    H += pairFriction.hessian;
                }
                // Last: whether it sticks takes the rest of the step's terms.
                const ref::LaggedFriction friction = frictionTerms(i, x[i], h, g, H);
                g += friction.gradient;
                H += friction.hessian;
                // H >= m/h^2 I (both energies' blocks, the collider's
                // k n n^T, its friction's mu lambda f1/|u| (I - n n^T) and
                // the contacts' s n n^T are positive
                // semi-definite): its determinant is positive.
                const double det = glm::determinant(H);
                if (!(det > 0.0)) continue;
                x[i] -= glm::inverse(H) * g;
            }
        }
        if (history) history->push_back(objective(x, y, h));
    }
    return x;
}

void VbdReference::findColliderPlanes(ReferenceWorld& world, ParticleRange range, const SubstepParams& params) {
    colliderPlanes_.assign(colliderEnergy_ && !world.colliders().empty() ? range.count : 0, glm::dvec4(0.0));
    colliderFrictions_.assign(colliderPlanes_.size(), ColliderFriction{});
    const std::span<const ReferenceContact> contacts = world.contacts();
    for (uint32_t r = 0; r < colliderPlanes_.size(); ++r) {
        const uint32_t i = range.first + r;
        const uint32_t candidates = contacts[i].candidates & world.sceneColliderBits();
        const glm::dvec3 p = world.predicted()[i];
        colliderFrictions_[r].anchor = world.positions()[i];
        double nearest = std::numeric_limits<double>::infinity();
        for (uint32_t c = 0; c < world.colliders().size(); ++c) {
            if ((candidates & (1u << c)) == 0) continue;
            const ReferenceCollider& collider = world.colliders()[c];
            const double C = world.colliderDistance(collider, p);
            if (C >= nearest) continue;
            nearest = C;
            colliderPlanes_[r] = ref::vbdColliderPlane(p, C, world.colliderGradient(collider, p, params.stencilStep));
            colliderFrictions_[r] = {world.positions()[i] + params.h * collider.pointVelocity(p),
                                     collider.staticFriction, collider.friction};
        }
    }
}

void VbdReference::solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                const SolverSettings& settings) {
    const std::vector<glm::dvec3> y(world.predicted().begin(), world.predicted().end());
    findColliderPlanes(world, range, params);
    // vbd: init (vbd_init.comp): the guess, and predict's velocity kept.
    std::vector<glm::dvec3> start = y;
    for (uint32_t i = range.first; i < range.end(); ++i) {
        const glm::dvec3 u = world.velocities()[i];
        const glm::dvec4 previous = previousVelocities_[i];
        previousVelocities_[i] = glm::dvec4(u, 1.0);
        const double w = world.inverseMasses()[i];
        if (settings.vbd.initialGuess == VbdInitialGuess::Adaptive && previous.w != 0.0 && w > 0.0) {
            const double s = ref::vbdPredictScale(w, params.damping, world.drags()[i], params.h);
            start[i] = ref::vbdAdaptiveGuess(y[i], u, glm::dvec3(previous), params.gravity, s, params.h);
        }
    }
    lastSolve_.clear();
    const std::vector<glm::dvec3> x = vertexBlockDescent(start, y, params.h, settings.vbd.iterations, &lastSolve_);
    std::copy(x.begin() + range.first, x.begin() + range.end(), world.predicted().begin() + range.first);
    world.projectContactsAfterSolve(settings);
    world.projectCollisions(range, params);
}

glm::dvec3 VbdReference::linearMomentum() const {
    glm::dvec3 p(0.0);
    for (uint32_t i = vbd_.firstParticle; i < vbd_.firstParticle + vbd_.particleCount; ++i)
        if (inverseMasses()[i] > 0.0) p += velocities()[i] / inverseMasses()[i];
    return p;
}

}  // namespace vksim
