#version 460
// Newton's line search with the contact energy (springs/line_search.glsl, springs/objective.glsl).
#define MS_CONTACTS_BINDING 10
#include "springs/line_search.glsl"
