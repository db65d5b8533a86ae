#version 460
// One Newton iteration's linear system (springs/newton_assemble.glsl).
#include "springs/newton_assemble.glsl"
