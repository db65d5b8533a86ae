#version 460
// docs/physics.md §15: every triangle's aerodynamic drag and lift, once per
// substep, for the per-particle gather that follows
// (particle/wind_forces.comp). Its relative air velocity is the mean of its
// vertices' air velocity (particle/wind_air.comp) less the mean of their
// velocity; its coefficients those of its object (all three vertices'); a
// triangle of an object without "aero" gets no force.
#include "shared/kernel.glsl"
#include "particle/wind_types.h"
#include "particle/wind_math.glsl"

layout(push_constant) uniform Push { WindPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Aero { vec4 aero[]; };
layout(std430, binding = 3) readonly buffer Air { vec4 air[]; };
layout(std430, binding = 4) readonly buffer Triangles { uint triangleIndices[]; };
layout(std430, binding = 5) writeonly buffer TriangleForces { vec4 triangleForces[]; };

void main() {
    uint t = gl_GlobalInvocationID.x;
    if (t >= pc.triangleCount) return;
    uint a = triangleIndices[3 * t], b = triangleIndices[3 * t + 1], c = triangleIndices[3 * t + 2];
    vec4 coefficients = aero[a];
    if (coefficients.x <= 0.0 && coefficients.y <= 0.0) {
        triangleForces[t] = vec4(0.0);
        return;
    }
    vec3 xa = positions[a].xyz;
    vec3 normal = cross(positions[b].xyz - xa, positions[c].xyz - xa);
    vec3 u = (air[a].xyz + air[b].xyz + air[c].xyz) / 3.0;
    vec3 v = (velocities[a].xyz + velocities[b].xyz + velocities[c].xyz) / 3.0;
    triangleForces[t] = vec4(windTriangleForce(normal, u - v, pc.wind.w, coefficients.x, coefficients.y), 0.0);
}
