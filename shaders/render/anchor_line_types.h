// The tethers and attachments drawn (engine/render/anchor_lines.h): per
// line, a particle and the fixed point it is held to or towards, shared by
// GLSL and C++.
#ifndef VKSIM_ANCHOR_LINE_TYPES_H
#define VKSIM_ANCHOR_LINE_TYPES_H
#include "shaders/shared/sim_types.h"

GPU_NAMESPACE_BEGIN

GPU_CONST(uint, kAnchorInWorld, 0xFFFFFFFFu);

// A particle held to `anchor`: within `anchor.w` of it (a tether or a
// motion constraint, w > 0) or at it (an attachment, w = 0). The anchor is
// a point of the world, or of a collider row's frame (an attachment to a
// body or a collider), placed by the row's current pose.
struct AnchorLine {
    vec4 anchor;  // xyz [m]: in the world, or in the row's frame; w: the most the particle may be from it [m]
    uint particle;
    uint collider;  // the collider set's row whose frame holds the anchor, or kAnchorInWorld
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
