// The tethers projected after a solve (docs/physics.md §1, "Tethers"): those
// of the objects whose solver has no constraint loop to project them in
// (projective dynamics and mass-spring cloths; PBD's are attachment
// constraints), shared by GLSL and C++.
#ifndef VKSIM_TETHER_TYPES_H
#define VKSIM_TETHER_TYPES_H
#include "shaders/shared/sim_types.h"

GPU_NAMESPACE_BEGIN

// A free particle and the rest position of its nearest pin.
struct SolvedTether {
    vec4 anchor;    // xyz: the anchor [m], world frame; w: the tether's length (1 + slack) d [m]
    uint particle;  // global
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(SolvedTether, 32);

// One solver range's tethers, [first, first + count) of the list; the
// range's push for h and its origin.
struct TetherPush {
    ParticlePush particles;
    uint first;
    uint count;
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(TetherPush, 96);

GPU_NAMESPACE_END

#endif
