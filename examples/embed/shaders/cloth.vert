#version 450
// World::positions() is the vertex buffer: xyz the position, w the inverse mass.
layout(location = 0) in vec4 inPosition;
layout(location = 0) out vec3 worldPosition;
layout(push_constant) uniform Push {
    mat4 viewProjection;
    vec4 color;
} push;

void main() {
    worldPosition = inPosition.xyz;
    gl_Position = push.viewProjection * vec4(inPosition.xyz, 1.0);
}
