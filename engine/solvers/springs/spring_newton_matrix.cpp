#include "solvers/springs/spring_newton_matrix.h"

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

}  // namespace vksim
