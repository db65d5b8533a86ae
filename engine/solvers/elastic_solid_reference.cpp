#include "solvers/elastic_solid_reference.h"

#include <cmath>
#include <stdexcept>

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

using Matrix12 = Eigen::Matrix<double, 12, 12>;

// The deformation gradient F = sum_k x_k g_k^T and the four g_k.
struct TetFrame {
    glm::dmat3 F;
    glm::dvec3 g[4];
};

TetFrame tetFrame(const TetRest& rest, glm::uvec4 t, std::span<const glm::dvec3> x) {
    TetFrame frame;
    frame.g[1] = rest.g1;
    frame.g[2] = rest.g2;
    frame.g[3] = rest.g3;
    frame.g[0] = -(rest.g1 + rest.g2 + rest.g3);
    frame.F = ref::tetDeformation(x[t.x], x[t.y], x[t.z], x[t.w], rest.g1, rest.g2, rest.g3);
    return frame;
}

// dE_e/dx_k = V P g_k.
void elementGradient(const ElasticSolidModel& s, size_t e, std::span<const glm::dvec3> x, glm::dvec3 out[4]) {
    const glm::uvec4 t = s.tets[e];
    const TetFrame f = tetFrame(s.restShapes[e], t, x);
    const glm::dmat3 P = ref::elasticStress(s.model, f.F, s.mu, s.lambda);
    for (int k = 0; k < 4; ++k) out[k] = s.restShapes[e].volume * (P * f.g[k]);
}

// The element's 12x12 Hessian. Neo-Hookean, analytically: with c_k = cof(F) g_k,
//   H_jk = V [mu (g_j . g_k) I + lambdaHat c_j c_k^T - (lambdaHat (J - 1) - mu) [F (g_j x g_k)]_x],
// the last term d^2 J / dx_j dx_k (antisymmetric in j, k; zero for j = k).
// Corotated: central differences of the analytic gradient (step 1e-7 of the
// element's size), which Newton needs only approximately.
Matrix12 elementHessian(const ElasticSolidModel& s, size_t e, std::span<const glm::dvec3> x) {
    const glm::uvec4 t = s.tets[e];
    const TetRest& rest = s.restShapes[e];
    Matrix12 H = Matrix12::Zero();
    if (s.model == gpu::kElasticNeoHookean) {
        const TetFrame f = tetFrame(rest, t, x);
        const glm::dmat3 cof = ref::cofactorMatrix(f.F);
        const double lambdaHat = s.lambda + s.mu;
        const double twist = lambdaHat * (glm::determinant(f.F) - 1.0) - s.mu;
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) {
                const glm::dvec3 cj = cof * f.g[j], ck = cof * f.g[k];
                const glm::dvec3 w = f.F * glm::cross(f.g[j], f.g[k]);
                const double gg = glm::dot(f.g[j], f.g[k]);
                for (int a = 0; a < 3; ++a)
                    for (int b = 0; b < 3; ++b) {
                        // [w]_x v = w x v: ([w]_x)_ab = -eps_abc w_c.
                        const double crossMatrix = a == b ? 0.0 : (b == (a + 1) % 3 ? -w[(a + 2) % 3] : w[(a + 1) % 3]);
                        H(3 * j + a, 3 * k + b) = rest.volume * ((a == b ? s.mu * gg : 0.0) + lambdaHat * cj[a] * ck[b] -
                                                                 twist * crossMatrix);
                    }
            }
        return H;
    }
    const uint32_t vertices[4] = {t.x, t.y, t.z, t.w};
    std::vector<glm::dvec3> local(x.begin(), x.end());
    double size = 0.0;
    for (int k = 1; k < 4; ++k) size = std::max(size, glm::length(x[vertices[k]] - x[vertices[0]]));
    const double step = 1e-7 * size;
    for (int k = 0; k < 4; ++k)
        for (int b = 0; b < 3; ++b) {
            glm::dvec3 plus[4], minus[4];
            local[vertices[k]][b] += step;
            elementGradient(s, e, local, plus);
            local[vertices[k]][b] -= 2.0 * step;
            elementGradient(s, e, local, minus);
            local[vertices[k]][b] += step;
            for (int j = 0; j < 4; ++j)
                for (int a = 0; a < 3; ++a) H(3 * j + a, 3 * k + b) = (plus[j][a] - minus[j][a]) / (2.0 * step);
        }
    return 0.5 * (H + H.transpose());
}

Matrix12 projectToPositiveSemiDefinite(const Matrix12& H) {
    Eigen::SelfAdjointEigenSolver<Matrix12> eigen(H);
    Eigen::Matrix<double, 12, 1> values = eigen.eigenvalues().cwiseMax(0.0);
    return eigen.eigenvectors() * values.asDiagonal() * eigen.eigenvectors().transpose();
}

}  // namespace

ElasticSolidModel elasticSolidModel(const SolidObject& solid) {
    const std::string owner = fmt::format("solid '{}'", clipInput(solid.name));
    if (!solid.material) throw std::invalid_argument(owner + ": the elastic reference needs a material");
    const SolidGeometry geometry = buildSolidGeometry(solid, owner);
    SharedModel shared;
    const uint32_t first = appendSolidParticles(shared, solid, geometry, owner);
    ElasticSolidModel s;
    for (uint32_t v = 0; v < geometry.mesh.positions.size(); ++v) {
        s.rest.push_back(glm::dvec3(glm::vec3(shared.positions[first + v])));
        s.fixed.push_back(shared.positions[first + v].w == 0.0f);
    }
    s.masses = geometry.masses;
    for (uint32_t e = 0; e < geometry.mesh.tets.size(); ++e) {
        s.tets.push_back(geometry.mesh.tets[e]);
        s.restShapes.push_back(tetRest(shared, geometry.mesh.tets[e] + glm::uvec4(first), owner, e));
    }
    s.model = solid.material->model == ElasticModel::Corotated ? gpu::kElasticCorotated : gpu::kElasticNeoHookean;
    const glm::dvec2 lame = ref::lameParameters(double(solid.material->youngsModulus),
                                                double(solid.material->poissonRatio));
    s.mu = lame.x;
    s.lambda = lame.y;
    return s;
}

double elasticEnergy(const ElasticSolidModel& s, std::span<const glm::dvec3> x) {
    double energy = 0.0;
    for (size_t e = 0; e < s.tets.size(); ++e) {
        const TetFrame f = tetFrame(s.restShapes[e], s.tets[e], x);
        energy += s.restShapes[e].volume * ref::elasticEnergyDensity(s.model, f.F, s.mu, s.lambda);
    }
    return energy;
}

std::vector<glm::dvec3> elasticForces(const ElasticSolidModel& s, std::span<const glm::dvec3> x) {
    std::vector<glm::dvec3> forces(x.size(), glm::dvec3(0.0));
    for (size_t e = 0; e < s.tets.size(); ++e) {
        glm::dvec3 g[4];
        elementGradient(s, e, x, g);
        const glm::uvec4 t = s.tets[e];
        forces[t.x] -= g[0];
        forces[t.y] -= g[1];
        forces[t.z] -= g[2];
        forces[t.w] -= g[3];
    }
    return forces;
}

double elasticObjective(const ElasticSolidModel& s, const ElasticObjective& o, std::span<const glm::dvec3> x) {
    double value = elasticEnergy(s, x);
    const bool dynamic = !o.inertia.empty();
    for (size_t i = 0; i < x.size(); ++i) {
        if (s.fixed[i]) continue;
        if (dynamic) {
            const glm::dvec3 d = x[i] - o.inertia[i];
            value += 0.5 * s.masses[i] * glm::dot(d, d) / (o.h * o.h);
        }
        // Measured from the rest shape, so that the potential stays of the
        // size of the elastic energy and its changes are not lost to rounding.
        value -= s.masses[i] * glm::dot(o.acceleration, x[i] - s.rest[i]);
    }
    return value;
}

NewtonResult minimiseElasticObjective(const ElasticSolidModel& s, const ElasticObjective& o,
                                      std::span<const glm::dvec3> start, double tolerance, uint32_t maxIterations) {
    const size_t n = start.size();
    if (n != s.rest.size() || (!o.inertia.empty() && o.inertia.size() != n))
        throw std::invalid_argument("minimiseElasticObjective: positions of another solid");
    const bool dynamic = !o.inertia.empty();
    // Free vertices' unknowns, three each.
    std::vector<int> unknown(n, -1);
    int unknowns = 0;
    for (size_t i = 0; i < n; ++i)
        if (!s.fixed[i]) unknown[i] = 3 * unknowns++;
    const int size = 3 * unknowns;

    NewtonResult result;
    result.x.assign(start.begin(), start.end());
    auto gradient = [&](std::span<const glm::dvec3> x) {
        std::vector<glm::dvec3> force = elasticForces(s, x);
        Eigen::VectorXd g(size);
        for (size_t i = 0; i < n; ++i) {
            if (unknown[i] < 0) continue;
            glm::dvec3 gi = -force[i] - s.masses[i] * o.acceleration;
            if (dynamic) gi += s.masses[i] * (x[i] - o.inertia[i]) / (o.h * o.h);
            for (int a = 0; a < 3; ++a) g(unknown[i] + a) = gi[a];
        }
        return g;
    };
    result.objective = elasticObjective(s, o, result.x);
    for (; result.iterations < maxIterations; ++result.iterations) {
        const Eigen::VectorXd g = gradient(result.x);
        result.gradientNorm = size > 0 ? g.cwiseAbs().maxCoeff() : 0.0;
        if (result.gradientNorm < tolerance) {
            result.converged = true;
            break;
        }
        std::vector<Eigen::Triplet<double>> entries;
        if (dynamic)
            for (size_t i = 0; i < n; ++i)
                for (int a = 0; a < 3 && unknown[i] >= 0; ++a)
                    entries.emplace_back(unknown[i] + a, unknown[i] + a, s.masses[i] / (o.h * o.h));
        for (size_t e = 0; e < s.tets.size(); ++e) {
            const Matrix12 H = projectToPositiveSemiDefinite(elementHessian(s, e, result.x));
            const uint32_t v[4] = {s.tets[e].x, s.tets[e].y, s.tets[e].z, s.tets[e].w};
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 4; ++k) {
                    if (unknown[v[j]] < 0 || unknown[v[k]] < 0) continue;
                    for (int a = 0; a < 3; ++a)
                        for (int b = 0; b < 3; ++b)
                            entries.emplace_back(unknown[v[j]] + a, unknown[v[k]] + b, H(3 * j + a, 3 * k + b));
                }
        }
        Eigen::SparseMatrix<double> A(size, size);
        A.setFromTriplets(entries.begin(), entries.end());
        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(A);
        if (ldlt.info() != Eigen::Success) throw std::runtime_error("minimiseElasticObjective: singular system");
        const Eigen::VectorXd step = ldlt.solve(-g);
        // Backtracking along the step: Armijo on G, or a smaller gradient.
        // Near the minimum G's decrease falls below the rounding of its
        // evaluation (mu/2 (I_C - 3) cancels, about 1e-16 mu V per element,
        // against a decrease of |g|^2 / H), where the gradient still tells.
        double alpha = 1.0;
        const double slope = g.dot(step), gradientSquared = g.squaredNorm();
        std::vector<glm::dvec3> trial = result.x;
        for (int halvings = 0; halvings < 40; ++halvings, alpha *= 0.5) {
            for (size_t i = 0; i < n; ++i)
                if (unknown[i] >= 0)
                    trial[i] = result.x[i] + alpha * glm::dvec3(step(unknown[i]), step(unknown[i] + 1),
                                                                step(unknown[i] + 2));
            const double value = elasticObjective(s, o, trial);
            if (value <= result.objective + 1e-4 * alpha * slope || gradient(trial).squaredNorm() < gradientSquared) {
                result.x = trial;
                result.objective = value;
                break;
            }
        }
    }
    return result;
}

}  // namespace vksim
