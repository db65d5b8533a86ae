#version 460
// Vertex block descent, one colour of one iteration (springs/vbd.glsl).
#include "springs/vbd.glsl"
