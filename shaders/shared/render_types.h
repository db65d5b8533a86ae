// Every struct and constant the render shaders read, shared by GLSL and C++:
// the per-frame uniform block (camera and light) and the per-draw push
// constants (model matrix and material). Vertex data is not here: it is two
// vec4 streams (position xyz, normal xyz) described by the pipeline's vertex
// input state, the same layout as the solver's positions and normals buffers.
#ifndef VKSIM_RENDER_TYPES_H
#define VKSIM_RENDER_TYPES_H
#include "gpu_compat.h"

GPU_NAMESPACE_BEGIN

// Surface patterns a draw can ask the fragment shader for.
GPU_CONST(uint, kPatternPlain, 0);
GPU_CONST(uint, kPatternChecker, 1);  // world-space checkerboard (the ground)

// What the per-vertex scalar (vertex input location 2) colours a surface by.
GPU_CONST(uint, kColorByMaterial, 0);    // the draw's own colours; the scalar is unused
GPU_CONST(uint, kColourByGraphColour, 1);  // scalar: a graph colour index (negative: none)
GPU_CONST(uint, kColorByStrain, 2);      // scalar: stretch ratio (current / rest length)
GPU_CONST(uint, kColourByContact, 3);    // scalar: a contact's colour index (negative: none); unlit

// Set 0, binding 0: written by the host once per frame, one buffer per frame
// in flight.
struct FrameUniforms {
    mat4 viewProjection;  // world -> clip (Vulkan: Y down, depth 0..1)
    vec4 eye;             // xyz: camera position in world space
    vec4 lightDirection;  // xyz: unit vector from the surface towards the light
    vec4 lightColor;      // rgb: directional light radiance
    vec4 ambientColor;    // rgb: constant ambient term
    vec4 fogColor;        // rgb: colour far surfaces fade to (the clear colour); w: density [1/m]
};
GPU_CHECK_SIZE(FrameUniforms, 144);

// Push constants of every draw (vertex and fragment stages).
struct DrawPush {
    mat4 model;           // object -> world; rigid (rotation + translation), so it also rotates normals
    vec4 frontColor;      // rgb: albedo of the side the normal points out of
    vec4 backColor;       // rgb: albedo of the other side (cloth is seen from both)
    uint pattern;         // kPattern*
    float checkerSize;    // [m] side of one checker square
    float specular;       // strength of the Blinn-Phong highlight
    float shininess;      // its exponent
    uint colorBy;         // kColorBy*
    float pointSize;      // [px] particles display mode
    float strainRange;    // stretch ratio 1 +- this maps to the ends of the strain colour ramp
    uint pad0;
};
GPU_CHECK_SIZE(DrawPush, 128);

// The strain pass (render/strain.comp) push constants.
struct StrainPush {
    uint particleCount;
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(StrainPush, 16);

GPU_NAMESPACE_END

#endif
