#version 460
// Contact colouring, first half of a round (contact_colour.comp is the
// second), one thread per contact particle, over its incidence list:
// - usedColours[k]: the colours its constraints have taken so far;
// - slots[16 k + j]: of its constraints still without a colour that
//   proposed colour j in the round before, the one of highest priority
//   (ties by number), or kNoColour, with that priority beside it (the
//   second half compares its own with every slot's, and reads them here
//   in one place, not scattered over priorities[]). Written only where
//   some constraint of k is still without a colour: only those read it.
// It reads what the rounds before wrote, never this round's decisions, so
// the slots are the same whatever order the GPU runs in.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 1) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 2) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 3) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 4) readonly buffer Proposals { uint proposals[]; };
layout(std430, binding = 5) readonly buffer Priorities { uint priorities[]; };
layout(std430, binding = 6) writeonly buffer UsedColours { uint usedColours[]; };
layout(std430, binding = 7) writeonly buffer Slots { uvec2 slots[]; };  // (constraint, its priority)

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint slot[kContactColours], slotPriority[kContactColours];
    for (uint j = 0u; j < kContactColours; ++j) slot[j] = kNoColour, slotPriority[j] = 0u;
    uint used = 0u;
    bool open = false;  // some constraint of k has no colour yet
    uint start = incidenceStart[k];
    for (uint e = start; e < start + incidenceCount[k]; ++e) {
        uint d = incidence[e] / 4u;
        uint colour = colours[d];
        if (colour != kNoColour) {
            if (colour < kContactColours) used |= 1u << colour;
            continue;
        }
        open = true;
        uint j = proposals[d];
        if (j >= kContactColours) continue;
        uint best = slot[j], priority = priorities[d];
        if (best == kNoColour || priority > slotPriority[j] || (priority == slotPriority[j] && d > best)) {
            slot[j] = d;
            slotPriority[j] = priority;
        }
    }
    usedColours[k] = used;
    if (!open) return;
    for (uint j = 0u; j < kContactColours; ++j) slots[kContactColours * k + j] = uvec2(slot[j], slotPriority[j]);
}
