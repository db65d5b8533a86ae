#include "solvers/springs/spring_reference.h"

#include <string>

#include "solvers/springs/spring_settings.h"
#include "solvers/springs/spring_newton_matrix.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <Eigen/Sparse>

#include "geometry/shared_math.h"
#include "linear/block_sparse.h"
#include "shaders/springs/spring_types.h"
#include "shaders/vbd/vbd_types.h"

namespace vksim {
namespace {

double norm(std::span<const glm::dvec3> v) {
    double sum = 0.0;
    for (const glm::dvec3& x : v) sum += glm::dot(x, x);
    return std::sqrt(sum);
}

// A lagged pair's friction at x, from particle i's side
// (springs/contact_energy.glsl's laggedContactFriction and
// newton_assemble.glsl's terms): D = mu lambda f0(|u|), its gradient and
// block, and the block's curvature.
struct LaggedPairTerms {
    double energy = 0.0;
    ref::LaggedFriction terms;
};
LaggedPairTerms laggedPairTerms(const ContactReferenceSolve::FrictionLag& lag, uint32_t i,
                                std::span<const glm::dvec3> x, std::span<const glm::dvec3> x0, double h) {
    const double stickSlip = double(gpu::kVbdFrictionStickSpeed) * h;
    const glm::dvec3 u = ref::contactPairSlip(lag.n, x[i] - x[lag.j], x0[i] - x0[lag.j]);
    return {lag.load * ref::frictionF0(glm::length(u), stickSlip),
            ref::laggedFrictionOfCurvature(lag.n, u, ref::laggedFrictionCurvature(u, lag.load, stickSlip))};
}

}  // namespace

SpringReference::SpringReference(const SpringModelView& model, SpringReferenceOptions options)
    : ReferenceSimulation(model.shared), ms_(model.springs), options_(options) {
    if (ms_.particles.size() != ms_.particleCount || ms_.blockRowStart.size() != ms_.particleCount + 1)
        throw std::invalid_argument("SpringReference: the model's mass-spring system is not built");
    if (ms_.firstParticle + ms_.particleCount > model.shared.particleCount())
        throw std::invalid_argument("SpringReference: the mass-spring range lies outside the model's particles");
    accelerations_.assign(model.shared.particleCount(), glm::dvec3(0.0));
}

void SpringReference::checkSettings(const SolverSettings& settings) const {
    const SpringSettings& s = settings.springs;
    if (s.integrator == SpringIntegrator::ImplicitEuler && s.newtonIterations == 0 && !options_.newtonToConvergence)
        throw std::invalid_argument("SpringReference::step: needs newtonIterations > 0");
    if (s.integrator == SpringIntegrator::Vbd && s.vbdIterations == 0)
        throw std::invalid_argument("SpringReference::step: needs vbdIterations > 0");
    if (minimisesEnergy(s.integrator))
        for (const gpu::MsHinge& hinge : ms_.hinges)
            if (hinge.stiffness != 0.0f)
                throw std::invalid_argument(std::string("SpringReference::step: ") + kDihedralHasNoEnergy);
    for (const SpringObject& object : ms_.objects)
        if (object.params.integrator && (minimisesEnergy(s.integrator) || minimisesEnergy(*object.params.integrator)))
            throw std::invalid_argument(std::string("SpringReference::step: ") + kObjectIntegratorNeedsExplicitSolver);
}

double SpringReference::mass(uint32_t i) const { return 1.0 / world_.inverseMasses()[i]; }

glm::dvec3 SpringReference::particleForce(uint32_t i, std::span<const glm::dvec3> x, bool withHinges,
                                          glm::dmat3* hessian) const {
    const gpu::MsParticle& p = ms_.particles[i - ms_.firstParticle];
    glm::dvec3 force(0.0);
    glm::dmat3 block(0.0);
    for (uint32_t k = p.firstSpring; k < p.firstSpring + p.springCount; ++k) {
        const gpu::MsSpring& s = ms_.springs[ms_.incidentSprings[k].spring];
        const uint32_t other = s.i == i ? s.j : s.i;
        const ref::SpringTerms t = ref::springTerms(x[i], x[other], s.restLength, s.stiffness, s.compressionScale,
                                                    s.slack);
        force += t.force;
        block += t.hessian;
    }
    if (withHinges)
        for (uint32_t k = p.firstHinge; k < p.firstHinge + p.hingeCount; ++k) {
            const gpu::MsHinge& e = ms_.hinges[ms_.incidentHinges[k] / 4];
            if (e.stiffness == 0.0f) continue;  // an inactive bending model (spring_model.h)
            force += ref::dihedralForce(x[e.v0], x[e.v1], x[e.v2], x[e.v3], e.restAngle, e.stiffness,
                                        ms_.incidentHinges[k] % 4);
        }
    for (uint32_t k = p.firstQuadratic; k < p.firstQuadratic + p.quadraticCount; ++k) {
        const gpu::MsQuadraticEntry& q = ms_.quadratic[k];
        force -= double(q.value) * x[q.column];
        if (q.column == i) block += double(q.value) * glm::dmat3(1.0);
    }
    if (hessian) *hessian = block;
    return force;
}

std::vector<glm::dvec3> SpringReference::accelerations(std::span<const glm::dvec3> y, std::span<const glm::dvec3> v,
                                                       const glm::dvec3& gravity) const {
    std::vector<glm::dvec3> a(y.size(), glm::dvec3(0.0));
    for (uint32_t r = 0; r < ms_.particleCount; ++r) {
        const uint32_t i = ms_.firstParticle + r;
        const double w = world_.inverseMasses()[i];
        if (w <= 0.0) continue;
        const glm::dvec3 f = particleForce(i, y, true, nullptr) - double(ms_.particles[r].drag) * v[i];
        a[i] = gravity + w * f;
    }
    return a;
}

std::vector<glm::dvec3> SpringReference::internalForces(std::span<const glm::dvec3> x) const {
    std::vector<glm::dvec3> f(x.size(), glm::dvec3(0.0));
    for (uint32_t r = 0; r < ms_.particleCount; ++r)
        f[ms_.firstParticle + r] = particleForce(ms_.firstParticle + r, x, true, nullptr);
    return f;
}

ContactReferenceSolve::Penalty SpringReference::contactPenalty(const ContactReferenceSolve& contacts, uint32_t i,
                                                               std::span<const glm::dvec3> x,
                                                               std::span<const glm::dvec3> x0, double h) const {
    return contacts.penalty(i, x[i], x, x0, world_.inverseMasses(), range(world_), h);
}

double SpringReference::elasticEnergy(std::span<const glm::dvec3> x) const {
    double energy = 0.0;
    for (const gpu::MsSpring& s : ms_.springs)
        energy += ref::springTerms(x[s.i], x[s.j], s.restLength, s.stiffness, s.compressionScale, s.slack).energy;
    for (uint32_t r = 0; r < ms_.particleCount; ++r) {
        const gpu::MsParticle& p = ms_.particles[r];
        for (uint32_t k = p.firstQuadratic; k < p.firstQuadratic + p.quadraticCount; ++k)
            energy += 0.5 * double(ms_.quadratic[k].value) *
                      glm::dot(x[ms_.firstParticle + r], x[ms_.quadratic[k].column]);
    }
    return energy;
}

double SpringReference::objective(std::span<const glm::dvec3> x, std::span<const glm::dvec3> y,
                                  std::span<const glm::dvec3> x0, double h, const FrictionLags* lags) const {
    double value = elasticEnergy(x);
    const ContactReferenceSolve* contacts = world_.objectContacts();
    for (uint32_t r = 0; r < ms_.particleCount; ++r) {
        const uint32_t i = ms_.firstParticle + r;
        // Half of each touching pair's energy and friction (the other half is its other end's).
        if (contacts) value += 0.5 * contactPenalty(*contacts, i, x, x0, h).energy;
        if (lags && !lags->empty())  // none without contacts
            for (const ContactReferenceSolve::FrictionLag& lag : (*lags)[r])
                value += 0.5 * laggedPairTerms(lag, i, x, x0, h).energy;
        if (world_.inverseMasses()[i] <= 0.0) continue;
        value += 0.5 * mass(i) / (h * h) * glm::dot(x[i] - y[i], x[i] - y[i]) +
                 0.5 * double(ms_.particles[r].drag) / h * glm::dot(x[i] - x0[i], x[i] - x0[i]);
    }
    return value;
}

std::vector<glm::dvec3> SpringReference::gradient(std::span<const glm::dvec3> x, std::span<const glm::dvec3> y,
                                                  std::span<const glm::dvec3> x0, double h,
                                                  const FrictionLags* lags) const {
    std::vector<glm::dvec3> g(x.size(), glm::dvec3(0.0));
    const ContactReferenceSolve* contacts = world_.objectContacts();
    for (uint32_t r = 0; r < ms_.particleCount; ++r) {
        const uint32_t i = ms_.firstParticle + r;
        if (world_.inverseMasses()[i] <= 0.0) continue;
        g[i] = mass(i) / (h * h) * (x[i] - y[i]) + double(ms_.particles[r].drag) / h * (x[i] - x0[i]) -
               particleForce(i, x, false, nullptr);
        if (contacts) g[i] += contactPenalty(*contacts, i, x, x0, h).gradient;
        if (lags && !lags->empty())  // none without contacts
            for (const ContactReferenceSolve::FrictionLag& lag : (*lags)[r])
                g[i] += laggedPairTerms(lag, i, x, x0, h).terms.gradient;
    }
    return g;
}

SpringReference::FrictionLags SpringReference::frictionLags(std::span<const glm::dvec3> x,
                                                            std::span<const glm::dvec3> x0, double h) const {
    const ContactReferenceSolve* contacts = world_.objectContacts();
    FrictionLags lags(contacts ? ms_.particleCount : 0);
    if (!contacts) return lags;
    const std::vector<double> totals = contacts->normalTotals(x, x0, world_.inverseMasses(), range(world_), h);
    for (uint32_t r = 0; r < lags.size(); ++r)
        lags[r] = contacts->frictionLags(ms_.firstParticle + r, x, x0, world_.inverseMasses(), range(world_), h,
                                         totals);
    return lags;
}

std::vector<glm::dvec3> SpringReference::newton(std::span<const glm::dvec3> y, std::span<const glm::dvec3> x0,
                                                double h, uint32_t iterations, bool toConvergence, bool lineSearch,
                                                std::vector<ImplicitIterate>* history) const {
    const uint32_t n = ms_.particleCount, first = ms_.firstParticle;
    std::vector<glm::dvec3> x(y.begin(), y.end());
    // The tracked F and |grad F| leave the friction out, as the GPU's
    // energy pass does (springs/objective.glsl).
    if (history) history->push_back({objective(x, y, x0, h), norm(gradient(x, y, x0, h)), 1.0});
    const uint32_t limit = toConvergence ? options_.maxNewtonIterations : iterations;
    for (uint32_t it = 0; it < limit; ++it) {
        // The pairs' friction lagged at this iterate, held through its line search.
        const FrictionLags lags = frictionLags(x, x0, h);
        const std::vector<glm::dvec3> g = gradient(x, y, x0, h, &lags);
        const double F = objective(x, y, x0, h, &lags);
        if (toConvergence && norm(g) < options_.newtonTolerance) break;
        Eigen::SparseMatrix<double> A = springNewtonMatrix(ms_, x, world_.inverseMasses(), h).toEigen();
        // The contact energy's and the friction's Hessian blocks
        // (springs/newton_assemble.glsl), on the diagonal and coupling each
        // touching pair of free particles.
        if (const ContactReferenceSolve* contacts = world_.objectContacts())
            for (uint32_t r = 0; r < n; ++r) {
                if (world_.inverseMasses()[first + r] <= 0.0) continue;
                const ContactReferenceSolve::Penalty penalty = contactPenalty(*contacts, first + r, x, x0, h);
                auto add = [&](uint32_t column, const glm::dmat3& block) {
                    for (int a = 0; a < 3; ++a)
                        for (int b = 0; b < 3; ++b) A.coeffRef(3 * r + a, 3 * column + b) += block[b][a];
                };
                add(r, penalty.hessian);
                for (const auto& [j, block] : penalty.couplings)
                    if (world_.inverseMasses()[j] > 0.0) add(j - first, block);
                for (const ContactReferenceSolve::FrictionLag& lag : lags[r]) {
                    const glm::dmat3 block = laggedPairTerms(lag, first + r, x, x0, h).terms.hessian;
                    add(r, block);
                    if (world_.inverseMasses()[lag.j] > 0.0) add(lag.j - first, -block);
                }
            }
        Eigen::VectorXd b(3 * n);
        for (uint32_t r = 0; r < n; ++r)
            for (int c = 0; c < 3; ++c) b[3 * r + c] = -g[first + r][c];
        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
        if (ldlt.info() != Eigen::Success) throw std::runtime_error("SpringReference::newton: factorisation failed");
        const Eigen::VectorXd dx = ldlt.solve(b);
        // Backtracking (Armijo), with the GPU's candidates and rule
        // (springs/spring_types.h): the largest alpha = 2^-c, c < 8, with
        // F(x + alpha dx) <= F + c_A alpha slope + tol |F|, else no step. The
        // Newton direction descends because the clamped Hessian is positive
        // definite (§9.3).
        const double slope = -b.dot(dx);
        auto stepped = [&](double alpha) {
            std::vector<glm::dvec3> moved = x;
            for (uint32_t r = 0; r < n; ++r)
                moved[first + r] = x[first + r] + alpha * glm::dvec3(dx[3 * r], dx[3 * r + 1], dx[3 * r + 2]);
            return moved;
        };
        double alpha = 1.0;
        std::vector<glm::dvec3> next = stepped(alpha);
        if (lineSearch) {
            alpha = 0.0;
            next = x;
            double candidate = 1.0;
            for (uint32_t c = 0; c < gpu::kLineSearchCandidates; ++c, candidate *= 0.5) {
                std::vector<glm::dvec3> moved = stepped(candidate);
                const double tolerance = double(gpu::kLineSearchTolerance) * std::abs(F);
                if (objective(moved, y, x0, h, &lags) <=
                    F + double(gpu::kLineSearchArmijo) * candidate * slope + tolerance) {
                    alpha = candidate;
                    next = std::move(moved);
                    break;
                }
            }
        }
        x = next;
        if (history) history->push_back({objective(x, y, x0, h), norm(gradient(x, y, x0, h)), alpha});
    }
    return x;
}

std::vector<glm::dvec3> SpringReference::vertexBlockDescent(std::span<const glm::dvec3> y,
                                                            std::span<const glm::dvec3> x0, double h,
                                                            uint32_t iterations,
                                                            std::vector<ImplicitIterate>* history) const {
    std::vector<glm::dvec3> x(y.begin(), y.end());
    auto record = [&] {
        if (history) history->push_back({objective(x, y, x0, h), norm(gradient(x, y, x0, h)), 1.0});
    };
    record();
    // The contact energy of the pairs within the range and their friction
    // (springs/vbd.glsl).
    // Its dispatch reads the other particle of a pair at its iterate, or at
    // the snapshot before the iteration when it is of the same colour: in
    // both cases, where it was when the colour began.
    const ContactReferenceSolve* contacts = world_.objectContacts();
    std::vector<glm::dvec3> colourStart;
    for (uint32_t it = 0; it < iterations; ++it) {
        // No two vertices of a colour share an element, so this serial sweep
        // of a colour is what its parallel dispatch computes.
        for (const MsModel::Colour& color : ms_.vertexColours) {
            if (contacts) colourStart = x;
            for (uint32_t k = color.first; k < color.first + color.count; ++k) {
                const uint32_t i = ms_.vertexOrder[k];
                if (world_.inverseMasses()[i] <= 0.0) continue;
                const gpu::MsParticle& p = ms_.particles[i - ms_.firstParticle];
                glm::dmat3 H(0.0);
                const glm::dvec3 f = particleForce(i, x, false, &H);
                const double inertia = mass(i) / (h * h) + double(p.drag) / h;
                glm::dvec3 g = mass(i) / (h * h) * (x[i] - y[i]) + double(p.drag) / h * (x[i] - x0[i]) - f;
                H += inertia * glm::dmat3(1.0);
                if (contacts) {
                    const ContactReferenceSolve::Penalty penalty =
                        contacts->penalty(i, x[i], colourStart, x0, world_.inverseMasses(), range(world_), h);
                    g += penalty.gradient;
                    H += penalty.hessian;
                    // Then the pairs' friction, from the rest of the step's terms.
                    const ContactReferenceSolve::Friction friction = contacts->friction(
                        i, x[i], colourStart, x0, world_.inverseMasses(), range(world_), h, g, H);
                    g += friction.gradient;
                    H += friction.hessian;
                }
                // H is m/h^2 I plus positive semi-definite blocks; only a
                // zero mass could make it singular. Skip rather than divide.
                const double scale = H[0][0] + H[1][1] + H[2][2];
                if (!(std::abs(glm::determinant(H)) > 1e-14 * scale * scale * scale)) continue;
                x[i] -= glm::inverse(H) * g;
            }
        }
        record();
    }
    return x;
}

std::vector<std::pair<ParticleRange, SpringIntegrator>> SpringReference::integratorRanges(
    const SpringSettings& settings) const {
    std::vector<std::pair<ParticleRange, SpringIntegrator>> ranges;
    for (const SpringObject& object : ms_.objects)
        ranges.push_back({{object.firstParticle, object.particleCount}, objectIntegrator(settings, object.params)});
    if (ms_.objects.empty()) ranges.push_back({{ms_.firstParticle, ms_.particleCount}, settings.integrator});
    return ranges;
}

void SpringReference::predictSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                     const SolverSettings& settings) {
    if (minimisesEnergy(settings.springs.integrator)) {
        world.predict(range, params);
        return;
    }
    accelerations_ = accelerations(world.positions(), world.velocities(), params.gravity);
    // p = x outside the objects (as ReferenceWorld::predict leaves it), then
    // each object by its own rule.
    std::copy(world.positions().begin(), world.positions().end(), world.predicted().begin());
    for (const auto& [objectRange, integrator] : integratorRanges(settings.springs))
        world.predictParticles(objectRange, params, stageIntegrator(integrator), accelerations_);
}

void SpringReference::solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                   const SolverSettings& settings) {
    const SpringSettings& s = settings.springs;
    if (!minimisesEnergy(s.integrator)) {
        // The second force pass, each object at its integrator's stage:
        // velocity Verlet at p, the midpoint rule at x + h/2 v (v the damped
        // start velocity predict kept in the stage); the others keep a(x).
        // Springs join particles of one object, so one pass at the mixed y is
        // each object's own.
        std::vector<glm::dvec3> y(world.positions().begin(), world.positions().end());
        bool secondStage = false;
        const std::vector<std::pair<ParticleRange, SpringIntegrator>> ranges = integratorRanges(s);
        for (const auto& [r, integrator] : ranges) {
            for (uint32_t i = r.first; i < r.end(); ++i) {
                if (integrator == SpringIntegrator::VelocityVerlet) y[i] = world.predicted()[i];
                if (integrator == SpringIntegrator::Midpoint) y[i] += 0.5 * params.h * glm::dvec3(world.stages()[i]);
            }
            secondStage = secondStage || integrator == SpringIntegrator::VelocityVerlet ||
                          integrator == SpringIntegrator::Midpoint;
        }
        if (secondStage) {
            const std::vector<glm::dvec3> a = accelerations(y, world.velocities(), params.gravity);
            for (const auto& [r, integrator] : ranges) {
                if (integrator != SpringIntegrator::VelocityVerlet && integrator != SpringIntegrator::Midpoint)
                    continue;
                std::copy(a.begin() + r.first, a.begin() + r.end(), accelerations_.begin() + r.first);
            }
        }
    } else {
        const std::vector<glm::dvec3> y(world.predicted().begin(), world.predicted().end());
        lastSolve_.clear();
        const std::vector<glm::dvec3> x =
            s.integrator == SpringIntegrator::Vbd
                ? vertexBlockDescent(y, world.positions(), params.h, s.vbdIterations, &lastSolve_)
                : newton(y, world.positions(), params.h, s.newtonIterations, options_.newtonToConvergence, s.lineSearch,
                         &lastSolve_);
        std::copy(x.begin(), x.end(), world.predicted().begin());
    }
    world.projectContactsAfterSolve(settings);
    world.projectTethers(range);
    world.projectCollisions(range, params);
    world.projectFrameAttachments(range);
}

void SpringReference::updateSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                    const SolverSettings& settings) {
    if (minimisesEnergy(settings.springs.integrator)) {
        world.updateParticles(range, params.h, stageIntegrator(settings.springs.integrator), accelerations_);
        return;
    }
    for (const auto& [objectRange, integrator] : integratorRanges(settings.springs))
        world.updateParticles(objectRange, params.h, stageIntegrator(integrator), accelerations_);
}

glm::dvec3 SpringReference::linearMomentum() const {
    glm::dvec3 p(0.0);
    for (uint32_t i = ms_.firstParticle; i < ms_.firstParticle + ms_.particleCount; ++i)
        if (world_.inverseMasses()[i] > 0.0) p += mass(i) * world_.velocities()[i];
    return p;
}

glm::dvec3 SpringReference::angularMomentum() const {
    glm::dvec3 L(0.0);
    for (uint32_t i = ms_.firstParticle; i < ms_.firstParticle + ms_.particleCount; ++i)
        if (world_.inverseMasses()[i] > 0.0)
            L += mass(i) * glm::cross(world_.positions()[i], world_.velocities()[i]);
    return L;
}

double SpringReference::mechanicalEnergy() const {
    double kinetic = 0.0;
    for (uint32_t i = ms_.firstParticle; i < ms_.firstParticle + ms_.particleCount; ++i)
        if (world_.inverseMasses()[i] > 0.0)
            kinetic += 0.5 * mass(i) * glm::dot(world_.velocities()[i], world_.velocities()[i]);
    return kinetic + elasticEnergy(world_.positions());
}

}  // namespace vksim
