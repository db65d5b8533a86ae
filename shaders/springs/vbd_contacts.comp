#version 460
// Vertex block descent with the contact energy (springs/vbd.glsl).
#define VBD_CONTACTS
#include "springs/vbd.glsl"
