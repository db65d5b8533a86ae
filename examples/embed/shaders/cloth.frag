#version 450
// Flat-shaded from screen-space derivatives, so the example needs no normal
// buffer; both faces of the cloth are lit alike.
layout(location = 0) in vec3 worldPosition;
layout(location = 0) out vec4 outColor;
layout(push_constant) uniform Push {
    mat4 viewProjection;
    vec4 color;
} push;

void main() {
    vec3 normal = normalize(cross(dFdx(worldPosition), dFdy(worldPosition)));
    float light = 0.3 + 0.7 * abs(dot(normal, normalize(vec3(0.4, 1.0, 0.3))));
    outColor = vec4(push.color.rgb * light, 1.0);
}
