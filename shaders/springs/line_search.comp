#version 460
// Newton's line search, first pass (springs/line_search.glsl).
#include "springs/line_search.glsl"
