#version 460
// Checks one or two vec4 state buffers for NaN, Inf and diverged values
// (|component| >= 2^60, finite_check_types.h): one thread per element
// of the concatenation [first; second]. Only integer atomics touch the result,
// so it is the same whatever order the threads run in: the lowest non-finite
// index, how many there are, and which check (in recording order) saw them.
#extension GL_GOOGLE_include_directive : require
#include "shared/finite_check_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { FiniteCheckPush pc; };
layout(std430, binding = 0) readonly buffer First { vec4 first[]; };
layout(std430, binding = 1) readonly buffer Second { vec4 second[]; };
layout(std430, binding = 2) buffer Result { FiniteCheckResult result; };

// Exponent bits all ones = Inf or NaN; at least kDivergedExponentBits = a
// magnitude of 2^60 or more, a diverged value (finite_check_types.h). A bit
// test rather than isnan/isinf, which a compiler assuming finite math may
// fold to false.
bool nonFinite(vec3 v) {
    uvec3 exponent = floatBitsToUint(v) & 0x7F800000u;
    return any(greaterThanEqual(exponent, uvec3(kDivergedExponentBits)));
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.bufferCount * pc.elementCount) return;
    vec3 v = i < pc.elementCount ? first[i].xyz : second[i - pc.elementCount].xyz;
    if (!nonFinite(v)) return;
    // An earlier check (a lower number) already failed: the result is about
    // that one. Threads of this check all write the same number, so reading it
    // back through the atomic cannot make one of them skip.
    if (atomicMin(result.firstBadCheck, pc.check) < pc.check) return;
    atomicMin(result.firstBadIndex, i);
    atomicAdd(result.badCount, 1u);
}
