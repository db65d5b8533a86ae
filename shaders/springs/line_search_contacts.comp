#version 460
// Newton's line search with the contact energy and the pairs' lagged
// friction (springs/line_search.glsl, springs/objective.glsl).
#define MS_CONTACTS_BINDING 10
#define MS_LAGGED_FRICTION_BINDING 15
#include "springs/line_search.glsl"
