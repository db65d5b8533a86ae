// Indirect dispatches over the contact constraints (ContactDispatch): the
// group count for `count` threads, within the device's limit; shaders loop
// with the stride `threads` over what the groups do not cover.
#ifndef VKSIM_CONTACT_DISPATCH_GLSL
#define VKSIM_CONTACT_DISPATCH_GLSL

ContactDispatch contactDispatch(uint count, uint maxGroups) {
    uint groups = min((count + 63u) / 64u, maxGroups);
    return ContactDispatch(groups, 1u, 1u, groups * 64u);
}

// The pair constraints the detection wrote (what fits the list).
uint contactConstraintCount(uint total, uint capacity) { return min(total, capacity / 2u); }

// The vertex-triangle constraints the detection wrote (what fits their
// list); none without triangles, whose count is never written.
uint contactTriangleCount(uint total, ContactPush push) {
    return push.triangles == 0u ? 0u : min(total, push.triangleCapacity);
}

// The constraint set (contact_constraint.glsl): the pairs, then the
// vertex-triangle constraints; `totals` as ContactDetection::totals().
uint contactSetCount(uint pairTotal, uint triangleTotal, ContactPush push) {
    return contactConstraintCount(pairTotal, push.capacity) + contactTriangleCount(triangleTotal, push);
}

#endif
