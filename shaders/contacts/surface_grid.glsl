// The grid the vertex-triangle and edge-edge searches read
// (triangle_pairs.comp, edge_pairs.comp): the surface grid, of
// surface_cell.comp's cells, or the pairs' grid where those cells are the
// pairs' (contactSurfaceIsPairGrid), which then holds what the surface grid
// would, bit for bit, and the surface grid is not built. The shader
// declares, before including this, pc (ContactPush), scale[]
// (surface_cell.comp's), the surface grid's bucketStart[], bucketCount[]
// and sorted[], and the pairs' pairBucketStart[], pairBucketCount[] and
// pairSorted[] (particle_grid.h).
#ifndef VKSIM_SURFACE_GRID_GLSL
#define VKSIM_SURFACE_GRID_GLSL
#include "contacts/contact_grid.glsl"

// The same for every thread of a dispatch.
bool surfaceGridIsPairs() { return contactSurfaceIsPairGrid(scale[0], pc.cellSize); }

uint surfaceBucketStart(bool pairs, uint bucket) { return pairs ? pairBucketStart[bucket] : bucketStart[bucket]; }
uint surfaceBucketCount(bool pairs, uint bucket) { return pairs ? pairBucketCount[bucket] : bucketCount[bucket]; }
uint surfaceSorted(bool pairs, uint slot) { return pairs ? pairSorted[slot] : sorted[slot]; }

#endif
