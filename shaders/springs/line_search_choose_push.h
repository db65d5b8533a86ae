// Push constants of Newton's line search choose pass
// (springs/line_search_choose.comp, docs/physics.md §9.7), shared by GLSL
// and C++: one workgroup per batch copy, each over its copy's partials
// (MsLineSearchCopy in spring_types.h).
#ifndef VKSIM_LINE_SEARCH_CHOOSE_PUSH_H
#define VKSIM_LINE_SEARCH_CHOOSE_PUSH_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

struct MsLineSearchChoosePush {
    uint copyCount;  // the workgroups: a scene's world has one copy
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(MsLineSearchChoosePush, 16);

GPU_NAMESPACE_END

#endif
