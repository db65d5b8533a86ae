#include "solvers/springs/spring_newton_matrix.h"

#include <algorithm>
#include <vector>

#include "geometry/shared_math.h"

namespace vksim {

namespace {

Eigen::Matrix3d toEigen(const glm::dmat3& m) {
    Eigen::Matrix3d e;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) e(r, c) = m[c][r];
    return e;
}

// Particles coupled by the largest active energy stencil among rows
// [first, first + count): mu_max of D^-1 A never exceeds it.
double stencilBound(const MsModel& ms, ParticleRange rows) {
    for (uint32_t r = rows.first; r < rows.end(); ++r) {
        const gpu::MsParticle& p = ms.particles[r];
        for (uint32_t k = p.firstQuadratic; k < p.firstQuadratic + p.quadraticCount; ++k)
            if (ms.quadratic[k].value != 0.0f) return 4.0;  // a quadratic bending stencil: an edge and its two wings
    }
    return 2.0;  // springs
}

}  // namespace

linear::BlockSparseMatrix springNewtonMatrix(const MsModel& ms, std::span<const glm::dvec3> x,
                                             std::span<const double> inverseMasses, double h) {
    const uint32_t n = ms.particleCount, first = ms.firstParticle;
    auto isFree = [&](uint32_t i) { return inverseMasses[i] > 0.0; };
    // Each off-diagonal coupling is given once, from its lower end (the
    // matrix mirrors it).
    std::vector<linear::BlockTriplet> triplets;
    for (uint32_t r = 0; r < n; ++r) {
        const uint32_t i = first + r;
        if (!isFree(i)) {
            triplets.push_back({r, r, Eigen::Matrix3d::Identity()});
            continue;
        }
        const gpu::MsParticle& p = ms.particles[r];
        glm::dmat3 diagonal(0.0);
        std::vector<linear::BlockTriplet> couplings;
        for (uint32_t k = p.firstSpring; k < p.firstSpring + p.springCount; ++k) {
            const gpu::MsSpring& s = ms.springs[ms.incidentSprings[k].spring];
            const uint32_t other = s.i == i ? s.j : s.i;
            const ref::SpringTerms t =
                ref::springTerms(x[i], x[other], s.restLength, s.stiffness, s.compressionScale, s.slack);
            diagonal += t.hessian;
            if (other > i && isFree(other)) couplings.push_back({r, other - first, -toEigen(t.hessian)});
        }
        for (uint32_t k = p.firstQuadratic; k < p.firstQuadratic + p.quadraticCount; ++k) {
            const gpu::MsQuadraticEntry& q = ms.quadratic[k];
            if (q.column == i) diagonal += double(q.value) * glm::dmat3(1.0);
            else if (q.column > i && isFree(q.column))
                couplings.push_back({r, q.column - first, double(q.value) * Eigen::Matrix3d::Identity()});
        }
        const double inertia = 1.0 / (inverseMasses[i] * h * h) + double(p.drag) / h;
        triplets.push_back({r, r, toEigen(diagonal) + inertia * Eigen::Matrix3d::Identity()});
        triplets.insert(triplets.end(), couplings.begin(), couplings.end());
    }
    return linear::BlockSparseMatrix::fromTriplets(n, triplets);
}

std::vector<linear::JacobiSpectrum> springCopySpectra(const MsModel& ms, std::span<const glm::vec4> rest, double h,
                                                      std::span<const ParticleRange> copies) {
    std::vector<glm::dvec3> x(rest.size());
    std::vector<double> inverseMasses(rest.size());
    for (size_t i = 0; i < rest.size(); ++i) {
        x[i] = glm::dvec3(glm::vec3(rest[i]));
        inverseMasses[i] = rest[i].w;
    }
    const linear::BlockSparseMatrix A = springNewtonMatrix(ms, x, inverseMasses, h);
    std::vector<linear::JacobiSpectrum> spectra;
    for (const ParticleRange& rows : copies) {
        linear::JacobiSpectrum spectrum = A.diagonalBlock(rows.first, rows.count).jacobiSpectrum();
        // Lanczos sees mu_max at the rest shape only, and from below; the
        // geometric stiffness of a stretched cloth moves it, and a Chebyshev
        // interval that ends short of it diverges (the more Jacobi
        // iterations, the faster). mu_max is bounded at every state instead:
        // each term's Hessian is positive semi-definite (compressed springs
        // clamped, §9.3) and couples s particles, so H <= s blockdiag(H)
        // (Cauchy-Schwarz), the mass term is block-diagonal, and
        // A <= s_max D. Too low a mu_min only slows the slowest modes.
        spectrum.muMax = std::max(spectrum.muMax, stencilBound(ms, rows));
        spectrum.muMin = std::min(spectrum.muMin, spectrum.muMax);
        spectra.push_back(spectrum);
    }
    return spectra;
}

}  // namespace vksim
