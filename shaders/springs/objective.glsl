// Particle i's share of the implicit Euler objective (docs/physics.md §9.3)
//   F(x) = sum_i m_i/(2h^2)|x_i - y_i|^2 + sigma_i/(2h)|x_i - x0_i|^2
//        + sum_springs E_s + 1/2 sum_ij Q_ij x_i . x_j
// (inertia and drag for free particles; half of each incident spring's
// energy; its row of the quadratic form), and its gradient g_i (zero for a
// pinned particle). Shared by the energy pass and the line search. The
// including pass declares pc (MsImplicitPush), start[] (x^0, w = inverse
// mass), inertia[] (y), includes springs/gather.glsl and defines
// elementPosition; with MS_CONTACTS_BINDING defined, F also holds the
// contact energy of the pairs within the range (springs/contact_energy.glsl,
// half of each pair per end), the other end read at elementPosition; with
// MS_LAGGED_FRICTION_BINDING also (Newton's line search) the pairs' lagged
// friction as the iteration's assembly lagged it, half per end. The energy
// tracking's F leaves the friction out: it is dissipative and its lag is
// the iteration's, not yet taken before the first.
// x and y are relative to the solver's origin
// (pc.origin*, docs/physics.md §9.2 "Far from the origin"), x^0 is not.
#ifndef VKSIM_SPRINGS_OBJECTIVE_GLSL
#define VKSIM_SPRINGS_OBJECTIVE_GLSL

#ifdef MS_CONTACTS_BINDING
vec3 contactPartner(uint j) { return elementPosition(j); }
#include "springs/contact_energy.glsl"
#endif

float objectiveTerm(uint r, vec3 xi) {
    uint i = pc.firstParticle + r;
    MsParticle particle = msParticles[r];
    float inverseMass = start[i].w;
    float h = pc.dt;
    float term = 0.0;
    if (inverseMass > 0.0) {
        vec3 d = xi - inertia[i].xyz;
        vec3 e = xi - (start[i].xyz - vec3(pc.originX, pc.originY, pc.originZ));
        term = 0.5 * dot(d, d) / (inverseMass * h * h) + 0.5 * particle.drag / h * dot(e, e);
    }
#ifdef MS_CONTACTS_BINDING
    term += 0.5 * contactEnergy(i, xi).energy;
#endif
#ifdef MS_LAGGED_FRICTION_BINDING
    term += 0.5 * laggedContactFriction(i, xi).energy;
#endif
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
    vec3 x0 = start[i].xyz - vec3(pc.originX, pc.originY, pc.originZ);
    vec3 gradient = (xi - inertia[i].xyz) / (inverseMass * h * h) + particle.drag / h * (xi - x0) -
                    conservativeForce(i, particle, xi);
#ifdef MS_CONTACTS_BINDING
    gradient += contactEnergy(i, xi).gradient;
#endif
#ifdef MS_LAGGED_FRICTION_BINDING
    gradient += laggedContactFriction(i, xi).gradient;
#endif
    return gradient;
}

#endif
