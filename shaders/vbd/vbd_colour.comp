#version 460
// Vertex block descent of the solids, one colour of one iteration (vbd/vbd_colour.glsl).
#include "vbd/vbd_colour.glsl"
