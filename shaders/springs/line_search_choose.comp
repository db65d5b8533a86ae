#version 460
// Newton's backtracking line search, second pass, one workgroup per batch
// copy (docs/physics.md §9.7; a scene's world is one copy): workgroup g sums
// each value's per-workgroup partials of copy g (springs/line_search.comp,
// MsLineSearchCopy) in a fixed order (thread l adds the copy's groups l,
// l + 64, ..., then a tree adds the 64), the order of a world of the copy
// alone, then takes the largest candidate alpha_c = 2^-c with
// F(x + alpha_c dx) <= F(x) + c_Armijo alpha_c slope + tol |F(x)|, or 0 if
// none passes, into choice[4 g] for springs/newton_update.comp.
// choice[4 g + 1 ...] keeps the copy's F(x) and slope, for inspection.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsLineSearchChoosePush pc; };
layout(std430, binding = 0) readonly buffer Partials { float partials[]; };
layout(std430, binding = 1) readonly buffer Copies { MsLineSearchCopy lineSearchCopies[]; };
layout(std430, binding = 2) writeonly buffer Choice { float choice[]; };

#include "reduce/workgroup_sum.glsl"

shared float totals[kLineSearchValues];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint copy = gl_WorkGroupID.x;
    if (copy >= pc.copyCount) return;  // the whole workgroup, before any barrier
    uint first = lineSearchCopies[copy].firstPartial;
    uint groups = lineSearchCopies[copy].groupCount;
    for (uint v = 0; v < kLineSearchValues; ++v) {
        float sum = 0.0;
        for (uint g = l; g < groups; g += kWorkgroupSize) sum += partials[first + v * groups + g];
        float total = workgroupSum(sum);
        if (l == 0) totals[v] = total;
    }
    if (l != 0) return;
    float objective = totals[kLineSearchObjective];
    float slope = totals[kLineSearchSlope];
    float chosen = 0.0;
    float alpha = 1.0;
    for (uint c = 0; c < kLineSearchCandidates; ++c, alpha *= 0.5) {
        // A NaN candidate fails the test (every comparison with NaN is false).
        if (totals[c] <= objective + kLineSearchArmijo * alpha * slope + kLineSearchTolerance * abs(objective)) {
            chosen = alpha;
            break;
        }
    }
    choice[4u * copy] = chosen;
    choice[4u * copy + 1u] = objective;
    choice[4u * copy + 2u] = slope;
}
