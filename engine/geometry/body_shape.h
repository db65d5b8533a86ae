#pragma once
// The surface a rigid primitive is drawn with. Its vertices are also the
// body's contact points (docs/physics.md §7 tests every vertex against the
// SDF), so each shape puts vertices where contacts happen: a box on its
// faces, edges and corners. Every surface is a closed 2-manifold, welded (no
// two vertices at one place), wound counter-clockwise seen from outside, and
// so also valid input to polyhedronMassProperties.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

// Closed, outward counter-clockwise winding, in the body frame centred at
// the shape's centre.
struct BodySurface { std::vector<glm::dvec3> positions; std::vector<uint32_t> triangles; };

// Each face an (n x n) grid of quads split into two triangles; shared
// vertices on edges and corners welded so that the surface is closed.
// cellsPerEdge >= 1; 1 gives the 8 corners only (6 n² + 2 vertices).
BodySurface boxSurface(glm::dvec3 halfExtents, uint32_t cellsPerEdge);

// Icosphere: the icosahedron subdivided `subdivisions` times (each triangle
// into four at its edge midpoints), vertices projected onto the sphere;
// 10 * 4^s + 2 vertices, all on the sphere (an inscribed polyhedron).
BodySurface sphereSurface(double radius, uint32_t subdivisions);

// Axis along Y. Each cap has `stacksPerCap` rings of `slices` vertices from
// the pole down to its equator, the poles are single vertices, and one band
// of quads joins the two equators (halfLength 0 shares one equator, a UV
// sphere). slices >= 3, stacksPerCap >= 1; every vertex is on the capsule.
BodySurface capsuleSurface(double radius, double halfLength, uint32_t slices, uint32_t stacksPerCap);

}  // namespace vksim
