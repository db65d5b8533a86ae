#version 460
// docs/physics.md §15: the air's velocity at every particle that feels the
// wind (a drag or lift coefficient above 0), at the substep's start time
// (clock + substep) h: the mean wind plus the seeded gusts.
#include "shared/kernel.glsl"
#include "particle/wind_types.h"
#include "particle/wind_math.glsl"

layout(push_constant) uniform Push { WindPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Aero { vec4 aero[]; };  // x: C_d, y: C_l of the particle's object
layout(std430, binding = 2) readonly buffer Clock { uint clock[]; };  // substeps run before this frame
layout(std430, binding = 3) writeonly buffer Air { vec4 air[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.particleCount) return;
    vec4 coefficients = aero[i];
    if (coefficients.x <= 0.0 && coefficients.y <= 0.0) return;
    float t = float(clock[0] + pc.substep) * pc.dt;
    vec3 u = windAirVelocity(positions[i].xyz, t, pc.wind.xyz, pc.gustStrength, pc.gustScale, pc.gustPeriod,
                             pc.gustSeed);
    air[i] = vec4(u, 0.0);
}
