#pragma once
// The springs, hinges and counts of one mass-spring cloth (docs/physics.md
// §9), from its triangles (any mesh) or its grid, in the object's local
// vertex indexing. spring_system.h derives the solver's incidence lists,
// matrix pattern and colours from the result; quadratic_bending.h adds
// Bergou's matrix; spring_model_builder.h puts them together.
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "solvers/springs/spring_model.h"

namespace vksim {

using SpringPair = std::array<uint32_t, 2>;

// The lecture's builder (triangle_mesh.h findMeshEdges: emit (i, j,
// triangle) with i < j for every triangle edge, sort, runs of one (i, j) are
// one edge, runs of two an interior edge):
//  - every distinct edge is a stretch spring, sorted by (i, j);
//  - every interior edge gives a bending spring between its two opposite
//    vertices and a hinge (v0, v1, v2, v3): the first triangle (in index
//    order) is (v0, v1, v2) in its stored winding, the second (v1, v0, v3)
//    when the mesh is consistently wound;
//  - edges of three or more triangles get neither and are counted.
// O(T log T) for T triangles.
struct MeshSprings {
    std::vector<SpringPair> stretch;
    std::vector<SpringPair> bend;     // one per hinge, (v2, v3); none when v2 == v3 (a doubled triangle)
    std::vector<glm::uvec4> hinges;   // (v0, v1, v2, v3)
    uint32_t interiorEdges = 0;
    uint32_t boundaryEdges = 0;
    uint32_t nonManifoldEdges = 0;
};
MeshSprings buildMeshSprings(std::span<const uint32_t> triangles);

// The classic families of a columns x rows grid (vertex = row * columns +
// column, cloth_grid.h), each in row-major order:
//  - structural: along X, then along Z, (columns - 1) rows + columns (rows - 1);
//  - shear: shearDiagonals 2: both diagonals of every cell; 1: the diagonal
//    the triangulation drew in each cell (cloth_grid.cpp alternates it in a
//    checkerboard, so one diagonal gives no preferred shear direction);
//    0: none;
//  - bend: skipping one vertex, along X then along Z,
//    (columns - 2) rows + columns (rows - 2).
// `meshEdges` are the triangulation's edges (MeshSprings::stretch).
struct GridSprings {
    std::vector<SpringPair> structural;
    std::vector<SpringPair> shear;
    std::vector<SpringPair> bend;
};
GridSprings buildGridSprings(uint32_t columns, uint32_t rows, std::span<const SpringPair> meshEdges,
                             uint32_t shearDiagonals);

// What appendSpringObject needs of a cloth whose particles are already in the
// model at [firstParticle, firstParticle + rest.size()).
struct SpringSource {
    uint32_t cloth = 0;                   // Scene::cloths index
    uint32_t firstParticle = 0;           // global index of local vertex 0
    std::span<const glm::dvec3> rest;     // rest positions as uploaded (float), widened to double
    std::span<const uint32_t> triangles;  // local, 3 per triangle
    uint32_t gridColumns = 0;             // 0: not a grid
    uint32_t gridRows = 0;
    SpringClothParams params;             // normalised (effectiveSpringParams)
};

// Appends one object to `ms`: its springs (rest lengths from `rest`; stretch,
// then shear, then bend: grid families for a grid with topology Grid, the
// mesh builder's otherwise), a hinge per interior edge (rest angle
// dihedralAngle of the rest positions), Bergou's quadratic entries
// (quadratic_bending.h), its SpringObject with the counts, and then the
// params' stiffnesses (spring_materials.h applySpringParams). Every bending
// representation is built; the unused ones get stiffness 0. Does not build
// the system (spring_system.h). Throws std::invalid_argument for bad params.
void appendSpringObject(MsModel& ms, const SpringSource& source);

}  // namespace vksim
