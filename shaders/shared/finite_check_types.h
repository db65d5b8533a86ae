// What the NaN/Inf checks of simulation state (shaders/debug/*.comp) read and
// write, shared by GLSL and C++. One result buffer collects a sequence of
// checks numbered in recording order; the first check that sees a non-finite
// value owns the result, and later checks leave it alone, so the index, count
// and value all describe that one check.
#ifndef VKSIM_FINITE_CHECK_TYPES_H
#define VKSIM_FINITE_CHECK_TYPES_H
#include "gpu_compat.h"

GPU_NAMESPACE_BEGIN

// A component of magnitude 2^60 (~1.15e18) or more counts as non-finite too:
// no simulated position [m], velocity [m/s] or acceleration [m/s^2] gets
// there, and one step later the products of such values (|x|^2, cross
// products) overflow to Inf in whichever pass multiplies first (the
// normals, typically), which would then be blamed for a divergence that
// began in the integrator. As a float exponent field: (127 + 60) << 23.
GPU_CONST(uint, kDivergedExponentBits, 0x5D800000u);
GPU_CONST(float, kDivergedMagnitude, 1.152921504606846976e18f);  // 2^60

// firstBadCheck and firstBadIndex before anything failed (atomicMin lowers them).
GPU_CONST(uint, kNoFiniteCheck, 0xFFFFFFFFu);

struct FiniteCheckResult {
    uint firstBadCheck;  // number of the first check that saw a non-finite value, else kNoFiniteCheck
    uint firstBadIndex;  // its lowest non-finite element: i in the first buffer, elementCount + i in the second
    uint badCount;       // non-finite elements that check saw (both buffers)
    uint pad0;
    vec4 firstBadValue;  // that element as the check saw it (capture_non_finite.comp; replay only)
};
GPU_CHECK_SIZE(FiniteCheckResult, 32);

// Push constants of check_finite.comp and capture_non_finite.comp. A check
// covers one or two vec4 buffers of elementCount elements each; only xyz is
// checked (w of positions is the inverse mass, unused elsewhere).
struct FiniteCheckPush {
    uint elementCount;
    uint bufferCount;  // 1 or 2 (with 1, binding 1 repeats binding 0 and is not read)
    uint check;        // this check's number
    uint pad0;
};
GPU_CHECK_SIZE(FiniteCheckPush, 16);

GPU_NAMESPACE_END

#endif
