// One tetrahedron's share of a vertex block descent step (docs/physics.md
// §16, "Vertex block descent"): its elastic energy V Psi(F), and the
// gradient V P(F) g and 3x3 Hessian block V d^2Psi/dx_i^2 with respect to
// one of its vertices. The VBD passes and the CPU reference (vbd_reference.h)
// both call it: shared math (math/real_glsl.h rules), after
// math/svd3.glsl and math/elastic_energy.glsl.
#ifndef VKSIM_VBD_MATH_GLSL
#define VKSIM_VBD_MATH_GLSL

struct VbdTetTerms {
    real energy;        // V Psi(F) [J]
    real3 gradient;     // V P g_role [N]
    real3x3 hessian;    // V d^2 Psi / dx_role^2, positive semi-definite [N/m]
};

// The row g of vertex `role` (0..3) of Dm^-1.
real3 tetVertexRow(uint role, real3 g1, real3 g2, real3 g3) {
    if (role == 1u) return g1;
    if (role == 2u) return g2;
    if (role == 3u) return g3;
    return -(g1 + g2 + g3);
}

VbdTetTerms tetVertexTerms(uint model, real3x3 F, real3 g, real volume, real mu, real lambda) {
    real3 gradient = volume * (elasticStress(model, F, mu, lambda) * g);
    real3x3 hessian = volume * elasticVertexHessian(model, F, g, mu, lambda);
    return VbdTetTerms(volume * elasticEnergyDensity(model, F, mu, lambda), gradient, hessian);
}

#endif
