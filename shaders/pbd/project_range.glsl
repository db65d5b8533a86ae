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
//
// Both cases are one loop, its bounds chosen per dispatch, so that the
// projection is compiled once: a CPU driver would run a second copy under an
// empty mask (math/sdf.glsl).
void main() {
    uint t = gl_GlobalInvocationID.x;
    bool serial = pc.serial != 0u;
    uint begin = serial ? (t == 0u ? 0u : pc.count) : t;
    uint end = serial ? pc.count : min(pc.count, t + 1u);
    for (uint k = begin; k < end; ++k) project(pc.first + k);
}
