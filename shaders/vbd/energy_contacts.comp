#version 460
// Energy tracking of the VBD solids with the contact energy (vbd/energy.glsl).
#define VBD_CONTACTS
#include "vbd/energy.glsl"
