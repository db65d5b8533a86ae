#version 460
// The global step in one workgroup (jacobi_in_workgroup.glsl) with 256
// invocations, for GPUs.
layout(local_size_x = 256) in;
#extension GL_GOOGLE_include_directive : require
#include "pd/jacobi_in_workgroup.glsl"
