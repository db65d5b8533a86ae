#version 460
// One Newton iteration's linear system with the contact energy (springs/newton_assemble.glsl).
#define MS_CONTACTS_BINDING 11
#include "springs/newton_assemble.glsl"
