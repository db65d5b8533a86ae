// The tethers and attachments drawn (engine/render/anchor_lines.h): per
// line, a particle and the fixed point it is held to or towards, shared by
// GLSL and C++.
#ifndef VKSIM_ANCHOR_LINE_TYPES_H
#define VKSIM_ANCHOR_LINE_TYPES_H
#include "shaders/shared/sim_types.h"

GPU_NAMESPACE_BEGIN

// A particle held to `anchor`: within `anchor.w` of it (a tether, w > 0) or
// at it (a pin as an attachment, w = 0).
struct AnchorLine {
    vec4 anchor;  // xyz [m], world frame; w: the most the particle may be from it [m]
    uint particle;
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(AnchorLine, 32);

struct AnchorLinesPush {
    uint lineCount;
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(AnchorLinesPush, 16);

GPU_NAMESPACE_END

#endif
