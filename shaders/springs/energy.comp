#version 460
// Energy tracking for the implicit mass-spring methods (springs/energy.glsl).
#include "springs/energy.glsl"
