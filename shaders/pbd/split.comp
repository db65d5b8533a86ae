#version 460
// Splitting torn vertices of PBD cloths (docs/physics.md §1, "Tearing";
// engine/solvers/pbd/pbd_splitting.h), once per frame after the tear pass,
// in two runs of this kernel with the prefix scan between them, then
// pbd/split_reindex.comp:
// - count (a thread per particle of a splitting cloth): the particle's kept
//   triangles (three distinct indices) fall into fans, joined through edges
//   whose stretch constraint is whole; the fans less one are the new
//   particles it needs, written to needs[thread] (and 0 past the last). A
//   particle with no broken edge and no dropped triangle around it is one
//   fan without counting (quickFans): most particles, most frames.
// - apply (the same threads, on the scanned needs): a particle whose needs
//   fit its cloth's reserve takes the spare particles at fill + its offset;
//   the fan holding its lowest-indexed triangle keeps it, each other fan gets
//   a copy of its x, p and v, the mass shared by the fans' rest areas. The
//   new index of every corner of its triangles goes to corners[] (the
//   triangles are read-only in this run, so every thread sees the frame's
//   surface); a particle whose needs do not fit drops its other fans'
//   triangles instead (kSplitDrop), counted in fill.yz.
// - reindex (pbd/split_reindex.comp): the triangles and constraints take the
//   corners' new indices.
// Integers only, and the counters' atomics add integers: the same bits
// whatever the order the threads run in.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"

layout(push_constant) uniform Push { SplitPush pc; };
layout(std430, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 2) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 3) buffer Triangles { uint triangles[]; };
layout(std430, binding = 4) readonly buffer AdjacencyOffsets { uint adjacencyOffsets[]; };
layout(std430, binding = 5) readonly buffer AdjacentTriangles { uint adjacentTriangles[]; };
layout(std430, binding = 6) buffer AdjacencyRows { uint adjacencyRows[]; };
layout(std430, binding = 7) buffer Distance { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 8) buffer Bending { BendingConstraint bendingConstraints[]; };
layout(std430, binding = 9) readonly buffer Cloths { SplitCloth cloths[]; };
// Four per cloth: spare particles used (+0), vertices refused a split (+1),
// triangles dropped for them (+2), the fill level this frame reaches (+3).
layout(std430, binding = 10) buffer Fill { uint fill[]; };
// Per triangle of the model: its edges' stretch constraints (ab, bc, ca; kNoHinge
// for none) and its rest area's bits (w).
layout(std430, binding = 11) readonly buffer TriangleInfo { uvec4 triangleInfo[]; };
layout(std430, binding = 12) buffer Needs { uint needs[]; };  // per particle thread, then scanned
layout(std430, binding = 13) buffer Corners { uint corners[]; };  // per triangle corner of the model

uint cornerOf(uint t, uint i) {
    for (uint c = 0u; c < 3u; ++c)
        if (triangles[3u * t + c] == i) return c;
    return 3u;
}

bool kept(uint t) {
    uint a = triangles[3u * t], b = triangles[3u * t + 1u], c = triangles[3u * t + 2u];
    return a != b && b != c && a != c;
}

bool broken(uint j) { return j != kNoHinge && distanceConstraints[j].restLength < 0.0; }

// Whether triangles ta and tb around particle i share an edge through i whose
// stretch constraint is whole (or that has none).
bool joined(uint ta, uint tb, uint i) {
    uint ci = cornerOf(ta, i);
    for (uint k = 1u; k < 3u; ++k) {
        uint cj = (ci + k) % 3u;
        if (cornerOf(tb, triangles[3u * ta + cj]) == 3u) continue;
        if (!broken(triangleInfo[ta][(ci + 1u) % 3u == cj ? ci : cj])) return true;
    }
    return false;
}

// What a particle's fans can be without counting them: kSplitNone where
// they must be counted (a broken edge at i, or a triangle of its row that
// left the surface), else 1 with a kept triangle around i, 0 without: the
// fans of a mesh's vertex are one until an edge at it breaks or a
// triangle of its row leaves. Most particles of a cloth stop here.
uint quickFans(uint i) {
    uint row = adjacencyRows[i];
    uint fans = 0u;
    for (uint k = adjacencyOffsets[row]; k < adjacencyOffsets[row + 1u]; ++k) {
        uint t = adjacentTriangles[k];
        if (!kept(t)) return kSplitNone;
        uint c = cornerOf(t, i);
        if (c == 3u) continue;
        if (broken(triangleInfo[t][c]) || broken(triangleInfo[t][(c + 2u) % 3u])) return kSplitNone;
        fans = 1u;
    }
    return fans;
}

// The particle's kept triangles in its row's order (ascending), each with
// the index of its fan, fans numbered by their first triangle; returns how
// many fans. Only run where quickFans cannot tell: arrays in a kernel cost
// every invocation on a CPU driver, so the other runs and kernels have none.
uint findFans(uint i, out uint count, out uint fanTriangles[kSplitMaxFan], out uint fanOf[kSplitMaxFan]) {
    count = 0u;
    uint row = adjacencyRows[i];
    for (uint k = adjacencyOffsets[row]; k < adjacencyOffsets[row + 1u]; ++k) {
        uint t = adjacentTriangles[k];
        if (count < kSplitMaxFan && cornerOf(t, i) < 3u && kept(t)) fanTriangles[count++] = t;
    }
    uint links[kSplitMaxFan];  // bit b of links[a]: triangles a and b are joined
    for (uint a = 0u; a < count; ++a) {
        links[a] = 0u;
        fanOf[a] = a;
    }
    for (uint a = 0u; a < count; ++a)
        for (uint b = a + 1u; b < count; ++b)
            if (joined(fanTriangles[a], fanTriangles[b], i)) {
                links[a] |= 1u << b;
                links[b] |= 1u << a;
            }
    // Each triangle takes the smallest label of those it is joined to, until
    // none changes: a fan's label is its first triangle's place.
    for (bool changed = true; changed;) {
        changed = false;
        for (uint a = 0u; a < count; ++a)
            for (uint b = 0u; b < count; ++b)
                if ((links[a] & (1u << b)) != 0u && fanOf[b] < fanOf[a]) {
                    fanOf[a] = fanOf[b];
                    changed = true;
                }
    }
    // Labels to fan numbers 0, 1, ... in the order of their first triangles.
    uint fans = 0u;
    for (uint a = 0u; a < count; ++a) {
        if (fanOf[a] != a) {
            fanOf[a] = fanOf[fanOf[a]];
            continue;
        }
        fanOf[a] = fans++;
    }
    return fans;
}

// The splitting cloth whose thread range holds thread k.
uint clothOfThread(uint k) {
    uint c = 0u;
    while (c + 1u < pc.clothCount && k >= cloths[c + 1u].firstThread) ++c;
    return c;
}

// A spare particle no split has taken: in no triangle, and written in this
// frame's apply run by the particle it is given to, so not read here.
bool unused(SplitCloth cloth, uint c, uint i) { return i >= cloth.firstParticle + cloth.vertexCount + fill[4u * c]; }

void countFans(uint k) {
    if (k >= pc.particleThreads) {
        if (k == pc.particleThreads) needs[k] = 0u;  // the scan's last value: the total
        return;
    }
    uint c = clothOfThread(k);
    SplitCloth cloth = cloths[c];
    uint i = cloth.firstParticle + k - cloth.firstThread;
    uint fans = unused(cloth, c, i) ? 0u : quickFans(i);
    if (fans == kSplitNone) {
        uint n, fanTriangles[kSplitMaxFan], fanOf[kSplitMaxFan];
        fans = findFans(i, n, fanTriangles, fanOf);
    }
    needs[k] = fans > 1u ? fans - 1u : 0u;
}

void apply(uint k) {
    if (k >= pc.particleThreads) return;
    uint c = clothOfThread(k);
    SplitCloth cloth = cloths[c];
    uint i = cloth.firstParticle + k - cloth.firstThread;
    if (unused(cloth, c, i)) return;
    // Every corner on i: the kept triangles' stay on i unless a fan moves,
    // those that left the surface stay dropped.
    uint row = adjacencyRows[i];
    for (uint r = adjacencyOffsets[row]; r < adjacencyOffsets[row + 1u]; ++r) {
        uint t = adjacentTriangles[r];
        uint to = kept(t) ? i : kSplitDrop;
        for (uint e = 0u; e < 3u; ++e)
            if (triangles[3u * t + e] == i) corners[3u * t + e] = to;
    }
    uint need = needs[k + 1u] - needs[k];
    if (need == 0u) return;
    uint n, fanTriangles[kSplitMaxFan], fanOf[kSplitMaxFan];
    uint fans = findFans(i, n, fanTriangles, fanOf);
    uint base = fill[4u * c] + needs[k] - needs[cloth.firstThread];
    bool fits = base + need <= cloth.spareCount;
    uint firstNew = cloth.firstParticle + cloth.vertexCount + base;
    if (fits) {
        atomicMax(fill[4u * c + 3u], base + need);
        float areas[kSplitMaxFan];
        for (uint f = 0u; f < fans; ++f) areas[f] = 0.0;
        float total = 0.0;
        for (uint a = 0u; a < n; ++a) {
            float area = uintBitsToFloat(triangleInfo[fanTriangles[a]].w);
            areas[fanOf[a]] += area;
            total += area;
        }
        // The mass m = 1/w shared by area: fan f keeps m A_f / A.
        vec4 x = positions[i], p = predicted[i], v = velocities[i];
        for (uint f = 0u; f < fans; ++f) {
            float w = x.w > 0.0 && areas[f] > 0.0 ? x.w * (total / areas[f]) : x.w;
            uint to = f == 0u ? i : firstNew + f - 1u;
            positions[to] = vec4(x.xyz, w);
            predicted[to] = vec4(p.xyz, w);
            velocities[to] = v;
            adjacencyRows[to] = row;
        }
    } else {
        atomicAdd(fill[4u * c + 1u], 1u);
        uint dropped = 0u;
        for (uint a = 0u; a < n; ++a) dropped += fanOf[a] > 0u ? 1u : 0u;
        atomicAdd(fill[4u * c + 2u], dropped);
    }
    for (uint a = 0u; a < n; ++a) {
        uint t = fanTriangles[a];
        uint f = fanOf[a];
        corners[3u * t + cornerOf(t, i)] = f == 0u ? i : fits ? firstNew + f - 1u : kSplitDrop;
    }
}

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (pc.stage == kSplitCount) countFans(k);
    else apply(k);
}
