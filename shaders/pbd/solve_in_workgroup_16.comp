#version 460
// The PBD workgroup solve (solve_in_workgroup.glsl) with 16 invocations per
// workgroup, for CPU drivers: two SIMD vectors of lavapipe (docs/benchmarks-history.md
// says why not one).
layout(local_size_x = 16) in;
#extension GL_GOOGLE_include_directive : require
#include "pbd/solve_in_workgroup.glsl"
