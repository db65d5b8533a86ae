#version 460
// The global step in one workgroup (jacobi_in_workgroup.glsl) with 16
// invocations, for CPU drivers (as the PBD workgroup solve).
layout(local_size_x = 16) in;
#extension GL_GOOGLE_include_directive : require
#include "pd/jacobi_in_workgroup.glsl"
