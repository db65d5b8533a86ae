#pragma once
// Bergou, Wardetzky, Harmon, Zorin & Grinspun 2006, "A Quadratic Bending
// Model for Inextensible Surfaces": for a flat rest shape the bending energy
// of a cloth is E = 1/2 sum_ij Q_ij x_i . x_j with a constant Q, summed over
// the interior edges: Q_e = 3/(A0 + A1) K K^T on the edge's four vertices.
// Assembled here once per topology, without the stiffness (the material,
// spring_materials.h, multiplies it in).
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

struct QuadraticTerm {
    uint32_t row;
    uint32_t column;
    double unit;  // Q_ij without the stiffness
};

struct QuadraticBending {
    // Sorted by (row, column), one entry per pair of vertices that share a
    // stencil, the diagonal included: the pattern is the union of the 4x4
    // stencils even where a product K_i K_j happens to be 0.
    std::vector<QuadraticTerm> entries;
    uint32_t degenerate = 0;  // hinges skipped: a (near) zero-area triangle or a repeated vertex
};

// `hinges` as MsHinge orders them, (v0, v1) the edge, v2 and v3 the tips, in
// the indexing of `rest`. Bergou's notation maps directly: x0 = v0,
// x1 = v1 (the edge), x2 = v2, x3 = v3 (the tips), e0 = x1 - x0,
// e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1, c_jk the cotangent
// of the angle between e_j and e_k (the corners at x0 and x1, with -e0 at
// x1), and K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04)
// (isometric_bending.h computes it, rounded so that it sums to exactly 0).
//
// Each (i, j) sums its terms scale (K_i K_j) in hinge order, so Q_ij and
// Q_ji are the same double; the diagonal is minus the sum of its row's
// off-diagonal entries (in column order), so every row sums to zero as
// exactly as one rounding allows and a translation feels no force.
// O(H log H) for H hinges.
QuadraticBending buildQuadraticBending(std::span<const glm::dvec3> rest, std::span<const glm::uvec4> hinges);

}  // namespace vksim
