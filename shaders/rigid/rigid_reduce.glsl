// The workgroup reductions of the rigid-body passes (64 invocations), over
// a fixed tree so that the result does not depend on scheduling.
#ifndef VKSIM_RIGID_REDUCE_GLSL
#define VKSIM_RIGID_REDUCE_GLSL

const uint kSize = 64;
shared vec4 sharedSum0[kSize];
shared vec4 sharedSum1[kSize];
shared vec4 sharedDeepest[kSize];  // xyz: sum of depth-weighted normals; w: the largest depth (> 0 inside)

struct ContactSums {
    vec4 points;  // xyz: sum of contact points (world positions or offsets); w: how many
    vec3 normals;  // sum of their unit normals
};

// The sums of every invocation's `mine`; every invocation gets them.
ContactSums reduceContactSums(ContactSums mine) {
    uint t = gl_LocalInvocationID.x;
    sharedSum0[t] = mine.points;
    sharedSum1[t] = vec4(mine.normals, 0.0);
    for (uint stride = kSize / 2u; stride > 0u; stride /= 2u) {
        barrier();
        if (t < stride) {
            sharedSum0[t] += sharedSum0[t + stride];
            sharedSum1[t] += sharedSum1[t + stride];
        }
    }
    barrier();
    ContactSums total = ContactSums(sharedSum0[0], sharedSum1[0].xyz);
    barrier();  // element 0 is written again by the next reduction
    return total;
}

// The penetration of every invocation's `mine`: xyz summed, w the largest.
vec4 reducePenetration(vec4 mine) {
    uint t = gl_LocalInvocationID.x;
    sharedDeepest[t] = mine;
    for (uint stride = kSize / 2u; stride > 0u; stride /= 2u) {
        barrier();
        if (t < stride) {
            vec4 other = sharedDeepest[t + stride];
            sharedDeepest[t] = vec4(sharedDeepest[t].xyz + other.xyz, max(sharedDeepest[t].w, other.w));
        }
    }
    barrier();
    vec4 deepest = sharedDeepest[0];
    barrier();
    return deepest;
}

#endif
