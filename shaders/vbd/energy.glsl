// Energy tracking of the VBD solids (docs/physics.md §16): per particle i of
// the range at the iterate x, its share of the implicit Euler objective
//   G(x) = sum_i m_i/(2h^2)|x_i - y_i|^2 + sum_e V_e Psi(F_e)
// (its inertia term and collider penalty if free, a quarter of each
// incident tet's energy; in energy_contacts.comp also half of each of its
// touching pairs' contact energy, springs/contact_energy.glsl, as
// vbd_colour_contacts.comp adds it; not the colliders' friction, a lagged
// force and no energy of x: vbd/vbd_collider.glsl),
// summed per workgroup in a fixed tree order into partials[group]
// (reduce/sum_partials.comp adds the groups).
#include "shared/kernel.glsl"
#include "vbd/vbd_types.h"

layout(push_constant) uniform Push { VbdPush pc; };
layout(std430, binding = 0) readonly buffer Inertia { vec4 inertia[]; };  // y, w = inverse mass
layout(std430, binding = 1) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 2) writeonly buffer Partials { float partials[]; };

#define VBD_TOPOLOGY_BINDING 3
#include "vbd/gather.glsl"

vec3 elementPosition(uint j) { return current[j].xyz; }

#ifdef VBD_CONTACTS
layout(std430, binding = 7) readonly buffer Start { vec4 start[]; };  // x^0, w = inverse mass
vec3 contactPartner(uint j) { return current[j].xyz; }
#define MS_CONTACTS_BINDING 8
#include "springs/contact_energy.glsl"
#define VBD_PLANES_BINDING 13
#else
#define VBD_PLANES_BINDING 7
#endif
// Per particle of the range (vbd_collider_planes.comp).
layout(std430, binding = VBD_PLANES_BINDING) readonly buffer ColliderPlanes { vec4 colliderPlanes[]; };
#include "math/coulomb_friction.glsl"
#include "vbd/vbd_collider.glsl"

#include "reduce/workgroup_sum.glsl"

float particleTerm(uint r) {
    uint i = pc.firstParticle + r;
    vec3 xi = current[i].xyz;
    float inverseMass = inertia[i].w;
    float term = 0.25 * vertexElasticTerms(r, i, xi).energy;
#ifdef VBD_CONTACTS
    term += 0.5 * contactEnergy(i, xi).energy;  // the other half is the pair's other end's
#endif
    if (inverseMass > 0.0) {
        vec3 d = xi - inertia[i].xyz;
        term += 0.5 * dot(d, d) / (inverseMass * pc.dt * pc.dt);
        term += vbdColliderTerms(colliderPlanes[r], xi, kVbdColliderWeight / (inverseMass * pc.dt * pc.dt)).energy;
    }
    return term;
}

void main() {
    uint t = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    float total = workgroupSum(t < pc.particleCount ? particleTerm(t) : 0.0);
    if (l == 0) partials[gl_WorkGroupID.x] = total;
}
