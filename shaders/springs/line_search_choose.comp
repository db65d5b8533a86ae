#version 460
// Newton's backtracking line search, second pass, one workgroup (docs/
// physics.md §9.7): sums each value's per-workgroup partials of
// springs/line_search.comp in a fixed order (thread l adds groups l, l + 64,
// ..., then a tree adds the 64), then takes the largest candidate alpha_c =
// 2^-c with F(x + alpha_c dx) <= F(x) + c_Armijo alpha_c slope + tol |F(x)|,
// or 0 if none passes, into choice[0] for springs/newton_update.comp.
// choice[1 ...] keeps F(x) and the slope, for inspection.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Partials { float partials[]; };
layout(std430, binding = 1) writeonly buffer Choice { float choice[]; };

#include "reduce/workgroup_sum.glsl"

shared float totals[kLineSearchValues];

void main() {
    uint l = gl_LocalInvocationID.x;
    uint groups = (pc.particleCount + kWorkgroupSize - 1) / kWorkgroupSize;
    for (uint v = 0; v < kLineSearchValues; ++v) {
        float sum = 0.0;
        for (uint g = l; g < groups; g += kWorkgroupSize) sum += partials[v * groups + g];
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
    choice[0] = chosen;
    choice[1] = objective;
    choice[2] = slope;
}
