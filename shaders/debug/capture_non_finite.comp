#version 460
// Recorded right after a check_finite.comp dispatch (with a barrier between):
// if that check failed, copies its lowest non-finite element into the result,
// so a report shows the value the pass wrote rather than what later passes
// made of it. One thread; used by the per-pass replay only.
#extension GL_GOOGLE_include_directive : require
#include "shared/finite_check_types.h"
layout(local_size_x = 1) in;

layout(push_constant) uniform Push { FiniteCheckPush pc; };
layout(std430, binding = 0) readonly buffer First { vec4 first[]; };
layout(std430, binding = 1) readonly buffer Second { vec4 second[]; };
layout(std430, binding = 2) buffer Result { FiniteCheckResult result; };

void main() {
    if (result.firstBadCheck != pc.check) return;
    uint i = result.firstBadIndex;
    result.firstBadValue = i < pc.elementCount ? first[i] : second[i - pc.elementCount];
}
