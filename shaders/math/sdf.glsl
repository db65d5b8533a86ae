// Signed distance functions of the collider primitives (negative inside) and
// their gradients, analytic and by the tetrahedral four-point stencil
// (docs/physics.md §2). Shared math: see math/real_glsl.h for the rules.
#ifndef VKSIM_SDF_GLSL
#define VKSIM_SDF_GLSL
// Needs math/quaternion.glsl first.

// Distances in the collider's local frame (Quilez's primitives).
real sdfBoxLocal(real3 p, real3 halfExtents) {
    real3 q = abs(p) - halfExtents;
    return length(max(q, real3(0))) + min(max(q.x, max(q.y, q.z)), real(0));
}

real sdfCapsuleLocal(real3 p, real radius, real halfLength) {
    real3 fromAxis = real3(p.x, p.y - clamp(p.y, -halfLength, halfLength), p.z);
    return length(fromAxis) - radius;
}

// Mesh colliders sample a signed distance grid baked from a closed triangle
// mesh (engine/geometry/mesh_sdf_bake.h). The grids of all mesh colliders share
// one buffer; every shader that includes this file defines
// meshSdfGridValue(index) to read it (a storage buffer in GLSL; in C++ the
// grid bound by vksim::ref::MeshSdfGridScope, sim/shared_math.h).
real meshSdfGridValue(uint index);

// The grid at offset size.x (header: samples x, y, z, spacing, origin x, y,
// z; kMeshSdfHeaderFloats floats), in mesh units scaled by size.y, sampled
// trilinearly. Outside the grid's box the distance to the box is added to
// the value at the nearest point of the box: continuous, and never less than
// the true distance, since an SDF changes by at most the distance moved.
real meshSdfLocal(real4 size, real3 p) {
    uint base = uint(size.x);
    real scale = size.y;
    uint nx = uint(meshSdfGridValue(base));
    uint ny = uint(meshSdfGridValue(base + 1u));
    uint nz = uint(meshSdfGridValue(base + 2u));
    real spacing = meshSdfGridValue(base + 3u);
    real3 origin = real3(meshSdfGridValue(base + 4u), meshSdfGridValue(base + 5u), meshSdfGridValue(base + 6u));
    real3 g = (p / scale - origin) / spacing;  // in grid units
    // A NaN position has a NaN distance (and must not become an index).
    if (isnan(g.x) || isnan(g.y) || isnan(g.z)) return g.x + g.y + g.z;
    real3 inside = clamp(g, real3(0), real3(real(nx - 1u), real(ny - 1u), real(nz - 1u)));
    real outside = length(g - inside) * spacing;
    // The cell's lower corner; min() keeps the upper corner in the grid for
    // points on the last sample plane.
    uint i = min(uint(inside.x), nx - 2u);
    uint j = min(uint(inside.y), ny - 2u);
    uint k = min(uint(inside.z), nz - 2u);
    real tx = inside.x - real(i);
    real ty = inside.y - real(j);
    real tz = inside.z - real(k);
    uint row = nx;
    uint slice = nx * ny;
    uint c000 = base + kMeshSdfHeaderFloats + i + row * j + slice * k;
    real x00 = mix(meshSdfGridValue(c000), meshSdfGridValue(c000 + 1u), tx);
    real x10 = mix(meshSdfGridValue(c000 + row), meshSdfGridValue(c000 + row + 1u), tx);
    real x01 = mix(meshSdfGridValue(c000 + slice), meshSdfGridValue(c000 + slice + 1u), tx);
    real x11 = mix(meshSdfGridValue(c000 + slice + row), meshSdfGridValue(c000 + slice + row + 1u), tx);
    real value = mix(mix(x00, x10, ty), mix(x01, x11, ty), tz);
    return scale * (value + outside);
}

// Whether a shape is compiled into the kernel: the GPU kernels take the
// world's shapes as a specialization constant (world/collider_set.h) and the
// others fold away, because a CPU driver runs both sides of every `if` under
// masks and would pay for every shape at each evaluation (docs/physics.md §2,
// "Only the world's shapes are compiled in"). The default, and the CPU
// reference, keep every shape.
#ifdef __cplusplus
bool colliderShapeCompiled(uint) { return true; }
#else
layout(constant_id = kColliderShapesConstantId) const uint kColliderShapes = 0xFFFFFFFFu;
bool colliderShapeCompiled(uint type) { return (kColliderShapes & (1u << type)) != 0u; }
#endif

real sdfLocal(uint type, real4 size, real3 p) {
    if (colliderShapeCompiled(kColliderPlane) && type == kColliderPlane) return p.y;
    if (colliderShapeCompiled(kColliderSphere) && type == kColliderSphere) return length(p) - size.x;
    if (colliderShapeCompiled(kColliderBox) && type == kColliderBox)
        return sdfBoxLocal(p, real3(size.x, size.y, size.z));
    if (colliderShapeCompiled(kColliderMesh) && type == kColliderMesh) return meshSdfLocal(size, p);
    return sdfCapsuleLocal(p, size.x, size.y);
}

// f(p) for a collider placed at `position` with orientation `rotation`.
real sdfWorld(uint type, real3 position, real4 rotation, real4 size, real3 p) {
    return sdfLocal(type, size, quatRotateInverse(rotation, p - position));
}

// grad f(p) ~ sum_i k_i f(p + h k_i) / (4h) with k_i the vertices of a regular
// tetrahedron inscribed in the cube [-1,1]^3: four evaluations instead of the
// six of central differences. sum k_i = 0 and sum k_i k_i^T = 4 I give the
// gradient; the third moment sum k_i k_i k_i is not zero, so the leading error
// is h * (f_yz, f_xz, f_xy) (first order) wherever the Hessian has
// off-diagonal terms, and O(h^2) only where it does not.
real3 sdfGradientTetra(uint type, real3 position, real4 rotation, real4 size, real3 p, real h) {
    const real3 k0 = real3(1, -1, -1);
    const real3 k1 = real3(-1, -1, 1);
    const real3 k2 = real3(-1, 1, -1);
    const real3 k3 = real3(1, 1, 1);
    return (k0 * sdfWorld(type, position, rotation, size, p + h * k0) +
            k1 * sdfWorld(type, position, rotation, size, p + h * k1) +
            k2 * sdfWorld(type, position, rotation, size, p + h * k2) +
            k3 * sdfWorld(type, position, rotation, size, p + h * k3)) /
           (real(4) * h);
}

// Analytic gradient in the local frame (unit length where f is smooth); the
// oracle for the stencil tests. Primitives only.
real3 sdfGradientLocalAnalytic(uint type, real4 size, real3 p) {
    if (type == kColliderPlane) return real3(0, 1, 0);
    if (type == kColliderMesh) return real3(0);  // sampled, no closed form: the stencil is the gradient
    if (type == kColliderSphere) return normalize(p);
    if (type == kColliderCapsule) {
        real3 fromAxis = real3(p.x, p.y - clamp(p.y, -size.y, size.y), p.z);
        return normalize(fromAxis);
    }
    real3 q = abs(p) - real3(size.x, size.y, size.z);
    real3 s = real3(p.x < real(0) ? real(-1) : real(1), p.y < real(0) ? real(-1) : real(1),
                    p.z < real(0) ? real(-1) : real(1));
    if (max(q.x, max(q.y, q.z)) > real(0)) {
        real3 outside = max(q, real3(0));
        return s * outside / length(outside);
    }
    // Inside: the nearest face's normal.
    if (q.x >= q.y && q.x >= q.z) return real3(s.x, 0, 0);
    if (q.y >= q.z) return real3(0, s.y, 0);
    return real3(0, 0, s.z);
}

real3 sdfGradientAnalytic(uint type, real3 position, real4 rotation, real4 size, real3 p) {
    return quatRotate(rotation, sdfGradientLocalAnalytic(type, size, quatRotateInverse(rotation, p - position)));
}

#endif
