#include "solvers/pd/pd_reference.h"

#include <cmath>
#include <stdexcept>

#include <Eigen/Sparse>

#include "geometry/shared_math.h"
#include "solvers/pd/pd_system.h"

namespace vksim {

struct PdReference::Factorisation {
    Eigen::SparseMatrix<double> matrix;
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt;
    bool analysed = false;
    double h = 0.0;
    double collisionWeight = 0.0;
    std::vector<bool> active;
};

PdReference::PdReference(const PdModelView& model)
    : ReferenceSimulation(model.shared), pd_(model.pd), factorisation_(std::make_unique<Factorisation>()) {
    if (pd_.rows.size() != pd_.particleCount)
        throw std::invalid_argument("PdReference: the model's PD system is not built (buildPdSystem)");
    freeIndex_.assign(pd_.particleCount, -1);
    for (uint32_t r = 0; r < pd_.particleCount; ++r)
        if (pd_.rows[r].mass > 0.0f) {
            freeIndex_[r] = static_cast<int32_t>(freeRows_.size());
            freeRows_.push_back(r);
        }
    collisionTargets_.resize(pd_.particleCount);
    collisionActive_.assign(pd_.particleCount, false);
}

PdReference::~PdReference() = default;

void PdReference::checkSettings(const SolverSettings& settings) const {
    if (settings.pd.localIterations == 0) throw std::invalid_argument("PdReference::step: needs localIterations > 0");
}

// The passes of the GPU's PD substep between collide_generate and
// update_velocity, in the same order.
void PdReference::solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                               const SolverSettings& settings) {
    collisionActive_.assign(pd_.particleCount, false);
    const std::vector<glm::dvec3> s(world.predicted().begin(), world.predicted().end());
    std::vector<glm::dvec3> q = s;
    const bool withCollisions = !world.colliders().empty();
    for (uint32_t l = 0; l < settings.pd.localIterations; ++l) {
        const std::vector<glm::dvec3> contributions = localStep(q);
        if (withCollisions) collisionProjections(world, q, params.stencilStep, params.h);
        q = solve(s, contributions, world.positions(), params.h, settings.pd.collisionWeight, withCollisions);
    }
    std::copy(q.begin(), q.end(), world.predicted().begin());
    world.projectContactsAfterSolve(settings);
    world.projectTethers(range);
    if (withCollisions) world.projectCollisions(range, params);
    world.projectFrameAttachments(range);
}

std::vector<glm::dvec3> PdReference::predictedPositions(const SolverSettings& settings) const {
    return world_.predictedPositions(range(world_), settings);
}

double PdReference::objective(std::span<const glm::dvec3> q, std::span<const glm::dvec3> s,
                              const SolverSettings& settings) const {
    const ref::MeshSdfGridScope grids(world_.meshSdfGrids());
    const double h = double(settings.timeStep) / double(settings.substeps);
    double energy = 0.0;
    localStep(q, &energy);
    for (uint32_t r : freeRows_) {
        const uint32_t i = pd_.firstParticle + r;
        const double massOverH2 = double(pd_.rows[r].mass) / (h * h);
        energy += 0.5 * massOverH2 * glm::dot(q[i] - s[i], q[i] - s[i]);
        uint32_t touching = 0;
        const glm::dvec3 target = collisionTarget(
            world_, i, q[i], world_.collisionCandidates(s[i], settings.collisionMargin) & world_.sceneColliderBits(),
            settings.stencilStep, h, touching);
        if (touching != 0)
            energy += 0.5 * double(settings.pd.collisionWeight) * massOverH2 * glm::dot(q[i] - target, q[i] - target);
    }
    return energy;
}

// shaders/pd/local_*.comp, family by family into their slots; the energies
// are the w of the first slots there.
std::vector<glm::dvec3> PdReference::localStep(std::span<const glm::dvec3> q, double* energy) const {
    std::vector<glm::dvec3> slots(pd_.slots.total, glm::dvec3(0.0));
    double sum = 0.0;
    auto add = [&sum](double weight, double squaredDistance) { sum += 0.5 * weight * squaredDistance; };
    for (size_t e = 0; e < pd_.springs.size(); ++e) {
        const gpu::PdSpring& sp = pd_.springs[e];
        const glm::dvec3 edge = q[sp.p0] - q[sp.p1], target = ref::pdSpringTarget(edge, sp.restLength);
        add(sp.weight, glm::dot(edge - target, edge - target));
        const glm::dvec3 p = double(sp.weight) * target;
        slots[pd_.slots.springs + 2 * e] = p;
        slots[pd_.slots.springs + 2 * e + 1] = -p;
    }
    for (size_t e = 0; e < pd_.triangles.size(); ++e) {
        const gpu::PdTriangle& t = pd_.triangles[e];
        const glm::dvec2 g1(t.gradients.x, t.gradients.y), g2(t.gradients.z, t.gradients.w), g0 = -(g1 + g2);
        const ref::Columns32 F =
            ref::triangleDeformationGradient(q[t.particles.x], q[t.particles.y], q[t.particles.z], g1, g2);
        const ref::Columns32 T = ref::pdTriangleStrainTarget(F, t.sigmaMin, t.sigmaMax);
        const double w = t.weight;
        add(w, glm::dot(F.c0 - T.c0, F.c0 - T.c0) + glm::dot(F.c1 - T.c1, F.c1 - T.c1));
        const size_t slot = pd_.slots.triangles + 3 * e;
        slots[slot] = w * (T.c0 * g0.x + T.c1 * g0.y);
        slots[slot + 1] = w * (T.c0 * g1.x + T.c1 * g1.y);
        slots[slot + 2] = w * (T.c0 * g2.x + T.c1 * g2.y);
    }
    auto tets = [&](const std::vector<gpu::PdTetrahedron>& family, uint32_t base, bool volume) {
        for (size_t e = 0; e < family.size(); ++e) {
            const gpu::PdTetrahedron& t = family[e];
            const glm::dvec3 g1(glm::vec3(t.g1)), g2(glm::vec3(t.g2)), g3(glm::vec3(t.g3));
            const glm::dmat3 F = ref::tetDeformationGradient(q[t.particles.x], q[t.particles.y], q[t.particles.z],
                                                             q[t.particles.w], g1, g2, g3);
            const glm::dmat3 T = volume ? ref::pdTetVolumeTarget(F, t.rangeMin, t.rangeMax)
                                        : ref::pdTetStrainTarget(F, t.rangeMin, t.rangeMax);
            const double w = t.weight;
            const glm::dmat3 D = F - T;
            add(w, glm::dot(D[0], D[0]) + glm::dot(D[1], D[1]) + glm::dot(D[2], D[2]));
            const size_t slot = base + 4 * e;
            slots[slot] = -w * (T * (g1 + g2 + g3));
            slots[slot + 1] = w * (T * g1);
            slots[slot + 2] = w * (T * g2);
            slots[slot + 3] = w * (T * g3);
        }
    };
    tets(pd_.tetStrain, pd_.slots.tetStrain, false);
    tets(pd_.tetVolume, pd_.slots.tetVolume, true);
    for (size_t e = 0; e < pd_.bending.size(); ++e) {
        const gpu::PdBending& b = pd_.bending[e];
        const glm::dvec4 K(b.K);
        const glm::dvec3 vf =
            K.x * q[b.particles.x] + K.y * q[b.particles.y] + K.z * q[b.particles.z] + K.w * q[b.particles.w];
        const glm::dvec3 target = ref::pdBendingTarget(vf, b.restNorm);
        add(b.weight, glm::dot(vf - target, vf - target));
        const glm::dvec3 p = double(b.weight) * target;
        const size_t slot = pd_.slots.bending + 4 * e;
        slots[slot] = K.x * p;
        slots[slot + 1] = K.y * p;
        slots[slot + 2] = K.z * p;
        slots[slot + 3] = K.w * p;
    }
    for (size_t e = 0; e < pd_.attachments.size(); ++e) {
        const gpu::PdAttachment& a = pd_.attachments[e];
        const glm::dvec3 target(glm::vec3(a.target));
        add(a.weight, glm::dot(q[a.particle] - target, q[a.particle] - target));
        slots[pd_.slots.attachments + e] = double(a.weight) * target;
    }
    if (energy) *energy += sum;
    return slots;
}

// local_collisions.comp for particle i at q: ReferenceWorld's projection
// with the colliders' Coulomb friction on the slip since the substep's start x.
glm::dvec3 PdReference::collisionTarget(const ReferenceWorld& world, uint32_t i, glm::dvec3 p, uint32_t candidates,
                                        double stencilStep, double h, uint32_t& touching) {
    return world.projectOutOfColliders(p, candidates, stencilStep, touching, &world.positions()[i], h, nullptr, false,
                                       nullptr, ReferenceWorld::PushFriction::Coulomb);
}

void PdReference::collisionProjections(ReferenceWorld& world, std::span<const glm::dvec3> q, double stencilStep,
                                       double h) {
    const std::span<ReferenceContact> contacts = world.contacts();
    for (uint32_t r = 0; r < pd_.particleCount; ++r) {
        const uint32_t i = pd_.firstParticle + r;
        uint32_t touching = 0;
        collisionTargets_[r] = collisionTarget(world, i, q[i], contacts[i].candidates & world.sceneColliderBits(),
                                               stencilStep, h, touching);
        contacts[i].touching |= touching;
        collisionActive_[r] = touching != 0;
    }
}

void PdReference::factorise(double h, double collisionWeight, const std::vector<bool>& active) {
    Factorisation& f = *factorisation_;
    if (f.analysed && f.h == h && f.collisionWeight == collisionWeight && f.active == active) return;
    const auto n = static_cast<Eigen::Index>(freeRows_.size());
    std::vector<Eigen::Triplet<double>> triplets;
    for (size_t i = 0; i < freeRows_.size(); ++i) {
        const uint32_t r = freeRows_[i];
        const gpu::PdRow& row = pd_.rows[r];
        const double inertia = double(row.mass) / (h * h);
        double diagonal = inertia + pdLaplacianDiagonal(pd_, r);
        if (active[r]) diagonal += collisionWeight * inertia;
        triplets.emplace_back(Eigen::Index(i), Eigen::Index(i), diagonal);
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k) {
            const int32_t j = freeIndex_[pd_.offDiagonal[k].column - pd_.firstParticle];
            if (j >= 0) triplets.emplace_back(Eigen::Index(i), Eigen::Index(j), double(pd_.offDiagonal[k].value));
        }
    }
    f.matrix.resize(n, n);
    f.matrix.setFromTriplets(triplets.begin(), triplets.end());
    if (!f.analysed) {
        f.ldlt.analyzePattern(f.matrix);
        f.analysed = true;
    }
    f.ldlt.factorize(f.matrix);
    if (f.ldlt.info() != Eigen::Success)
        throw std::runtime_error("PdReference: the global matrix is not positive definite");
    f.h = h;
    f.collisionWeight = collisionWeight;
    f.active = active;
}

std::vector<glm::dvec3> PdReference::solve(std::span<const glm::dvec3> s,
                                                 std::span<const glm::dvec3> contributions,
                                                 std::span<const glm::dvec3> pinnedAt, double h,
                                                 double collisionWeight, bool withCollisions) {
    const std::vector<bool> noCollisions(pd_.particleCount, false);
    const std::vector<bool>& active = withCollisions ? collisionActive_ : noCollisions;
    factorise(h, collisionWeight, active);
    const auto n = static_cast<Eigen::Index>(freeRows_.size());
    Eigen::MatrixX3d b(n, 3);
    for (size_t i = 0; i < freeRows_.size(); ++i) {
        const uint32_t r = freeRows_[i];
        const gpu::PdRow& row = pd_.rows[r];
        const double inertia = double(row.mass) / (h * h);
        // The same sum as gather_rhs.comp, in the same slot order.
        glm::dvec3 rhs = inertia * s[pd_.firstParticle + r];
        for (uint32_t k = row.gatherFirst; k < row.gatherFirst + row.gatherCount; ++k)
            rhs += contributions[pd_.gatherSlots[k]];
        if (active[r]) rhs += collisionWeight * inertia * collisionTargets_[r];
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k) {
            const uint32_t column = pd_.offDiagonal[k].column;
            if (freeIndex_[column - pd_.firstParticle] < 0) rhs -= double(pd_.offDiagonal[k].value) * pinnedAt[column];
        }
        for (int c = 0; c < 3; ++c) b(Eigen::Index(i), c) = rhs[c];
    }
    const Eigen::MatrixX3d x = factorisation_->ldlt.solve(b);
    std::vector<glm::dvec3> q(pinnedAt.begin(), pinnedAt.end());
    for (size_t i = 0; i < freeRows_.size(); ++i)
        q[pd_.firstParticle + freeRows_[i]] =
            glm::dvec3(x(Eigen::Index(i), 0), x(Eigen::Index(i), 1), x(Eigen::Index(i), 2));
    return q;
}

std::vector<glm::dvec3> PdReference::globalSolve(std::span<const glm::dvec3> s,
                                                       std::span<const glm::dvec3> contributions,
                                                       std::span<const glm::dvec3> pinnedAt, double h) {
    return solve(s, contributions, pinnedAt, h, 0.0, false);
}

double PdReference::relativeResidual(std::span<const glm::dvec3> q, std::span<const glm::dvec3> s,
                                           std::span<const glm::dvec3> contributions, double h) const {
    double residual = 0.0, norm = 0.0;
    for (uint32_t r : freeRows_) {
        const gpu::PdRow& row = pd_.rows[r];
        const uint32_t i = pd_.firstParticle + r;
        const double inertia = double(row.mass) / (h * h);
        glm::dvec3 b = inertia * s[i];
        for (uint32_t k = row.gatherFirst; k < row.gatherFirst + row.gatherCount; ++k)
            b += contributions[pd_.gatherSlots[k]];
        glm::dvec3 Aq = (inertia + pdLaplacianDiagonal(pd_, r)) * q[i];
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k)
            Aq += double(pd_.offDiagonal[k].value) * q[pd_.offDiagonal[k].column];
        residual += glm::dot(Aq - b, Aq - b);
        norm += glm::dot(b, b);
    }
    return norm > 0.0 ? std::sqrt(residual / norm) : std::sqrt(residual);
}

glm::dvec3 PdReference::linearMomentum() const {
    const std::span<const glm::dvec3> v = world_.velocities();
    glm::dvec3 momentum(0.0);
    for (uint32_t r : freeRows_) momentum += double(pd_.rows[r].mass) * v[pd_.firstParticle + r];
    return momentum;
}

}  // namespace vksim
