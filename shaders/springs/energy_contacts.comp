#version 460
// Energy tracking with the contact energy (springs/energy.glsl, springs/objective.glsl).
#define MS_CONTACTS_BINDING 8
#include "springs/energy.glsl"
