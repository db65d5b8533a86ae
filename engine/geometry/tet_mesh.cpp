#include "geometry/tet_mesh.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace vksim {
namespace {

// The 6 tetrahedra of a cube with corners numbered x + 2y + 4z: one per
// ordering of the axes, walking from corner 0 to corner 7 one axis at a time.
constexpr std::array<std::array<uint32_t, 4>, 6> kKuhnTets = {{
    {0, 1, 3, 7},  // x, y, z
    {0, 1, 5, 7},  // x, z, y
    {0, 2, 3, 7},  // y, x, z
    {0, 2, 6, 7},  // y, z, x
    {0, 4, 5, 7},  // z, x, y
    {0, 4, 6, 7},  // z, y, x
}};

// Appends the 6 tetrahedra of the cell whose 8 corners are `corner`, each
// ordered so that its volume is positive.
void appendKuhnCell(const std::array<uint32_t, 8>& corner, const std::vector<glm::dvec3>& positions,
                    std::vector<glm::uvec4>& tets) {
    for (const auto& t : kKuhnTets) {
        glm::uvec4 tet(corner[t[0]], corner[t[1]], corner[t[2]], corner[t[3]]);
        if (tetVolume(positions[tet.x], positions[tet.y], positions[tet.z], positions[tet.w]) < 0.0)
            std::swap(tet.z, tet.w);
        tets.push_back(tet);
    }
}

struct Grid {
    glm::uvec3 cells;
    uint32_t vertex(uint32_t i, uint32_t j, uint32_t k) const {
        return i + (cells.x + 1) * (j + (cells.y + 1) * k);
    }
    std::array<uint32_t, 8> corners(uint32_t i, uint32_t j, uint32_t k) const {
        std::array<uint32_t, 8> c{};
        for (uint32_t b = 0; b < 8; ++b) c[b] = vertex(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
        return c;
    }
};

std::vector<glm::dvec3> gridPositions(const Grid& grid, glm::dvec3 size) {
    std::vector<glm::dvec3> positions;
    for (uint32_t k = 0; k <= grid.cells.z; ++k)
        for (uint32_t j = 0; j <= grid.cells.y; ++j)
            for (uint32_t i = 0; i <= grid.cells.x; ++i)
                positions.push_back(glm::dvec3((double(i) / grid.cells.x - 0.5) * size.x,
                                               (double(j) / grid.cells.y - 0.5) * size.y,
                                               (double(k) / grid.cells.z - 0.5) * size.z));
    return positions;
}

}  // namespace

double tetVolume(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const glm::dvec3& d) {
    return glm::dot(glm::cross(b - a, c - a), d - a) / 6.0;
}

TetMesh buildTetBox(glm::dvec3 size, glm::uvec3 cells) {
    if (cells.x < 1 || cells.y < 1 || cells.z < 1)
        throw std::invalid_argument(fmt::format("tet box: {}x{}x{} cells; at least 1 per axis", cells.x, cells.y,
                                                cells.z));
    const Grid grid{cells};
    TetMesh mesh;
    mesh.positions = gridPositions(grid, size);
    for (uint32_t k = 0; k < cells.z; ++k)
        for (uint32_t j = 0; j < cells.y; ++j)
            for (uint32_t i = 0; i < cells.x; ++i) appendKuhnCell(grid.corners(i, j, k), mesh.positions, mesh.tets);
    mesh.surface = tetBoundary(mesh.positions, mesh.tets);
    return mesh;
}

TetMesh buildTetBall(double radius, uint32_t cellsAcross) {
    if (cellsAcross < 2) throw std::invalid_argument("tet ball: needs at least 2 cells across");
    // The cube [-r, r]^3 mapped onto the ball by p -> p |p|_inf / |p|_2: a
    // bijection, homogeneous of degree 1, that takes the cube's surface onto
    // the sphere, so every surface vertex lies on it.
    TetMesh mesh = buildTetBox(glm::dvec3(2.0 * radius), glm::uvec3(cellsAcross));
    for (glm::dvec3& p : mesh.positions) {
        const double l2 = glm::length(p);
        if (l2 > 0.0) p *= std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) / l2;
    }
    return mesh;
}

void validateTets(std::span<const glm::dvec3> positions, std::span<const glm::uvec4> tets, const std::string& owner) {
    for (size_t e = 0; e < tets.size(); ++e) {
        const glm::uvec4 t = tets[e];
        for (int k = 0; k < 4; ++k)
            if (t[k] >= positions.size())
                throw std::invalid_argument(fmt::format("{}: tetrahedron {} uses vertex {}, but there are only {}",
                                                        owner, e, t[k], positions.size()));
        const glm::dvec3 a = positions[t.x], b = positions[t.y], c = positions[t.z], d = positions[t.w];
        double longest = 0.0;
        for (const glm::dvec3& edge : {b - a, c - a, d - a, c - b, d - b, d - c})
            longest = std::max(longest, glm::length(edge));
        const double volume = tetVolume(a, b, c, d);
        if (!(std::abs(volume) > 1e-12 * longest * longest * longest))
            throw std::invalid_argument(fmt::format("{}: tetrahedron {} (vertices {}, {}, {}, {}) is degenerate "
                                                    "(volume {:.3g})",
                                                    owner, e, t.x, t.y, t.z, t.w, volume));
        if (volume < 0.0)
            throw std::invalid_argument(fmt::format("{}: tetrahedron {} (vertices {}, {}, {}, {}) is inverted "
                                                    "(volume {:.3g}; expected det[b-a, c-a, d-a] > 0)",
                                                    owner, e, t.x, t.y, t.z, t.w, volume));
    }
}

std::vector<uint32_t> tetBoundary(std::span<const glm::dvec3> positions, std::span<const glm::uvec4> tets) {
    struct Face {
        std::array<uint32_t, 3> oriented;
        uint32_t count = 0;
        size_t order = 0;
    };
    std::map<std::array<uint32_t, 3>, Face> faces;
    size_t order = 0;
    for (const glm::uvec4& t : tets) {
        // Face k is the one opposite vertex k.
        for (int k = 0; k < 4; ++k) {
            std::array<uint32_t, 3> f{t[(k + 1) % 4], t[(k + 2) % 4], t[(k + 3) % 4]};
            // Outwards: the opposite vertex lies behind the face's normal.
            const glm::dvec3 n = glm::cross(positions[f[1]] - positions[f[0]], positions[f[2]] - positions[f[0]]);
            if (glm::dot(n, positions[t[k]] - positions[f[0]]) > 0.0) std::swap(f[1], f[2]);
            std::array<uint32_t, 3> key = f;
            std::sort(key.begin(), key.end());
            Face& face = faces[key];
            if (face.count++ == 0) {
                face.oriented = f;
                face.order = order++;
            }
        }
    }
    std::vector<const Face*> boundary;
    for (const auto& [key, face] : faces) {
        if (face.count > 2)
            throw std::invalid_argument(fmt::format("tet mesh: face ({}, {}, {}) is shared by {} tetrahedra", key[0],
                                                    key[1], key[2], face.count));
        if (face.count == 1) boundary.push_back(&face);
    }
    std::sort(boundary.begin(), boundary.end(), [](const Face* a, const Face* b) { return a->order < b->order; });
    std::vector<uint32_t> triangles;
    for (const Face* face : boundary) triangles.insert(triangles.end(), face->oriented.begin(), face->oriented.end());
    return triangles;
}

std::vector<double> lumpedTetMasses(std::span<const glm::dvec3> positions, std::span<const glm::uvec4> tets,
                                    double totalMass) {
    std::vector<double> volumes;
    double total = 0.0;
    for (const glm::uvec4& t : tets) {
        volumes.push_back(std::abs(tetVolume(positions[t.x], positions[t.y], positions[t.z], positions[t.w])));
        total += volumes.back();
    }
    std::vector<double> masses(positions.size(), 0.0);
    if (total <= 0.0) return masses;
    for (size_t e = 0; e < tets.size(); ++e)
        for (int k = 0; k < 4; ++k) masses[tets[e][k]] += 0.25 * totalMass * volumes[e] / total;
    return masses;
}

}  // namespace vksim
