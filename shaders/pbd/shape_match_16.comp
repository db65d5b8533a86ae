#version 460
// The shape-matching pass (shape_match_pass.glsl) with 16 invocations per
// workgroup, as the workgroup solve on CPU drivers.
layout(local_size_x = 16) in;
#extension GL_GOOGLE_include_directive : require
#include "pbd/shape_match_pass.glsl"
