#version 460
// Before the vertex-triangle and edge-edge detection, one workgroup: the
// longest side L of the contact triangles at the working positions (every
// edge-edge edge is one, ContactModel::edges), and from it the cell edge of
// the grid those searches read (particle_grid.h), into scale[0] = cell edge
// and scale[1] = L. A fixed-order reduction in shared memory, no atomics.
//
// Why a third of L + 6 margin: a triangle's box is no wider along an axis
// than its longest side, and triangle_pairs.comp grows it by at most
// 3 margin on each side (the largest thickness is the margin); an edge
// within reach of another has an end within reach plus half its own length
// of it, so edge_pairs.comp grows an edge's box by at most 3 margin + L/2.
// With cells of (L + 6 margin) / 3 a triangle's search box spans at most 4
// cells along each axis and an edge's at most 7, whatever the edges' length
// against the thickness; a cell holding the boxes in fewer would make each
// search read a larger volume around its box. Never smaller than the pairs'
// cells (pc.cellSize): on a cloth whose edges are a few thicknesses long
// the grid is the pairs' again, and the searches read the pairs' grid.
// The factor 1 + 2^-10 covers float rounding of L and of the boxes.
//
// Where the cells come out the pairs' (a cloth whose edges are shorter
// than about three thicknesses), the surface grid would be the pairs' bit
// for bit (contactSurfaceIsPairGrid): the group counts of its build's
// indirect dispatches (ParticleGrid::groupCounts, gridGroups) are written
// with zero groups, so the build does nothing, and the searches read the
// pairs' grid. Decided here every substep, without the host.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_grid.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 3) writeonly buffer Scale { float scale[]; };
// The surface grid's build: its dispatches' VkDispatchIndirectCommands as
// run directly, and as this substep runs them.
layout(std430, binding = 4) readonly buffer GridGroups { uint gridGroups[]; };
layout(std430, binding = 5) writeonly buffer GridDispatches { uint gridDispatches[]; };

shared float lengths[64];

void main() {
    uint thread = gl_LocalInvocationID.x;
    float most = 0.0;
    for (uint t = thread; t < pc.triangles; t += 64u) {
        ContactTriangle tri = triangles[t];
        vec3 a = p[particles[tri.a].particle].xyz, b = p[particles[tri.b].particle].xyz;
        vec3 c = p[particles[tri.c].particle].xyz;
        most = max(most, max(distance(a, b), max(distance(b, c), distance(c, a))));
    }
    lengths[thread] = most;
    barrier();
    for (uint stride = 32u; stride > 0u; stride /= 2u) {
        if (thread < stride) lengths[thread] = max(lengths[thread], lengths[thread + stride]);
        barrier();
    }
    if (thread == 0u) {
        float cellSize = max(pc.cellSize, (lengths[0] + 6.0 * pc.margin) * (1.0 + 1.0 / 1024.0) / 3.0);
        scale[0] = cellSize;
        scale[1] = lengths[0];
        bool skip = contactSurfaceIsPairGrid(cellSize, pc.cellSize);
        // Three uints a command: the x groups first.
        for (uint i = 0u; i < gridGroups.length(); ++i) gridDispatches[i] = skip && i % 3u == 0u ? 0u : gridGroups[i];
    }
}
