#version 460
// Vertex block descent of the solids with the contact energy (vbd/vbd_colour.glsl).
#define VBD_CONTACTS
#include "vbd/vbd_colour.glsl"
