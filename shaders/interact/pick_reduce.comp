#version 460
// Picking, second pass, one workgroup: the smallest (key, index) pairs over
// every workgroup's partial minimum (thread l strides over partials
// l, l + 64, ..., then a shared-memory tree), then the answer: the hit
// triangle's vertex closest to the hit point (lowest index on a tie), else
// the particle nearest the ray, else none.
#include "shared/kernel.glsl"
#include "shared/interaction_types.h"

layout(push_constant) uniform Push { PickPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Triangles { uint triangles[]; };
layout(std430, binding = 2) readonly buffer Partials { PickCandidates partials[]; };
layout(std430, binding = 3) writeonly buffer Result { PickResult result; };

shared uvec4 best[kWorkgroupSize];

bool less(uvec2 a, uvec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); }

void main() {
    uint l = gl_LocalInvocationID.x;
    uvec4 mine = uvec4(kNoKey, kNoParticle, kNoKey, kNoParticle);
    for (uint k = l; k < pc.partialCount; k += kWorkgroupSize) {
        PickCandidates c = partials[k];
        if (less(uvec2(c.triangleKey, c.triangle), mine.xy)) mine.xy = uvec2(c.triangleKey, c.triangle);
        if (less(uvec2(c.particleKey, c.particle), mine.zw)) mine.zw = uvec2(c.particleKey, c.particle);
    }
    best[l] = mine;
    barrier();
    for (uint stride = kWorkgroupSize / 2; stride > 0; stride /= 2) {
        if (l < stride) {
            uvec4 a = best[l], b = best[l + stride];
            if (less(b.xy, a.xy)) a.xy = b.xy;
            if (less(b.zw, a.zw)) a.zw = b.zw;
            best[l] = a;
        }
        barrier();
    }
    if (l != 0) return;
    uvec4 b = best[0];
    PickResult r = PickResult(kPickNone, kNoParticle, kNoParticle, 0.0, vec4(0.0));
    if (b.x != kNoKey) {
        float t = uintBitsToFloat(b.x);
        vec3 hit = pc.origin.xyz + t * pc.direction.xyz;
        uint closest = kNoParticle;
        float closestDistance = 0.0;
        for (uint k = 0; k < 3; ++k) {
            uint v = triangles[3 * b.y + k];
            float dist = distance(positions[v].xyz, hit);
            if (closest == kNoParticle || dist < closestDistance || (dist == closestDistance && v < closest)) {
                closest = v;
                closestDistance = dist;
            }
        }
        r = PickResult(kPickTriangle, closest, b.y, t, vec4(hit, 1.0));
    } else if (b.z != kNoKey) {
        r = PickResult(kPickParticle, b.w, kNoParticle, uintBitsToFloat(b.z), vec4(positions[b.w].xyz, 1.0));
    }
    result = r;
}
