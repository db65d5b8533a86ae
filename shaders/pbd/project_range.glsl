// The entry point of the constraint projection shaders: each defines
// `void project(uint j)`, the projection of constraint j, and the push
// constant block `pc` (ProjectPush) before including this. A colour
// (pc.serial == 0) or the overflow group (pc.serial == 1): which entries
// this invocation projects is pbd/invocation_share.glsl's.
#include "pbd/invocation_share.glsl"

void main() {
    uvec2 share = invocationShare(gl_GlobalInvocationID.x, pc.count, pc.serial != 0u);
    for (uint k = share.x; k < share.y; ++k) project(pc.first + k);
}
