#pragma once
// The grid cells that vertex welding (mesh_weld.cpp) looks in, as flat
// arrays: every vertex's cell, and for every occupied cell its slots and the
// occupied cells around it. Built by sorting the vertices by cell with a
// radix sort and walking the sorted cells, so that building and using it
// cost the same per vertex at a thousand vertices and at a million. (A hash
// map of cells, each a vector, did not: 27 lookups per vertex, scattered
// over a table that outgrew the caches, many times slower per vertex and
// slower still as the mesh grew; both measured in docs/physics.md §1, "The
// colour cap and the overflow group".)
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

struct WeldCells {
    struct Cell {
        uint32_t firstSlot = 0;      // slots firstSlot .. firstSlot + vertices - 1 of `slots` belong to it
        uint32_t firstNeighbor = 0;  // neighbours[firstNeighbor .. firstNeighbor + neighborCount - 1]
        uint32_t neighborCount = 0;
        uint32_t used = 0;  // for the weld: how many of its slots hold a kept vertex
    };
    std::vector<uint32_t> cellOfVertex;  // input vertex -> its cell
    std::vector<Cell> cells;             // in the order of their keys
    std::vector<uint32_t> neighbors;     // per cell, the occupied cells among the 27 around it, itself included
    std::vector<uint32_t> slots;         // one per vertex, grouped by cell, for the weld to fill
};

// The cells of side `cellSize` (> 0): the vertex at p lies in cell
// floor(p / cellSize) per axis (clamped to +-4e18 so that absurd coordinates
// share a cell rather than overflow). With cellSize 0, one cell per distinct
// point, compared bit for bit with -0 equal to +0, each its only neighbour.
WeldCells weldCells(std::span<const glm::dvec3> positions, double cellSize);

}  // namespace vksim
