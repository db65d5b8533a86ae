// Hyperelastic energy densities of a tetrahedron (docs/physics.md §16), in
// the deformation gradient F (per unit rest volume), with their first
// Piola-Kirchhoff stress P = dPsi/dF and the 3x3 block of the Hessian that
// a vertex block descent step takes. The XPBD and VBD solids and their CPU
// references all evaluate these. Shared math: see math/real_glsl.h for the
// rules. Uses svd3 (math/svd3.glsl, which the includer includes first) and
// the kElastic* constants of shared/elastic_types.h.
//
// Stable Neo-Hookean (Smith, de Goes & Kim 2018, in the form without the log
// term that Kim & Eberle 2022 and Macklin & Mueller 2021 use):
//   Psi = mu/2 (I_C - 3) - mu (J - 1) + lambdaHat/2 (J - 1)^2,
//   I_C = |F|^2, J = det F, lambdaHat = lambda + mu,
// zero with zero stress at F = I, finite for inverted elements (J < 0), and
// equal to linear elasticity with Lame parameters (mu, lambda) for small
// strains: the shift lambdaHat = lambda + mu is what makes it so.
// Fixed corotated (Stomakhin et al. 2012):
//   Psi = mu |F - R|^2 + lambda/2 (J - 1)^2,  R the rotation of F's polar
// decomposition, from the signed SVD (an inverted F keeps R a rotation).
#ifndef VKSIM_ELASTIC_ENERGY_GLSL
#define VKSIM_ELASTIC_ENERGY_GLSL

// (mu, lambda) from Young's modulus E and Poisson's ratio nu in [0, 0.5).
real2 lameParameters(real youngsModulus, real poissonRatio) {
    real mu = youngsModulus / (real(2) * (real(1) + poissonRatio));
    real lambda = youngsModulus * poissonRatio / ((real(1) + poissonRatio) * (real(1) - real(2) * poissonRatio));
    return real2(mu, lambda);
}

// F = sum_k x_k g_k^T of a tetrahedron, written with edges from x0
// (translation-free, and what keeps float precision where the positions are
// large): g_1..g_3 the rows of its inverse rest edge matrix.
real3x3 tetDeformation(real3 x0, real3 x1, real3 x2, real3 x3, real3 g1, real3 g2, real3 g3) {
    return outerProduct(x1 - x0, g1) + outerProduct(x2 - x0, g2) + outerProduct(x3 - x0, g3);
}

// dJ/dF: the cofactor matrix, whose columns are cross products of F's.
real3x3 cofactorMatrix(real3x3 F) {
    return real3x3(cross(F[1], F[2]), cross(F[2], F[0]), cross(F[0], F[1]));
}

real frobeniusSquared(real3x3 F) {
    return dot(F[0], F[0]) + dot(F[1], F[1]) + dot(F[2], F[2]);
}

// R of F = R S (the signed SVD's U V^T).
real3x3 polarRotation(real3x3 F) {
    Svd3 d = svd3(F);
    return d.U * transpose(d.V);
}

real elasticEnergyDensity(uint model, real3x3 F, real mu, real lambda) {
    real J = determinant(F);
    if (model == kElasticCorotated) {
        Svd3 d = svd3(F);
        real3 s = d.S - real3(1);
        return mu * dot(s, s) + real(0.5) * lambda * (J - real(1)) * (J - real(1));
    }
    real lambdaHat = lambda + mu;
    return real(0.5) * mu * (frobeniusSquared(F) - real(3)) - mu * (J - real(1)) +
           real(0.5) * lambdaHat * (J - real(1)) * (J - real(1));
}

// P = dPsi/dF.
real3x3 elasticStress(uint model, real3x3 F, real mu, real lambda) {
    real J = determinant(F);
    real3x3 cof = cofactorMatrix(F);
    if (model == kElasticCorotated) return real(2) * mu * (F - polarRotation(F)) + lambda * (J - real(1)) * cof;
    real lambdaHat = lambda + mu;
    return mu * F + (lambdaHat * (J - real(1)) - mu) * cof;
}

// The block d^2 Psi / dx_i^2 of a vertex whose F = ... + x_i g^T + ...
// (g its row of the inverse rest edge matrix, or -(g_1 + g_2 + g_3) for
// vertex 0). J is affine in each single vertex, so d^2 J/dx_i^2 = 0 and the
// block is
//   Neo-Hookean: mu |g|^2 I + lambdaHat (cof g)(cof g)^T, exact and positive
//                semi-definite for any F, inverted ones included;
//   corotated:   2 mu |g|^2 I + lambda (cof g)(cof g)^T, with R held fixed
//                (the rotation's derivative, which only lowers the block,
//                left out: positive semi-definite, as projective dynamics
//                takes ARAP's).
// Per unit rest volume, as Psi.
real3x3 elasticVertexHessian(uint model, real3x3 F, real3 g, real mu, real lambda) {
    real3 c = cofactorMatrix(F) * g;
    real gg = dot(g, g);
    if (model == kElasticCorotated) return real3x3(real(2) * mu * gg) + lambda * outerProduct(c, c);
    return real3x3(mu * gg) + (lambda + mu) * outerProduct(c, c);
}

#endif
