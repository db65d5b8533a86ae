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

// Whether the surface grid (surface_cell.comp's cells) is the pairs' grid:
// of the same cell edge, it holds the same particles in the same buckets in
// the same order, so it is not built and the vertex-triangle and edge-edge
// searches read the pairs' instead (surface_grid.glsl). Exact: the surface
// cell is the pairs' where its max() picked the pairs' edge.
bool contactSurfaceIsPairGrid(float surfaceCell, float pairCell) { return surfaceCell == pairCell; }

#endif
