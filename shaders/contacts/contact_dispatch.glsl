// Indirect dispatches over the contact constraints (ContactDispatch): the
// group count for `count` threads, within the device's limit; shaders loop
// with the stride `threads` over what the groups do not cover.
#ifndef VKSIM_CONTACT_DISPATCH_GLSL
#define VKSIM_CONTACT_DISPATCH_GLSL

ContactDispatch contactDispatch(uint count, uint maxGroups) {
    uint groups = min((count + 63u) / 64u, maxGroups);
    return ContactDispatch(groups, 1u, 1u, groups * 64u);
}

// The constraints the detection wrote (what fits the list).
uint contactConstraintCount(uint total, uint capacity) { return min(total, capacity / 2u); }

#endif
