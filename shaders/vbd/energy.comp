#version 460
// Energy tracking of the VBD solids (vbd/energy.glsl).
#include "vbd/energy.glsl"
