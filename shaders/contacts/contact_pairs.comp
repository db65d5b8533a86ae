#version 460
// Contact detection: each contact particle's neighbours, the particles
// closer than t_k + t_l + margin, searched in the 27 cells around its own.
// Run twice per substep: with write = 0 it counts them into counts[k] and
// offsets[k], and those with l > k, the pair constraints k owns, into
// constraintCounts[k] and constraintOffsets[k], and keeps the first
// kKeptNeighbours in kept[]; the offsets are then scanned; with write = 1
// it writes them to neighbours[offsets[k]...], and its constraints (k, l)
// to constraints[constraintOffsets[k]...], uncoloured and with their
// colouring priorities (contact_colour.comp), in a fixed order (cells in
// z, y, x order, each bucket's particles ascending), dropping, and so
// leaving for the stats to count, what does not fit the capacity. The
// writing run takes the kept neighbours where they are all of k's, and
// searches again only where k found more.
//
// A pair is left out (docs/physics.md, "Contacts between objects"):
// - when both particles belong to one object without "self";
// - when they belong to one object and are closer in its rest shape than
//   their contact distance: neighbours that touch at rest (the rest-shape rule);
// - when neither can move (both inverse masses 0);
// - when either is a spare particle no split has taken (kContactUnused);
// - when they belong to different contact groups (a batch's copies): each
//   group searches its own part of the table (ContactGroup), so the other
//   groups' particles are never candidates.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_grid.glsl"
#include "math/real_glsl.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) readonly buffer BucketStart { uint bucketStart[]; };
layout(std430, binding = 3) readonly buffer BucketFill { uint bucketCount[]; };
layout(std430, binding = 4) readonly buffer Sorted { uint sorted[]; };
layout(std430, binding = 5) buffer Counts { uint counts[]; };
layout(std430, binding = 6) buffer Offsets { uint offsets[]; };
layout(std430, binding = 7) writeonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = 8) buffer ConstraintCounts { uint constraintCounts[]; };
layout(std430, binding = 9) buffer ConstraintOffsets { uint constraintOffsets[]; };
layout(std430, binding = 10) writeonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 11) writeonly buffer Colours { uint colours[]; };
layout(std430, binding = 12) writeonly buffer Proposals { uint proposals[]; };
layout(std430, binding = 13) readonly buffer Groups { ContactGroup groups[]; };
layout(std430, binding = 14) readonly buffer LocalIndices { uint localIndices[]; };  // ContactModel::localIndices
layout(std430, binding = 15) writeonly buffer Priorities { uint priorities[]; };  // contact_colour.comp's
// The counting run's first kKeptNeighbours neighbours of each particle.
layout(std430, binding = 16) buffer Kept { uint kept[]; };

bool candidate(uint k, vec4 pk, ContactParticle a, uint l) {
    if (l == k) return false;
    ContactParticle b = particles[l];
    if (((a.flags | b.flags) & kContactUnused) != 0u) return false;
    if (a.object == b.object) {
        if ((a.flags & kContactSelf) == 0u) return false;
        vec3 rest = a.rest.xyz - b.rest.xyz;
        float touching = a.rest.w + b.rest.w;
        if (dot(rest, rest) < touching * touching) return false;
    }
    vec4 pl = p[b.particle];
    if (pk.w == 0.0 && pl.w == 0.0) return false;
    vec3 d = pk.xyz - pl.xyz;
    float reach = a.rest.w + b.rest.w + pc.margin;
    return dot(d, d) < reach * reach;
}

// Writes k's `index`-th neighbour l at `first` + index, and, where l > k,
// the constraint (k, l), k's `owned`-th, at `firstOwned` + owned, each
// where it fits the capacity.
void writeNeighbour(uint k, uint l, uint first, uint index, uint firstOwned, uint owned) {
    if (first + index < pc.capacity) neighbours[first + index] = l;
    if (l < k) return;
    uint c = firstOwned + owned;
    if (c >= pc.capacity / 2u) return;
    constraints[c] = uvec2(k, l);
    priorities[c] = contactPairHash(localIndices[k], localIndices[l]);
    colours[c] = kNoColour;
    proposals[c] = kNoColour;
}

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint first = pc.write != 0u ? offsets[k] : 0u;
    uint firstOwned = pc.write != 0u ? constraintOffsets[k] : 0u;
    uint keptAt = k * kKeptNeighbours;
    uint found = 0u, owned = 0u;
    if (pc.write != 0u && counts[k] <= kKeptNeighbours) {
        for (; found < counts[k]; ++found) {
            uint l = kept[keptAt + found];
            writeNeighbour(k, l, first, found, firstOwned, owned);
            if (l > k) ++owned;
        }
        return;
    }
    ContactParticle a = particles[k];
    vec4 pk = p[a.particle];
    ivec3 cell = contactCell(pk.xyz, pc.cellSize);
    ContactGroup group = groups[a.flags >> kContactGroupShift];
    uint visited[27];
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                uint n = uint((dz + 1) * 9 + (dy + 1) * 3 + (dx + 1));
                uint bucket = group.firstBucket + contactBucket(cell + ivec3(dx, dy, dz), group.tableMask);
                visited[n] = bucket;
                bool seen = false;  // two cells in one bucket: search it once
                for (uint m = 0u; m < n; ++m) seen = seen || visited[m] == bucket;
                if (seen) continue;
                uint start = bucketStart[bucket];
                for (uint s = start; s < start + bucketCount[bucket]; ++s) {
                    uint l = sorted[s];
                    if (!candidate(k, pk, a, l)) continue;
                    if (pc.write != 0u) writeNeighbour(k, l, first, found, firstOwned, owned);
                    else if (found < kKeptNeighbours) kept[keptAt + found] = l;
                    ++found;
                    if (l > k) ++owned;
                }
            }
    if (pc.write == 0u) {
        counts[k] = found;
        offsets[k] = found;
        constraintCounts[k] = owned;
        constraintOffsets[k] = owned;
    }
}
