#version 460
// Every lit surface (cloth and colliders): two vec4 vertex streams, the
// solver's own buffers for cloth (no copy), small static meshes for colliders.
#extension GL_GOOGLE_include_directive : require
#include "shared/render_types.h"

layout(set = 0, binding = 0) uniform Frame { FrameUniforms frame; };
layout(push_constant) uniform Push { DrawPush draw; };

// w of a cloth position is the particle's inverse mass, not a homogeneous
// coordinate: only xyz is a position.
layout(location = 0) in vec4 inPosition;
layout(location = 1) in vec4 inNormal;
// Per vertex, for the colour-by display modes: a graph colour index or a
// stretch ratio (DrawPush.colorBy says which).
layout(location = 2) in float inScalar;
// Per instance: the rigid body the mesh belongs to, read straight from the
// solver's state buffer (RigidBodyState: centre of mass, unit quaternion);
// the identity transform for everything else.
layout(location = 3) in vec4 inBodyPosition;
layout(location = 4) in vec4 inBodyRotation;

layout(location = 0) out vec3 outWorldPosition;
layout(location = 1) out vec3 outWorldNormal;
layout(location = 2) out vec3 outLocalPosition;  // for patterns fixed to the object
layout(location = 3) out float outScalar;               // interpolated (strain)
layout(location = 4) flat out float outScalarFlat;      // one per triangle (graph colour indices)

vec3 quatRotate(vec4 q, vec3 v) {
    vec3 t = 2.0 * cross(q.xyz, v);
    return v + q.w * t + cross(q.xyz, t);
}

void main() {
    vec3 local = (draw.model * vec4(inPosition.xyz, 1.0)).xyz;
    vec4 world = vec4(inBodyPosition.xyz + quatRotate(inBodyRotation, local), 1.0);
    outWorldPosition = world.xyz;
    // The model matrix and the body's transform are rigid.
    outWorldNormal = quatRotate(inBodyRotation, mat3(draw.model) * inNormal.xyz);
    outLocalPosition = inPosition.xyz;
    outScalar = inScalar;
    outScalarFlat = inScalar;
    gl_Position = frame.viewProjection * world;
    gl_PointSize = draw.pointSize;  // used by the particles display mode only
}
