// Which entries [x, y) of a dispatch's `count` constraints invocation `t`
// projects (docs/physics.md §1): in a colour (serial false) entry t alone,
// no two of them sharing a particle; in an overflow group (serial true) all
// of them, in order, by invocation 0, exactly the serial Gauss-Seidel sweep
// of the CPU reference (its own earlier writes are visible to it: one
// invocation's accesses to a location are in program order). The callers
// loop over the share, so that a projection is compiled once for both
// cases: a CPU driver would run a second copy under an empty mask
// (math/sdf.glsl).
#ifndef VKSIM_INVOCATION_SHARE_GLSL
#define VKSIM_INVOCATION_SHARE_GLSL

uvec2 invocationShare(uint t, uint count, bool serial) {
    if (serial) return t == 0u ? uvec2(0u, count) : uvec2(count, count);
    return uvec2(t, min(count, t + 1u));
}

#endif
