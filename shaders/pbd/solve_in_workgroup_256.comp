#version 460
// The PBD workgroup solve (solve_in_workgroup.glsl) with 256 invocations
// per workgroup (GPUs).
layout(local_size_x = 256) in;
#extension GL_GOOGLE_include_directive : require
#include "pbd/solve_in_workgroup.glsl"
