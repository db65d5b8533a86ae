// The world's colliders (shared/sim_types.h, Collider: 96 bytes, six
// 16-byte texels in field order, which world/collider_set.cpp asserts on
// the C++ side) read as a uniform texel buffer of uvec4. The includer declares the binding first:
//     layout(binding = N) uniform usamplerBuffer colliderTexels;
//
// Why texels: every reader indexes by a collider number that is the same in
// every invocation, yet a CPU driver (lavapipe, Mesa 22.3) loads a
// storage-buffer element one SIMD lane and one 32-bit word at a time, each
// with a bounds check: 192 scalar loads per collider and 8 particles, more
// than the particle's own data. A texel is one gather (docs/benchmarks-history.md,
// "Colliders read as texels"). On a GPU, a fetch that every invocation makes
// at one address is one cached read.
#ifndef VKSIM_COLLIDER_TEXELS_GLSL
#define VKSIM_COLLIDER_TEXELS_GLSL

Collider colliderAt(uint c) {
    int k = 6 * int(c);
    uvec4 scalars = texelFetch(colliderTexels, k + 3);
    return Collider(uintBitsToFloat(texelFetch(colliderTexels, k)), uintBitsToFloat(texelFetch(colliderTexels, k + 1)),
                    uintBitsToFloat(texelFetch(colliderTexels, k + 2)), scalars.x, uintBitsToFloat(scalars.y),
                    uintBitsToFloat(scalars.z), uintBitsToFloat(scalars.w),
                    uintBitsToFloat(texelFetch(colliderTexels, k + 4)),
                    uintBitsToFloat(texelFetch(colliderTexels, k + 5)));
}

// Collider c seen from positions relative to `origin` (a range's origin,
// ParticlePush::origin*, docs/physics.md §9.2 "Far from the origin"): the
// collider is moved by -origin instead of the positions by +origin, so that
// they keep their precision.
Collider colliderFromOrigin(uint c, vec3 origin) {
    Collider col = colliderAt(c);
    col.position.xyz -= origin;
    return col;
}

#endif
