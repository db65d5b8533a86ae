#pragma once
// Welding: mesh files often repeat a vertex once per face or per UV seam
// (every STL-derived OBJ does), which would leave the cloth in pieces and the
// surface open. Vertices closer than a tolerance become one.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

struct WeldedVertices {
    std::vector<glm::dvec3> positions;  // the kept vertices, in the order of their first appearance
    std::vector<uint32_t> remap;        // input vertex -> kept vertex
    // The distance tests the weld made: its work, which the grid keeps to a
    // few per vertex however large the mesh (tests/unit/mesh_weld_time_test.cpp).
    uint64_t comparisons = 0;
};

// Each vertex, in input order, joins the first kept vertex within
// `tolerance` (Euclidean distance, <=) or else is kept. Greedy and
// order-dependent on purpose: deterministic, and a kept vertex never moves
// (it is not averaged with the ones that joined it). tolerance 0 welds exact
// duplicates only. Positions must be finite (the loaders check). Grid cells
// of side `tolerance`, sorted by a radix sort (weld_cells.h), make it O(n)
// in time and memory.
WeldedVertices weldVertices(std::span<const glm::dvec3> positions, double tolerance);

// The default tolerance: 1e-6 of the bounding box diagonal, far below any
// feature a simulation mesh has and far above the rounding of printed
// coordinates.
double defaultWeldTolerance(std::span<const glm::dvec3> positions);

}  // namespace vksim
