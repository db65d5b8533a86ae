#pragma once
// Procedural tetrahedral meshes for projective dynamics solids: a box
// subdivided into cube cells of 6 tetrahedra each, and a ball made of the
// cells of a grid inside a sphere with its surface vertices moved onto the
// sphere. Every tetrahedron (a, b, c, d) is positively oriented:
// det[b - a, c - a, d - a] > 0. The surface (the faces of exactly one
// tetrahedron) is what the renderer draws.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

struct TetMesh {
    std::vector<glm::dvec3> positions;
    std::vector<glm::uvec4> tets;
    // 3 indices per boundary triangle, counter-clockwise seen from outside.
    std::vector<uint32_t> surface;
};

// A box of `size` centred at the origin, cells.x x cells.y x cells.z cubes
// (each >= 1), each split into the 6 tetrahedra of the Kuhn (Freudenthal)
// subdivision around its diagonal from the lowest to the highest corner.
// Every cell uses the same diagonal direction, so faces match between cells.
// Vertex (i, j, k) is i + (cells.x + 1) (j + (cells.y + 1) k).
TetMesh buildTetBox(glm::dvec3 size, glm::uvec3 cells);

// A ball of `radius` centred at the origin: buildTetBox of the cube
// [-radius, radius]^3 with `cellsAcross` cells per axis (>= 2), mapped onto
// the ball by p -> p |p|_inf / |p|_2 (surface vertices land on the sphere).
TetMesh buildTetBall(double radius, uint32_t cellsAcross);

// Signed volume (1/6) det[b - a, c - a, d - a].
double tetVolume(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const glm::dvec3& d);

// Throws std::invalid_argument naming `owner` and the first tetrahedron that
// is inverted (negative volume) or degenerate (volume at most
// 1e-12 * (longest edge)^3), or that uses a vertex index out of range.
void validateTets(std::span<const glm::dvec3> positions, std::span<const glm::uvec4> tets, const std::string& owner);

// The faces of exactly one tetrahedron, oriented outwards, in the order of
// the tetrahedra. Faces shared by three or more tetrahedra make the mesh
// invalid (std::invalid_argument).
std::vector<uint32_t> tetBoundary(std::span<const glm::dvec3> positions, std::span<const glm::uvec4> tets);

// Lumped masses: each tetrahedron gives a quarter of its share of
// `totalMass` (in proportion to its volume) to each of its vertices.
std::vector<double> lumpedTetMasses(std::span<const glm::dvec3> positions, std::span<const glm::uvec4> tets,
                                    double totalMass);

}  // namespace vksim
