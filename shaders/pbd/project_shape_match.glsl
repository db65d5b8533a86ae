// Projection of shape-matching group g (docs/physics.md §13), written once
// for the per-group pass (shape_match_pass.glsl) and the workgroup solve
// (solve_in_workgroup.glsl); one workgroup projects one group, and every
// invocation of it must call this (it has barriers). The includer declares
// `shapeMatchGroups[]` and `shapeMatchRest[]` (one buffer: the groups, then
// the rest offsets, which a group's firstRest indexes in vec4s), `kSize`
// (the workgroup size),
// the particle accessors `vec4 loadParticle(uint i)` (xyz, inverse mass in
// w: 0 for a pinned or dragged particle) and `void storeParticle(uint i,
// vec4 p)`, and kSize vec4 of shared scratch, `vec4 shapeMatchScratch(uint k)`
// and `void setShapeMatchScratch(uint k, vec4 v)`.
//
// Invocation t owns the group's particles t, t + kSize, ...: it adds their
// terms in that order, and the kSize partial sums are added by a fixed
// tree, so the sums have the same bits on every run and on both paths (no
// atomics). Pinned and dragged particles count in the sums with their rest
// masses and are not moved.

// The sum of every invocation's v.
vec4 shapeMatchWorkgroupSum(vec4 v) {
    uint t = gl_LocalInvocationID.x;
    setShapeMatchScratch(t, v);
    barrier();
    for (uint stride = kSize / 2u; stride > 0u; stride /= 2u) {
        if (t < stride) setShapeMatchScratch(t, shapeMatchScratch(t) + shapeMatchScratch(t + stride));
        barrier();
    }
    vec4 sum = shapeMatchScratch(0u);
    barrier();
    return sum;
}

void projectShapeMatch(uint g, uint iterations) {
    ShapeMatchGroup group = shapeMatchGroups[g];
    uint t = gl_LocalInvocationID.x;
    // The centre of mass c = sum m_i p_i / sum m_i, summed from the group's
    // first particle: offsets within the body rather than positions in the
    // world keep the rounding of c, which moves the whole body, small.
    vec3 origin = loadParticle(group.firstParticle).xyz;
    vec3 weighted = vec3(0.0);
    for (uint l = t; l < group.particleCount; l += kSize)
        weighted += shapeMatchRest[group.firstRest + l].w * (loadParticle(group.firstParticle + l).xyz - origin);
    vec3 c = origin + shapeMatchWorkgroupSum(vec4(weighted, 0.0)).xyz * group.inverseMass;
    // Apq = sum m_i (p_i - c) r_i^T, column by column.
    vec3 a0 = vec3(0.0), a1 = vec3(0.0), a2 = vec3(0.0);
    for (uint l = t; l < group.particleCount; l += kSize) {
        vec4 r = shapeMatchRest[group.firstRest + l];
        vec3 d = r.w * (loadParticle(group.firstParticle + l).xyz - c);
        a0 += r.x * d;
        a1 += r.y * d;
        a2 += r.z * d;
    }
    mat3 Apq = mat3(shapeMatchWorkgroupSum(vec4(a0, 0.0)).xyz, shapeMatchWorkgroupSum(vec4(a1, 0.0)).xyz,
                    shapeMatchWorkgroupSum(vec4(a2, 0.0)).xyz);
    // Every invocation computes the same T from the same sums.
    mat3 T = shapeMatchTransform(Apq, mat3(group.restInverse0.xyz, group.restInverse1.xyz, group.restInverse2.xyz),
                                 group.mode, group.beta);
    float k = pbdIterationStiffness(group.stiffness, iterations);
    for (uint l = t; l < group.particleCount; l += kSize) {
        uint i = group.firstParticle + l;
        vec4 p = loadParticle(i);
        if (p.w == 0.0) continue;
        storeParticle(i, vec4(p.xyz + shapeMatchCorrection(p.xyz, c, T, shapeMatchRest[group.firstRest + l].xyz, k), p.w));
    }
}
