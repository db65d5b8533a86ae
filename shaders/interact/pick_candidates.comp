#version 460
// Picking, first pass: thread t tests triangle t against the ray
// (Moeller-Trumbore, two-sided) and particle t against a cylinder of radius
// pc.radius around it; each workgroup keeps its lexicographically smallest
// (key, index) pair of each kind (shared_types: PickCandidates), reduced in
// shared memory. A minimum is order-independent, so the result is
// deterministic; no atomics.
#include "shared/kernel.glsl"
#include "shared/interaction_types.h"
#include "math/ray_triangle.glsl"

layout(push_constant) uniform Push { PickPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = 2) writeonly buffer Partials { PickCandidates partials[]; };

shared uvec4 best[kWorkgroupSize];

bool less(uvec2 a, uvec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

void main() {
    uint t = gl_GlobalInvocationID.x;
    vec3 o = pc.origin.xyz, d = pc.direction.xyz;
    uvec4 candidate = uvec4(kNoKey, kNoParticle, kNoKey, kNoParticle);
    if (t < pc.triangleCount) {
        vec3 a = positions[triangles[3 * t]].xyz;
        vec3 b = positions[triangles[3 * t + 1]].xyz;
        vec3 c = positions[triangles[3 * t + 2]].xyz;
        float hit = rayTriangleHit(o, d, a, b, c);
        if (hit > 0.0) candidate.xy = uvec2(floatBitsToUint(hit), t);
    }
    if (t < pc.particleCount) {
        vec3 r = positions[t].xyz - o;
        float along = dot(r, d);
        float distance = length(r - along * d);
        if (along > 0.0 && distance <= pc.radius) candidate.zw = uvec2(floatBitsToUint(distance), t);
    }
    uint l = gl_LocalInvocationID.x;
    best[l] = candidate;
    barrier();
    for (uint stride = kWorkgroupSize / 2; stride > 0; stride /= 2) {
        if (l < stride) {
            uvec4 mine = best[l], other = best[l + stride];
            if (less(other.xy, mine.xy)) mine.xy = other.xy;
            if (less(other.zw, mine.zw)) mine.zw = other.zw;
            best[l] = mine;
        }
        barrier();
    }
    if (l == 0) {
        uvec4 b = best[0];
        partials[gl_WorkGroupID.x] = PickCandidates(b.x, b.y, b.z, b.w);
    }
}
