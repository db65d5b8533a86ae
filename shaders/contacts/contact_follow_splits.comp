#version 460
// At each frame's start, where some cloth splits torn vertices
// (docs/physics.md §1 "Tearing", §14; the splits happen once a frame, after
// its last substep, so each detection of the frame sees the records the
// last splits left): each spare particle's contact record
// follows the splits, read from the particle store's vertex-triangle rows
// (a split writes the row of the vertex it split onto each new particle).
// A spare particle a split took takes its vertex's rest position, so the
// rest-shape rule keeps it from its twin and its vertex's rest neighbours;
// one no split has taken (its own row) is kContactUnused and touches
// nothing. Only spare records are written and only vertices' are read, so
// the threads' order changes nothing; and the records follow the rows,
// which are saved state, so a reset or a loaded state needs no upload.
// The CPU's followSplits (contacts/contact_model.h) does the same.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 1) readonly buffer ContactOf { uint contactOf[]; };  // per particle of the store
layout(std430, binding = 2) readonly buffer AdjacencyRows { uint adjacencyRows[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint flags = particles[k].flags;
    if ((flags & kContactSpare) == 0u) return;
    uint particle = particles[k].particle;
    uint row = adjacencyRows[particle];
    if (row == particle) {
        particles[k].flags = flags | kContactUnused;
        return;
    }
    particles[k].flags = flags & ~kContactUnused;
    particles[k].rest.xyz = particles[contactOf[row]].rest.xyz;
}
