// The hash grid of the contact detection: cubic cells of edge cellSize,
// hashed into a table of tableMask + 1 buckets (Teschner et al. 2003). Two
// cells may share a bucket; the distance test drops what that adds.
#ifndef VKSIM_CONTACT_GRID_GLSL
#define VKSIM_CONTACT_GRID_GLSL

// Far enough that no scene reaches it, small enough that the products below
// stay in 32 bits' wrap-around arithmetic without undefined behaviour.
const float kCellLimit = 1073741824.0;  // 2^30 cells from the origin

ivec3 contactCell(vec3 position, float cellSize) {
    return ivec3(clamp(floor(position / cellSize), vec3(-kCellLimit), vec3(kCellLimit)));
}

uint contactBucket(ivec3 cell, uint tableMask) {
    uvec3 c = uvec3(cell);
    return ((c.x * 73856093u) ^ (c.y * 19349663u) ^ (c.z * 83492791u)) & tableMask;
}

#endif
