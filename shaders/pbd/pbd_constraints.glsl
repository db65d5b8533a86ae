// Constraint projections of position based dynamics (docs/physics.md §1). Stateless:
// each takes positions, inverse masses and the constraint's data and returns
// the corrections. Shared math: see math/real_glsl.h for the rules.
#ifndef VKSIM_PBD_CONSTRAINTS_GLSL
#define VKSIM_PBD_CONSTRAINTS_GLSL

// The multiplier step shared by every constraint, for dp_i = w_i grad_i C * dLambda.
//   PBD  (Mueller et al. 2007): dLambda = -k' C / sum_k w_k |grad_k C|^2,
//        k' = 1 - (1 - k)^(1/n_s) so n_s iterations leave (1-k) of the error
//        (pbdIterationStiffness; the caller passes k', computed once per
//        material, ConstraintMaterial::iterationStiffness).
//   XPBD (Macklin et al. 2016): dLambda = (-C - alpha~ lambda) / (sum_k w_k |grad_k C|^2 + alpha~),
//        alpha~ = alpha / h^2.
// PBD's per-iteration stiffness k' = 1 - (1 - k)^(1/n_s): n_s iterations
// with k' leave (1 - k) of an error that each removes a fraction of.
real pbdIterationStiffness(real stiffness, uint iterations) {
    return real(1) - pow(real(1) - stiffness, real(1) / real(iterations));
}

real constraintDeltaLambda(uint mode, real iterationStiffness, real compliance, real dt, real C,
                           real weightedGradSq, real lambda) {
    if (mode == kModeXpbd) {
        real alphaTilde = compliance / (dt * dt);
        real denominator = weightedGradSq + alphaTilde;
        if (denominator <= real(0)) return real(0);
        return (-C - alphaTilde * lambda) / denominator;
    }
    if (weightedGradSq <= real(0)) return real(0);
    return -iterationStiffness * C / weightedGradSq;
}

struct PairCorrection {
    real3 dp0;
    real3 dp1;
    real dLambda;
};

// Distance: C = |p0 - p1| - d, grad_0 C = n, grad_1 C = -n, n = (p0-p1)/|p0-p1|.
// A torn constraint (docs/physics.md §1, "Tearing") holds -d: it moves nothing.
PairCorrection solveDistance(real3 p0, real w0, real3 p1, real w1, real restLength, uint mode,
                             real iterationStiffness, real compliance, real dt, real lambda) {
    real3 d = p0 - p1;
    real len = length(d);
    if (len <= real(1e-12) || restLength < real(0)) return PairCorrection(real3(0), real3(0), real(0));
    real3 n = d / len;
    real dLambda = constraintDeltaLambda(mode, iterationStiffness, compliance, dt, len - restLength, w0 + w1,
                                         lambda);
    return PairCorrection(w0 * dLambda * n, -w1 * dLambda * n, dLambda);
}

struct QuadCorrection {
    real3 dp0;
    real3 dp1;
    real3 dp2;
    real3 dp3;
    real dLambda;
};

// Isometric bending (Bergou et al. 2006; as a PBD constraint, Bender et al.
// 2014): e = sum_i K_i p_i (zero on the flat rest shape),
// C = 1/2 scale |e|^2, grad_i C = scale K_i e. C is quadratic, so each
// projection at k'=1 halves e; dp stays proportional to e, with no
// singularity as the cloth flattens.
real3 isometricBendingVector(real3 p0, real3 p1, real3 p2, real3 p3, real4 K) {
    return K.x * p0 + K.y * p1 + K.z * p2 + K.w * p3;
}

QuadCorrection solveIsometricBending(real3 p0, real w0, real3 p1, real w1, real3 p2, real w2,
                                     real3 p3, real w3, real4 K, real scale, uint mode,
                                     real iterationStiffness, real compliance, real dt, real lambda) {
    // A torn hinge (docs/physics.md §1, "Tearing") holds -scale: it moves nothing.
    if (scale < real(0)) return QuadCorrection(real3(0), real3(0), real3(0), real3(0), real(0));
    real3 e = isometricBendingVector(p0, p1, p2, p3, K);
    real e2 = dot(e, e);
    real C = real(0.5) * scale * e2;
    real weightedGradSq = scale * scale * e2 *
                          (w0 * K.x * K.x + w1 * K.y * K.y + w2 * K.z * K.z + w3 * K.w * K.w);
    if (weightedGradSq <= real(1e-30)) return QuadCorrection(real3(0), real3(0), real3(0), real3(0), real(0));
    real dLambda = constraintDeltaLambda(mode, iterationStiffness, compliance, dt, C, weightedGradSq, lambda);
    real3 g = scale * dLambda * e;
    return QuadCorrection(w0 * K.x * g, w1 * K.y * g, w2 * K.z * g, w3 * K.w * g, dLambda);
}

// Tearing (docs/physics.md §1, "Tearing"): whether a stretch constraint of
// rest length d between p0 and p1 breaks at strain threshold s > 0, that is
// whether |p0 - p1| > (1 + s) d.
bool distanceTears(real3 p0, real3 p1, real restLength, real strain) {
    return length(p0 - p1) > (real(1) + strain) * restLength;
}

struct PointCorrection {
    real3 dp;
    real dLambda;
};

// Attachment of length L: C = |p - target| - L, grad C = (p - target)/|p - target|.
// L = 0 is a (soft) pin, an equality; L > 0 is a tether (docs/physics.md §1,
// "Tethers"), one-sided: projected only while |p - target| > L, C <= 0
// leaving p (and an XPBD multiplier) as it is. With L = 0, len - L is len's
// bits, so a pin projects as it did before tethers shared its family.
PointCorrection solveAttachment(real3 p, real w, real3 target, real attachmentLength, uint mode,
                                real iterationStiffness, real compliance, real dt, real lambda) {
    real3 d = p - target;
    real len = length(d);
    if (len <= real(1e-12)) return PointCorrection(real3(0), real(0));
    real C = len - attachmentLength;
    if (attachmentLength > real(0) && C <= real(0)) return PointCorrection(real3(0), real(0));
    real dLambda = constraintDeltaLambda(mode, iterationStiffness, compliance, dt, C, w, lambda);
    return PointCorrection(w * dLambda * d / len, dLambda);
}

#endif
