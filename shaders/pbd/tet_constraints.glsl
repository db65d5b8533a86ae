// The tetrahedra of XPBD solids (docs/physics.md §16, "XPBD for solids"; Macklin & Mueller
// 2021, "A Constraint-based Formulation of Stable Neo-Hookean Materials").
// Stateless, as pbd_constraints.glsl: positions, inverse masses and rest
// data in, corrected positions and multipliers out. Shared math (see
// math/real_glsl.h for the rules); the includer includes
// pbd/pbd_constraints.glsl, math/svd3.glsl and math/elastic_energy.glsl first.
//
// F = sum_k x_k g_k^T = sum_{k>0} (x_k - x_0) g_k^T, g_0 = -(g_1 + g_2 + g_3),
// so a constraint C(F) has dC/dx_k = (dC/dF) g_k. An energy
// V Psi(F) = sum_c C_c^2 / (2 alpha_c) is two XPBD constraints, each zero at
// rest (no multipliers at rest: docs/physics.md §16 says why that matters):
//   stable Neo-Hookean: C_D = sqrt(I_C + J^2 - 4 J), alpha_D = 1/(mu V);
//                       C_H = J - 1, alpha_H = 1/(lambda V), none where lambda = 0,
//     whose sum mu/2 (I_C - 3 - 2 (J - 1) + (J - 1)^2) + lambda/2 (J - 1)^2 is
//     elasticEnergyDensity's Psi exactly (lambdaHat = lambda + mu);
//     I_C + J^2 - 4 J >= 0 for every F, zero only at rotations;
//   fixed corotated: C_D = |F - R|_F, alpha_D = 1/(2 mu V) (dC_D/dF = (F - R)/C_D:
//     R's own derivative is orthogonal to F - R);
//                    C_H = J - 1, alpha_H = 1/(lambda V), none where lambda = 0.
// Each has its own multiplier; the two are solved together
// (solveTetPair says why).
#ifndef VKSIM_TET_CONSTRAINTS_GLSL
#define VKSIM_TET_CONSTRAINTS_GLSL

struct TetCorrection {
    real3 dp0;
    real3 dp1;
    real3 dp2;
    real3 dp3;
    real dLambda;
};

TetCorrection noTetCorrection() {
    return TetCorrection(real3(0), real3(0), real3(0), real3(0), real(0));
}

// One constraint C of F with dC/dF = G: grad_k = G g_k, dp_k = w_k grad_k dLambda
// (constraintDeltaLambda). No correction where every weighted gradient
// vanishes (pinned vertices, a degenerate gradient): nothing could move.
TetCorrection tetConstraintStep(real3 g1, real3 g2, real3 g3, real w0, real w1, real w2, real w3, real C,
                                real3x3 G, uint mode, real iterationStiffness, real compliance, real dt,
                                real lambda) {
    real3 q1 = G * g1;
    real3 q2 = G * g2;
    real3 q3 = G * g3;
    real3 q0 = -(q1 + q2 + q3);
    real weightedGradSq = w0 * dot(q0, q0) + w1 * dot(q1, q1) + w2 * dot(q2, q2) + w3 * dot(q3, q3);
    if (weightedGradSq <= real(1e-30)) return noTetCorrection();
    real dLambda = constraintDeltaLambda(mode, iterationStiffness, compliance, dt, C, weightedGradSq, lambda);
    return TetCorrection(w0 * dLambda * q0, w1 * dLambda * q1, w2 * dLambda * q2, w3 * dLambda * q3, dLambda);
}

// One constraint of F: its value C, dC/dF = G and compliance alpha; not
// active where the model has none (corotated with lambda = 0) or its
// gradient is undefined (the corotated C_D at rest, where it is zero).
struct TetConstraintValue {
    real C;
    real3x3 G;
    real compliance;
    bool isActive;  // ("active" is reserved in GLSL)
};

// The Neo-Hookean C_D = sqrt(I_C + J^2 - 4 J) and its dC_D/dF =
// (F + (J - 2) cof F) / C_D, both written in the signed singular values
// sigma = 1 + s of F = U diag(sigma) V^T, in which every term is of second
// (first) order: near a rotation, where C_D is of the strain's size,
// I_C + J^2 - 4 J formed from F would cancel terms of order 1 and leave
// float rounding (1e-7, a C_D of 3e-4 pointing anywhere). With
// j = J - 1 = s1 + s2 + s3 + s1 s2 + s2 s3 + s3 s1 + s1 s2 s3:
//   I_C + J^2 - 4 J = |s|^2 - 2 (s1 s2 + s2 s3 + s3 s1) - 2 s1 s2 s3 + j^2,
//   its half-derivative in sigma_1: s1 - s2 - s3 - s2 s3 + j sigma_2 sigma_3,
// and dC_D/dF = U diag(half-derivatives) V^T / C_D (the energy depends on F
// through its singular values only).
TetConstraintValue tetNeoHookeanDeviatoric(real3x3 F, real volume, real mu) {
    Svd3 d = svd3(F);
    real3 s = d.S - real3(1);
    real3 sigma = d.S;
    real pairs = s.x * s.y + s.y * s.z + s.z * s.x;
    real triple = s.x * s.y * s.z;
    real j = s.x + s.y + s.z + pairs + triple;
    real C = sqrt(max(dot(s, s) - real(2) * (pairs + triple) + j * j, real(0)));
    bool isActive = mu > real(0) && C > real(1e-12);
    real3 q = real3(s.x - s.y - s.z - s.y * s.z + j * sigma.y * sigma.z,
                    s.y - s.z - s.x - s.z * s.x + j * sigma.z * sigma.x,
                    s.z - s.x - s.y - s.x * s.y + j * sigma.x * sigma.y);
    real3x3 G = svd3Compose(d.U, q * (real(1) / max(C, real(1e-30))), d.V);
    return TetConstraintValue(C, isActive ? G : real3x3(real(0)), isActive ? real(1) / (mu * volume) : real(0),
                              isActive);
}

TetConstraintValue tetDeviatoric(real3x3 F, real volume, uint model, real mu) {
    if (model != kElasticCorotated) return tetNeoHookeanDeviatoric(F, volume, mu);
    real3x3 D = F - polarRotation(F);
    real C = sqrt(frobeniusSquared(D));
    bool isActive = mu > real(0) && C > real(1e-12);
    real compliance = isActive ? real(1) / (real(2) * mu * volume) : real(0);
    return TetConstraintValue(C, isActive ? D * (real(1) / C) : real3x3(real(0)), compliance, isActive);
}

// C_H = J - 1 for both models (Neo-Hookean's mu (J - 1)^2 share is in its C_D).
TetConstraintValue tetHydrostatic(real3x3 F, real volume, real lame) {
    bool isActive = lame > real(0);
    return TetConstraintValue(determinant(F) - real(1), isActive ? cofactorMatrix(F) : real3x3(real(0)),
                              isActive ? real(1) / (lame * volume) : real(0), isActive);
}

// Each alone (the tests check their gradients and steps one by one).
TetCorrection solveTetDeviatoric(real3x3 F, real3 g1, real3 g2, real3 g3, real w0, real w1, real w2, real w3,
                                 real volume, uint model, real mu, real dt, real lambda) {
    TetConstraintValue c = tetDeviatoric(F, volume, model, mu);
    if (!c.isActive) return noTetCorrection();
    return tetConstraintStep(g1, g2, g3, w0, w1, w2, w3, c.C, c.G, kModeXpbd, real(0), c.compliance, dt, lambda);
}

TetCorrection solveTetHydrostatic(real3x3 F, real3 g1, real3 g2, real3 g3, real w0, real w1, real w2, real w3,
                                  real volume, real lame, real dt, real lambda) {
    TetConstraintValue c = tetHydrostatic(F, volume, lame);
    if (!c.isActive) return noTetCorrection();
    return tetConstraintStep(g1, g2, g3, w0, w1, w2, w3, c.C, c.G, kModeXpbd, real(0), c.compliance, dt, lambda);
}

// Both at once: the XPBD update of the pair, both gradients at the same
// positions, (A + alpha~) dLambda = -C - alpha~ lambda with
// A_cd = sum_k w_k grad_k C_c . grad_k C_d, a 2 x 2 solve: each constraint's
// step sees the other's, where one after the other each would move the
// shape by a force the next, at other positions, corrects (with the earlier
// Neo-Hookean pair, which held its rest stress as two cancelling
// multipliers, that folded a hanging beam onto its pins: docs/physics.md
// §16, "XPBD for solids"). An inactive constraint takes no part (its row is
// the identity, its right-hand side 0).
struct TetPairCorrection {
    real3 dp0;
    real3 dp1;
    real3 dp2;
    real3 dp3;
    real dLambdaDeviatoric;
    real dLambdaHydrostatic;
};

TetPairCorrection solveTetPair(real3 g1, real3 g2, real3 g3, real w0, real w1, real w2, real w3, TetConstraintValue d,
                               TetConstraintValue h, real dt, real lambdaD, real lambdaH) {
    real3 d1 = d.G * g1;
    real3 d2 = d.G * g2;
    real3 d3 = d.G * g3;
    real3 d0 = -(d1 + d2 + d3);
    real3 h1 = h.G * g1;
    real3 h2 = h.G * g2;
    real3 h3 = h.G * g3;
    real3 h0 = -(h1 + h2 + h3);
    real alphaD = d.compliance / (dt * dt);
    real alphaH = h.compliance / (dt * dt);
    real a11 = d.isActive ? w0 * dot(d0, d0) + w1 * dot(d1, d1) + w2 * dot(d2, d2) + w3 * dot(d3, d3) + alphaD
                        : real(1);
    real a22 = h.isActive ? w0 * dot(h0, h0) + w1 * dot(h1, h1) + w2 * dot(h2, h2) + w3 * dot(h3, h3) + alphaH
                        : real(1);
    real a12 = w0 * dot(d0, h0) + w1 * dot(d1, h1) + w2 * dot(d2, h2) + w3 * dot(d3, h3);
    real b1 = d.isActive ? -d.C - alphaD * lambdaD : real(0);
    real b2 = h.isActive ? -h.C - alphaH * lambdaH : real(0);
    real det = a11 * a22 - a12 * a12;
    if (!(det > real(0))) return TetPairCorrection(real3(0), real3(0), real3(0), real3(0), real(0), real(0));
    real lD = (b1 * a22 - a12 * b2) / det;
    real lH = (a11 * b2 - a12 * b1) / det;
    return TetPairCorrection(w0 * (lD * d0 + lH * h0), w1 * (lD * d1 + lH * h1), w2 * (lD * d2 + lH * h2),
                             w3 * (lD * d3 + lH * h3), lD, lH);
}

// The PBD volume constraint of Mueller et al. 2007: C = 6 (V - V0) =
// 6 V0 (J - 1), so dC/dF = 6 V0 cof F, with the per-iteration stiffness k'.
TetCorrection solveTetVolume(real3x3 F, real3 g1, real3 g2, real3 g3, real w0, real w1, real w2, real w3,
                             real volume, real iterationStiffness) {
    real six = real(6) * volume;
    return tetConstraintStep(g1, g2, g3, w0, w1, w2, w3, six * (determinant(F) - real(1)), cofactorMatrix(F) * six,
                             kModePbd, iterationStiffness, real(0), real(0), real(0));
}

// One projection of a tetrahedron: the elastic pair together
// (solveTetPair), then (volumeStiffness >= 0) the PBD volume constraint at
// the positions that left. Returns the corrected positions and both
// multipliers after the step.
struct TetProjection {
    real3 x0;
    real3 x1;
    real3 x2;
    real3 x3;
    real lambdaDeviatoric;
    real lambdaHydrostatic;
};

TetProjection solveTetrahedron(real3 x0, real w0, real3 x1, real w1, real3 x2, real w2, real3 x3, real w3,
                               real3 g1, real3 g2, real3 g3, real volume, uint model, real mu, real lame,
                               real volumeStiffness, real dt, real lambdaDeviatoric, real lambdaHydrostatic) {
    real3x3 F = tetDeformation(x0, x1, x2, x3, g1, g2, g3);
    TetPairCorrection e = solveTetPair(g1, g2, g3, w0, w1, w2, w3, tetDeviatoric(F, volume, model, mu),
                                       tetHydrostatic(F, volume, lame), dt, lambdaDeviatoric,
                                       lambdaHydrostatic);
    x0 += e.dp0;
    x1 += e.dp1;
    x2 += e.dp2;
    x3 += e.dp3;
    if (volumeStiffness >= real(0)) {
        TetCorrection v = solveTetVolume(tetDeformation(x0, x1, x2, x3, g1, g2, g3), g1, g2, g3, w0, w1, w2, w3,
                                         volume, volumeStiffness);
        x0 += v.dp0;
        x1 += v.dp1;
        x2 += v.dp2;
        x3 += v.dp3;
    }
    return TetProjection(x0, x1, x2, x3, lambdaDeviatoric + e.dLambdaDeviatoric,
                         lambdaHydrostatic + e.dLambdaHydrostatic);
}

// The tetrahedron's elastic energy V Psi(F) [J] (the XPBD objective's term,
// up to the constant above for Neo-Hookean).
real tetElasticEnergy(real3 x0, real3 x1, real3 x2, real3 x3, real3 g1, real3 g2, real3 g3, real volume, uint model,
                      real mu, real lame) {
    return volume * elasticEnergyDensity(model, tetDeformation(x0, x1, x2, x3, g1, g2, g3), mu, lame);
}

#endif
