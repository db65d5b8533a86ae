#version 460
// docs/physics.md §15: every particle's acceleration from the wind, read by
// the predict stage (and the mass-spring force pass) as an external
// acceleration: a third of the force of each triangle around it
// (particle/wind_triangles.comp), over its mass. Gathered per particle over
// its triangles in the order of the vertex -> triangle adjacency, never with
// atomics, so the sum is the same bits on any device and thread count. A
// particle split from a vertex by PBD tearing reads that vertex's row
// (adjacencyRows) and, like every particle, takes the triangles that hold
// it now: each triangle's force goes to its three corners of the moment.
#include "shared/kernel.glsl"
#include "particle/wind_types.h"

layout(push_constant) uniform Push { WindPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };  // w: 1/m
layout(std430, binding = 1) readonly buffer TriangleForces { vec4 triangleForces[]; };
layout(std430, binding = 2) readonly buffer AdjacencyOffsets { uint adjacencyOffsets[]; };  // particleCount + 1
layout(std430, binding = 3) readonly buffer AdjacentTriangles { uint adjacentTriangles[]; };
layout(std430, binding = 4) readonly buffer AdjacencyRows { uint adjacencyRows[]; };
layout(std430, binding = 5) readonly buffer Triangles { uint triangleIndices[]; };
layout(std430, binding = 6) writeonly buffer WindAccelerations { vec4 windAccelerations[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.particleCount) return;
    float inverseMass = positions[i].w;
    vec3 force = vec3(0.0);
    if (inverseMass > 0.0) {
        uint row = adjacencyRows[i];
        for (uint k = adjacencyOffsets[row]; k < adjacencyOffsets[row + 1]; ++k) {
            uint t = adjacentTriangles[k];
            uvec3 corners = uvec3(triangleIndices[3 * t], triangleIndices[3 * t + 1], triangleIndices[3 * t + 2]);
            if (all(notEqual(corners, uvec3(i)))) continue;  // moved to a particle split from this one
            force += triangleForces[t].xyz;
        }
    }
    windAccelerations[i] = vec4(inverseMass * force / 3.0, 0.0);
}
