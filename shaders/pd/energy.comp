#version 460
// Energy tracking, first pass for projective dynamics: the objective the
// local/global iteration of one substep minimises (docs/physics.md §5), at the shape
// q the local passes just projected:
//
//   g(q) = sum_i m_i/(2 h^2) |q_i - s_i|^2              inertia, free particles
//        + sum_e w_e/2 |A_e S_e q - B_e p_e|^2           elements (slot w, pd_types.h)
//        + sum_i w_c,i/2 |q_i - t_i|^2                   active collision projections
//
// with s = x + h v (as the Jacobi pass forms it), w_c,i = collisionWeight
// m_i/h^2 and t_i the collision target of the local collision pass. The
// mouse attachment of a dragged particle is not part of it. Thread t < count
// adds particle t's terms, thread count + k slot k's energy; summed per
// workgroup in a fixed tree order into partials[group]
// (reduce/sum_partials.comp adds the groups) [J].
#include "shared/kernel.glsl"
#include "pd/pd_types.h"

layout(push_constant) uniform Push { PdEnergyPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Rows { PdRow rows[]; };
layout(std430, binding = 3) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 4) readonly buffer Contributions { vec4 contributions[]; };
layout(std430, binding = 5) readonly buffer CollisionTargets { vec4 collisionTargets[]; };
layout(std430, binding = 6) writeonly buffer Partials { float partials[]; };

#include "reduce/workgroup_sum.glsl"

void main() {
    uint t = gl_GlobalInvocationID.x;
    float term = 0.0;
    if (t < pc.particleCount) {
        uint i = pc.firstParticle + t;
        float mass = rows[t].mass;
        if (mass != 0.0) {
            vec3 q = current[i].xyz;
            vec3 s = (positions[i].xyz - vec3(pc.originX, pc.originY, pc.originZ)) + pc.dt * velocities[i].xyz;
            vec3 d = q - s;
            float massOverH2 = mass / (pc.dt * pc.dt);
            term = 0.5 * massOverH2 * dot(d, d);
            vec4 target = collisionTargets[i];
            if (target.w > 0.0) {
                vec3 c = q - target.xyz;
                term += 0.5 * pc.collisionWeight * massOverH2 * dot(c, c);
            }
        }
    } else if (t < pc.particleCount + pc.slotCount) {
        term = contributions[t - pc.particleCount].w;
    }
    uint l = gl_LocalInvocationID.x;
    float total = workgroupSum(term);
    if (l == 0) partials[gl_WorkGroupID.x] = total;
}
