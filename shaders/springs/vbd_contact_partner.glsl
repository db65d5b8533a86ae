// The contact energy in a vertex block descent sweep (docs/physics.md §9.6
// and §16): a colour's thread reads a pair's other particle as Gauss-Seidel
// reads a neighbour, from the snapshot taken before the colour when that
// particle is in the same colour (its thread may be moving it), else from
// the iterate. Included, under VBD_CONTACTS, by the mass-spring VBD
// (springs/vbd.glsl) and the solids' (vbd/vbd_colour.glsl), after their
// iterate and push constants; then the shared energy (springs/contact_energy.glsl).
layout(std430, binding = 13) readonly buffer Snapshot { vec4 snapshot[]; };
layout(std430, binding = 14) readonly buffer OrderOf { uint orderOf[]; };  // per particle of the range

vec3 contactPartner(uint j) {
    uint at = orderOf[j - pc.firstParticle];
    bool sameColour = at >= pc.first && at - pc.first < pc.count;
    return sameColour ? snapshot[j].xyz : iterate[j].xyz;
}

#define MS_CONTACTS_BINDING 8
#include "springs/contact_energy.glsl"
