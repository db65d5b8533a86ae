#version 460
// Two-sided Blinn-Phong: one directional light, ambient, a little specular.
// Cloth is seen from both sides, so a back face is lit with the flipped normal
// and its own albedo; colliders are closed, so their back faces never show.
#extension GL_GOOGLE_include_directive : require
#include "shared/render_types.h"

layout(set = 0, binding = 0) uniform Frame { FrameUniforms frame; };
layout(push_constant) uniform Push { DrawPush draw; };

layout(location = 0) in vec3 inWorldPosition;
layout(location = 1) in vec3 inWorldNormal;
layout(location = 2) in vec3 inLocalPosition;
layout(location = 3) in float inScalar;
layout(location = 4) flat in float inScalarFlat;

layout(location = 0) out vec4 outColor;

// Checkerboard in the local XZ plane, box-filtered over the pixel footprint
// (fwidth) so that far squares fade to grey instead of aliasing into moire.
float checker(vec2 p) {
    vec2 w = max(fwidth(p), vec2(1e-4));
    vec2 i = 2.0 * (abs(fract((p - 0.5 * w) * 0.5) - 0.5) - abs(fract((p + 0.5 * w) * 0.5) - 0.5)) / w;
    return 0.5 - 0.5 * i.x * i.y;  // 0 or 1 inside squares, 0.5 when a pixel covers many
}

// Distinct hues for neighbouring graph colour indices (golden-ratio steps
// around the hue circle); grey for particles in no stretch constraint.
vec3 graphColour(float index) {
    if (index < 0.0) return vec3(0.3);
    vec3 hue = clamp(abs(fract(index * 0.618034 + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    return mix(vec3(0.08), hue, 0.8);
}

// Blue (compressed by strainRange or more), green (rest length), red (stretched).
vec3 strainColor(float ratio) {
    float t = clamp((ratio - 1.0) / draw.strainRange, -1.0, 1.0);
    return t < 0.0 ? mix(vec3(0.05, 0.6, 0.1), vec3(0.05, 0.15, 0.9), -t) : mix(vec3(0.05, 0.6, 0.1), vec3(0.9, 0.05, 0.03), t);
}

void main() {
    // Contacts (render/contact_lines.h): lines, which have no normal.
    if (draw.colorBy == kColourByContact) {
        outColor = vec4(inScalarFlat < 0.0 ? vec3(0.9) : graphColour(inScalarFlat), 1.0);
        return;
    }
    vec3 n = normalize(inWorldNormal);
    vec3 albedo = draw.frontColor.rgb;
    if (!gl_FrontFacing) {
        n = -n;
        albedo = draw.backColor.rgb;
    }
    if (draw.colorBy == kColourByGraphColour) albedo = graphColour(inScalarFlat);
    if (draw.colorBy == kColorByStrain) albedo = strainColor(inScalar);
    if (draw.pattern == kPatternChecker)
        albedo *= mix(0.7, 1.0, checker(inLocalPosition.xz / draw.checkerSize));

    vec3 l = frame.lightDirection.xyz;
    vec3 v = normalize(frame.eye.xyz - inWorldPosition);
    vec3 h = normalize(l + v);
    float diffuse = max(dot(n, l), 0.0);
    float specular = diffuse > 0.0 ? draw.specular * pow(max(dot(n, h), 0.0), draw.shininess) : 0.0;
    // Sky above, ground bounce below: ambient a little brighter on upward faces.
    vec3 ambient = frame.ambientColor.rgb * (0.75 + 0.25 * n.y);
    vec3 color = albedo * (ambient + frame.lightColor.rgb * diffuse) + frame.lightColor.rgb * specular;

    // Distance fog towards the clear colour hides the ground square's edge.
    float fog = 1.0 - exp(-frame.fogColor.w * length(frame.eye.xyz - inWorldPosition));
    outColor = vec4(mix(color, frame.fogColor.rgb, fog), 1.0);
}
