#version 460
// docs/physics.md §15: every particle's acceleration from the wind, read by
// the predict stage (and the mass-spring force pass) as an external
// acceleration: a third of the drag and lift of each triangle around it,
// over its mass. Gathered per particle over its triangles in the order of
// the vertex -> triangle adjacency, never with atomics, so the sum is the
// same bits on any device and thread count. Each triangle's relative air
// velocity is the mean of its vertices' air velocity less their velocity.
#include "shared/kernel.glsl"
#include "particle/wind_types.h"
#include "particle/wind_math.glsl"

layout(push_constant) uniform Push { WindPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };  // w: 1/m
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Aero { vec4 aero[]; };
layout(std430, binding = 3) readonly buffer Air { vec4 air[]; };
layout(std430, binding = 4) readonly buffer Triangles { uint triangleIndices[]; };
layout(std430, binding = 5) readonly buffer AdjacencyOffsets { uint adjacencyOffsets[]; };  // particleCount + 1
layout(std430, binding = 6) readonly buffer AdjacentTriangles { uint adjacentTriangles[]; };
layout(std430, binding = 7) writeonly buffer WindAccelerations { vec4 windAccelerations[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.particleCount) return;
    vec4 coefficients = aero[i];
    float inverseMass = positions[i].w;
    vec3 force = vec3(0.0);
    if (inverseMass > 0.0 && (coefficients.x > 0.0 || coefficients.y > 0.0)) {
        for (uint k = adjacencyOffsets[i]; k < adjacencyOffsets[i + 1]; ++k) {
            uint t = adjacentTriangles[k];
            uint a = triangleIndices[3 * t], b = triangleIndices[3 * t + 1], c = triangleIndices[3 * t + 2];
            vec3 xa = positions[a].xyz;
            vec3 normal = cross(positions[b].xyz - xa, positions[c].xyz - xa);
            vec3 u = (air[a].xyz + air[b].xyz + air[c].xyz) / 3.0;
            vec3 v = (velocities[a].xyz + velocities[b].xyz + velocities[c].xyz) / 3.0;
            force += windTriangleForce(normal, u - v, pc.wind.w, coefficients.x, coefficients.y);
        }
    }
    windAccelerations[i] = vec4(inverseMass * force / 3.0, 0.0);
}
