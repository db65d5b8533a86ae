// The push constants of the wind passes (particle/wind_air.comp,
// wind_triangles.comp, wind_forces.comp, wind_clock.comp; docs/physics.md §15),
// shared by GLSL and C++.
#ifndef VKSIM_WIND_TYPES_H
#define VKSIM_WIND_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

struct WindPush {
    vec4 wind;           // xyz: the mean wind U [m/s]; w: the air density rho [kg/m^3]
    float gustStrength;  // [m/s]: the gusts' amplitude per component
    float gustScale;     // [m]: the gusts' lattice spacing in space
    float gustPeriod;    // [s]: the gusts' lattice spacing in time
    uint gustSeed;
    float dt;            // h: the substep's length
    uint substep;        // within the frame: time = (clock + substep) h
    uint substeps;       // per frame: what the clock pass adds
    uint particleCount;  // every particle of the world
    uint triangleCount;  // every triangle of the world
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(WindPush, 64);

// The wind field drawn (render/wind_lines.comp): per particle a line from
// x along the air's velocity, `seconds` of flight long.
struct WindLinesPush {
    uint particleCount;
    float seconds;
    uint pad0, pad1;
};
GPU_CHECK_SIZE(WindLinesPush, 16);

GPU_NAMESPACE_END

#endif
