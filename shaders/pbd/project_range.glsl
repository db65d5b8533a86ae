// The entry point of the constraint projection shaders: each defines
// `void project(uint j)`, the projection of constraint j, and the push
// constant block `pc` (ProjectPush) before including this.
//
// A colour (pc.serial == 0): one thread per constraint; no two share a
// particle, so the order among them does not matter. The overflow group
// (pc.serial == 1, docs/physics.md §1): its constraints may share
// particles, so one invocation projects them one after another in array
// order, exactly the serial Gauss-Seidel sweep of the CPU reference, with
// no races and no atomics. Its own earlier writes are visible to it (one
// invocation's accesses to a location are in program order).
void main() {
    if (pc.serial != 0u) {
        if (gl_GlobalInvocationID.x == 0u)
            for (uint k = 0u; k < pc.count; ++k) project(pc.first + k);
        return;
    }
    if (gl_GlobalInvocationID.x >= pc.count) return;
    project(pc.first + gl_GlobalInvocationID.x);
}
