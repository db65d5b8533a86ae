#version 460
// Contact grid, pass 2: each contact particle's bucket, and the number of
// particles in each bucket. The counts are integer atomics, whose result
// does not depend on their order. The cell edge comes from a buffer: the
// pairs' grid's is ContactModel::cellSize, the triangles' and edges' grid's
// the one surface_cell.comp sizes each substep (particle_grid.h).
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_grid.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) writeonly buffer BucketOf { uint bucketOf[]; };
layout(std430, binding = 3) buffer BucketCounts { uint bucketCounts[]; };
layout(std430, binding = 4) readonly buffer Groups { ContactGroup groups[]; };  // its group's part of the table
layout(std430, binding = 5) readonly buffer CellSize { float cellSize[]; };  // [0]: the cell edge [m]

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    ContactParticle a = particles[k];
    ContactGroup group = groups[a.flags >> kContactGroupShift];
    uint bucket = group.firstBucket + contactBucket(contactCell(p[a.particle].xyz, cellSize[0]), group.tableMask);
    bucketOf[k] = bucket;
    atomicAdd(bucketCounts[bucket], 1u);
}
