#version 460
// docs/physics.md §15: every particle's acceleration from the wind, read by
// the predict stage (and the mass-spring force pass) as an external
// acceleration: a third of the force of each triangle around it
// (particle/wind_triangles.comp), over its mass. Gathered per particle over
// its triangles in the order of the vertex -> triangle adjacency, never with
// atomics, so the sum is the same bits on any device and thread count.
#include "shared/kernel.glsl"
#include "particle/wind_types.h"

layout(push_constant) uniform Push { WindPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };  // w: 1/m
layout(std430, binding = 1) readonly buffer TriangleForces { vec4 triangleForces[]; };
layout(std430, binding = 2) readonly buffer AdjacencyOffsets { uint adjacencyOffsets[]; };  // particleCount + 1
layout(std430, binding = 3) readonly buffer AdjacentTriangles { uint adjacentTriangles[]; };
layout(std430, binding = 4) writeonly buffer WindAccelerations { vec4 windAccelerations[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.particleCount) return;
    float inverseMass = positions[i].w;
    vec3 force = vec3(0.0);
    if (inverseMass > 0.0)
        for (uint k = adjacencyOffsets[i]; k < adjacencyOffsets[i + 1]; ++k)
            force += triangleForces[adjacentTriangles[k]].xyz;
    windAccelerations[i] = vec4(inverseMass * force / 3.0, 0.0);
}
