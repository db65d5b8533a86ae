#version 460
// Vertex normals for rendering: area-weighted sum of the normals of the
// triangles around each vertex, gathered per vertex (no atomics, so the
// result is deterministic) from a CSR vertex -> triangle adjacency. A
// particle split from a vertex by PBD tearing reads that vertex's row
// (adjacencyRows) and, like every particle, keeps the triangles that hold it.
#include "shared/kernel.glsl"

layout(push_constant) uniform Push { NormalsPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Triangles { uint triangleIndices[]; };
layout(std430, binding = 2) readonly buffer AdjacencyOffsets { uint adjacencyOffsets[]; };  // vertexCount + 1
layout(std430, binding = 3) readonly buffer AdjacentTriangles { uint adjacentTriangles[]; };
layout(std430, binding = 4) readonly buffer AdjacencyRows { uint adjacencyRows[]; };
layout(std430, binding = 5) writeonly buffer Normals { vec4 normals[]; };

void main() {
    uint v = gl_GlobalInvocationID.x;
    if (v >= pc.vertexCount) return;
    vec3 n = vec3(0);
    uint row = adjacencyRows[v];
    for (uint k = adjacencyOffsets[row]; k < adjacencyOffsets[row + 1]; ++k) {
        uint t = adjacentTriangles[k];
        uvec3 corners = uvec3(triangleIndices[3 * t], triangleIndices[3 * t + 1], triangleIndices[3 * t + 2]);
        if (all(notEqual(corners, uvec3(v)))) continue;  // moved to a particle split from v
        vec3 a = positions[corners.x].xyz;
        vec3 b = positions[corners.y].xyz;
        vec3 c = positions[corners.z].xyz;
        n += cross(b - a, c - a);
    }
    float len = length(n);
    normals[v] = vec4(len > 0.0 ? n / len : vec3(0, 1, 0), 0.0);
}
