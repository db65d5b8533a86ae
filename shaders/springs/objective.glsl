// Particle i's share of the implicit Euler objective (docs/physics.md §9.3)
//   F(x) = sum_i m_i/(2h^2)|x_i - y_i|^2 + sigma_i/(2h)|x_i - x0_i|^2
//        + sum_springs E_s + 1/2 sum_ij Q_ij x_i . x_j
// (inertia and drag for free particles; half of each incident spring's
// energy; its row of the quadratic form), and its gradient g_i (zero for a
// pinned particle). Shared by the energy pass and the line search. Every
// position is relative to the solver's origin (springs/relative.glsl): F is
// the same as from the world origin. The including pass declares pc
// (MsImplicitPush), start[] (x^0, w = inverse mass), velocities[] (predict's
// u), includes springs/gather.glsl and springs/relative.glsl and defines
// elementPosition.
#ifndef VKSIM_SPRINGS_OBJECTIVE_GLSL
#define VKSIM_SPRINGS_OBJECTIVE_GLSL

float objectiveTerm(uint r, vec3 xi) {
    uint i = pc.firstParticle + r;
    MsParticle particle = msParticles[r];
    float inverseMass = start[i].w;
    float h = pc.dt;
    float term = 0.0;
    if (inverseMass > 0.0) {
        vec3 d = xi - relativeInertiaTarget(i);
        vec3 e = xi - relativeStart(i);
        term = 0.5 * dot(d, d) / (inverseMass * h * h) + 0.5 * particle.drag / h * dot(e, e);
    }
    // Half of each incident spring (the other half is its other end's),
    // and this particle's row of 1/2 x^T Q x.
    return term + 0.5 * springSums(i, particle, xi).energy - 0.5 * dot(xi, quadraticForce(i, particle, xi));
}

vec3 objectiveGradient(uint r, vec3 xi) {
    uint i = pc.firstParticle + r;
    MsParticle particle = msParticles[r];
    float inverseMass = start[i].w;
    if (inverseMass <= 0.0) return vec3(0.0);
    float h = pc.dt;
    return (xi - relativeInertiaTarget(i)) / (inverseMass * h * h) + particle.drag / h * (xi - relativeStart(i)) -
           conservativeForce(i, particle, xi);
}

#endif
