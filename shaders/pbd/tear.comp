#version 460
// Tearing of PBD cloths (docs/physics.md §1, "Tearing"), once per frame after
// its substeps, in two runs of this kernel. The stretch run: each stretch
// constraint whose object tears (tearStrains[material] > 0) and whose length
// passes (1 + strain) times its rest length breaks, for good: its rest
// length is stored negated, which every projection path reads as "moves
// nothing" (solveDistance). The second run, after it: each bending
// constraint whose hinge edge's stretch constraint is broken breaks the same
// way (its scale negated), and each triangle of a tearing cloth with a
// broken edge (two, where the cloth splits vertices: kTearSplitTriangle)
// leaves the surface: its three indices in the buffer the renderer draws
// become its first (a degenerate triangle, drawn as nothing, of no area for
// the normals and the wind). A thread writes only its own
// constraint or triangle, and no constraint's particle changes, so the
// colouring stays valid.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { TearPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Distance { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 2) buffer Bending { BendingConstraint bendingConstraints[]; };
// Per material row: the strain its stretch constraints tear at, 0 for none.
layout(std430, binding = 3) readonly buffer Strains { float tearStrains[]; };
// Per bending constraint: the stretch constraint of its hinge, or kNoHinge.
layout(std430, binding = 4) readonly buffer Hinges { uint hinges[]; };
// Per triangle that can tear: its index (x) and its edges' stretch constraints (y, z, w), or kNoHinge.
layout(std430, binding = 5) readonly buffer TriangleEdges { uvec4 triangleEdges[]; };
layout(std430, binding = 6) buffer Triangles { uint triangles[]; };

bool broken(uint j) { return j != kNoHinge && distanceConstraints[j].restLength < 0.0; }

void main() {
    uint j = gl_GlobalInvocationID.x;
    if (j >= pc.count) return;
    if (pc.family == kPbdFamilyDistance) {
        DistanceConstraint c = distanceConstraints[j];
        float strain = tearStrains[c.material];
        if (strain > 0.0 && c.restLength > 0.0 &&
            distanceTears(positions[c.p0].xyz, positions[c.p1].xyz, c.restLength, strain))
            distanceConstraints[j].restLength = -c.restLength;
    } else if (j < pc.bendingCount) {
        float scale = bendingConstraints[j].scale;
        if (scale > 0.0 && broken(hinges[j])) bendingConstraints[j].scale = -scale;
    } else {
        uvec4 e = triangleEdges[j - pc.bendingCount];
        uint brokenEdges = uint(broken(e.y)) + uint(broken(e.z)) + uint(broken(e.w));
        uint t = e.x & ~kTearSplitTriangle;
        if (brokenEdges >= ((e.x & kTearSplitTriangle) != 0u ? 2u : 1u)) {
            uint first = triangles[3u * t];
            triangles[3u * t + 1u] = first;
            triangles[3u * t + 2u] = first;
        }
    }
}
