#version 460
// The mouse attachment C = |p - target| of the one dragged particle
// (docs/physics.md §1, attachment), projected at stiffness 1 at the start of every iteration,
// before the coloured constraints, in a pass of its own (the colouring is
// untouched). The mouse is a kinematic body: the particle also gets inverse
// mass 0 in the predicted positions for the rest of the substep, so the
// constraints move its neighbours towards it instead of pulling it off the
// target (the grab of Mueller et al. 2007, "Position Based Dynamics").
// predict.comp copies the true inverse mass back from the positions every
// substep and update_velocity.comp keeps it, so nothing outlasts the drag.
// A pinned particle (inverse mass 0) stays where it is. One thread.
#include "shared/kernel.glsl"
#include "shared/interaction_types.h"

layout(push_constant) uniform Push { MousePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Predicted { vec4 predicted[]; };

void main() {
    if (gl_GlobalInvocationID.x != 0) return;
    if (positions[pc.particle].w == 0.0) return;
    predicted[pc.particle] = vec4(pc.target.xyz, 0.0);
}
