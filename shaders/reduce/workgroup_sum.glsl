// The sum of `term` over the workgroup, returned to every invocation: a
// shared-memory tree in a fixed order, so the same bits on every run and
// every device (no float atomics). Call it in uniform control flow; the
// barrier after the read lets a shader call it again.
shared float workgroupSums[kWorkgroupSize];

float workgroupSum(float term) {
    uint l = gl_LocalInvocationID.x;
    workgroupSums[l] = term;
    barrier();
    for (uint stride = kWorkgroupSize / 2; stride > 0; stride /= 2) {
        if (l < stride) workgroupSums[l] += workgroupSums[l + stride];
        barrier();
    }
    float total = workgroupSums[0];
    barrier();
    return total;
}
