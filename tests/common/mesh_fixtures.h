#pragma once
// Meshes and files for the tests of mesh loading, SDF baking and mesh
// colliders: a scratch folder that cleans up after itself, an icosphere and
// a UV sphere written as OBJ text, the corpus in tests/meshes/.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <glm/glm.hpp>
#include <unistd.h>

namespace vksim::test {

// A new empty folder under the system's temporary folder, removed (with its
// contents) when the object goes.
class ScratchFolder {
public:
    ScratchFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "vksim-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch folder");
        path_ = pattern;
    }
    ~ScratchFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline void writeTextFile(const std::filesystem::path& file, const std::string& text) {
    std::FILE* out = std::fopen(file.c_str(), "wb");
    if (!out) throw std::runtime_error("cannot write " + file.string());
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
}

// tests/meshes/<name> in the source tree.
// Writes a tetrahedral mesh as TetGen files `stem`.node and `stem`.ele,
// numbered from 1, coordinates to 17 digits (they read back exactly).
inline void writeTetGenFiles(const std::vector<glm::dvec3>& positions, const std::vector<glm::uvec4>& tets,
                             const std::filesystem::path& stem) {
    std::string node = fmt::format("{} 3 0 0\n", positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i)
        node += fmt::format("{} {:.17g} {:.17g} {:.17g}\n", i + 1, positions[i].x, positions[i].y, positions[i].z);
    std::string ele = fmt::format("{} 4 0\n", tets.size());
    for (std::size_t i = 0; i < tets.size(); ++i)
        ele += fmt::format("{} {} {} {} {}\n", i + 1, tets[i].x + 1, tets[i].y + 1, tets[i].z + 1, tets[i].w + 1);
    writeTextFile(stem.string() + ".node", node);
    writeTextFile(stem.string() + ".ele", ele);
}

inline std::filesystem::path meshCorpus(const std::string& name) {
    return std::filesystem::path(VKSIM_SOURCE_DIR) / "tests" / "meshes" / name;
}

// A triangle mesh as OBJ text (vertices to 17 digits: they read back exactly).
inline std::string objText(const std::string& comment, const std::vector<glm::dvec3>& positions,
                           const std::vector<glm::uvec3>& triangles) {
    std::string text = "# " + comment + "\n";
    text.reserve(text.size() + positions.size() * 64 + triangles.size() * 24);
    for (const glm::dvec3& p : positions) text += fmt::format("v {:.17g} {:.17g} {:.17g}\n", p.x, p.y, p.z);
    for (const glm::uvec3& t : triangles) text += fmt::format("f {} {} {}\n", t.x + 1, t.y + 1, t.z + 1);
    return text;
}

// A sphere of `radius` at the origin: an icosahedron whose triangles are
// split in four `subdivisions` times, every vertex pushed onto the sphere.
// Closed, wound outwards; 20 * 4^subdivisions triangles.
struct Icosphere {
    std::vector<glm::dvec3> positions;
    std::vector<glm::uvec3> triangles;

    // The largest distance between the sphere and the polyhedron: the depth
    // of the deepest face centre, r - min over faces of |centroid| (a
    // face's closest point to the centre is its centroid for these nearly
    // equilateral faces, to well under a percent of this depth).
    double sagitta(double radius) const {
        double depth = 0.0;
        for (const glm::uvec3& t : triangles)
            depth = std::max(depth, radius - glm::length((positions[t.x] + positions[t.y] + positions[t.z]) / 3.0));
        return depth;
    }

    std::string obj() const { return objText("icosphere", positions, triangles); }
};

inline Icosphere makeIcosphere(double radius, int subdivisions) {
    const double g = (1.0 + std::sqrt(5.0)) / 2.0;
    Icosphere s;
    for (glm::dvec3 p : {glm::dvec3(-1, g, 0), glm::dvec3(1, g, 0), glm::dvec3(-1, -g, 0), glm::dvec3(1, -g, 0),
                         glm::dvec3(0, -1, g), glm::dvec3(0, 1, g), glm::dvec3(0, -1, -g), glm::dvec3(0, 1, -g),
                         glm::dvec3(g, 0, -1), glm::dvec3(g, 0, 1), glm::dvec3(-g, 0, -1), glm::dvec3(-g, 0, 1)})
        s.positions.push_back(radius * glm::normalize(p));
    s.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                   {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                   {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    for (int level = 0; level < subdivisions; ++level) {
        std::map<std::pair<uint32_t, uint32_t>, uint32_t> middles;
        auto middle = [&](uint32_t a, uint32_t b) {
            auto [it, added] = middles.try_emplace({std::min(a, b), std::max(a, b)}, 0u);
            if (added) {
                it->second = static_cast<uint32_t>(s.positions.size());
                s.positions.push_back(radius * glm::normalize(s.positions[a] + s.positions[b]));
            }
            return it->second;
        };
        std::vector<glm::uvec3> finer;
        for (const glm::uvec3& t : s.triangles) {
            const uint32_t ab = middle(t.x, t.y), bc = middle(t.y, t.z), ca = middle(t.z, t.x);
            finer.insert(finer.end(), {{t.x, ab, ca}, {t.y, bc, ab}, {t.z, ca, bc}, {ab, bc, ca}});
        }
        s.triangles = std::move(finer);
    }
    return s;
}

// A UV sphere of `radius` at the origin: `rings` bands of latitude between
// two pole vertices, `segments` vertices around each inner ring; the poles
// are fans of `segments` triangles, so each pole vertex has valence
// `segments` (the pathological colouring of docs/physics.md §1: its
// `segments` edges need as many colours). Vertex 0 is the north pole (+y),
// the last the south pole. Closed, wound outwards; segments * (rings - 1) + 2
// vertices, 2 * segments * (rings - 1) triangles.
struct UvSphere {
    std::vector<glm::dvec3> positions;
    std::vector<glm::uvec3> triangles;

    std::string obj() const { return objText("UV sphere", positions, triangles); }
};

inline UvSphere makeUvSphere(double radius, uint32_t segments, uint32_t rings) {
    if (segments < 3 || rings < 2) throw std::invalid_argument("makeUvSphere: needs 3 segments and 2 rings");
    UvSphere s;
    s.positions.push_back({0.0, radius, 0.0});
    for (uint32_t r = 1; r < rings; ++r)
        for (uint32_t k = 0; k < segments; ++k) {
            const double theta = std::numbers::pi * r / rings, phi = 2.0 * std::numbers::pi * k / segments;
            s.positions.push_back(radius * glm::dvec3(std::sin(theta) * std::cos(phi), std::cos(theta),
                                                      std::sin(theta) * std::sin(phi)));
        }
    const auto south = static_cast<uint32_t>(s.positions.size());
    s.positions.push_back({0.0, -radius, 0.0});
    auto at = [&](uint32_t ring, uint32_t k) { return 1 + (ring - 1) * segments + k % segments; };
    // Each triangle wound so that its normal points away from the centre.
    auto add = [&](uint32_t a, uint32_t b, uint32_t c) {
        const glm::dvec3 n = glm::cross(s.positions[b] - s.positions[a], s.positions[c] - s.positions[a]);
        if (glm::dot(n, s.positions[a] + s.positions[b] + s.positions[c]) < 0.0) std::swap(b, c);
        s.triangles.push_back({a, b, c});
    };
    for (uint32_t k = 0; k < segments; ++k) add(0, at(1, k), at(1, k + 1));
    for (uint32_t r = 1; r + 1 < rings; ++r)
        for (uint32_t k = 0; k < segments; ++k) {
            add(at(r, k), at(r + 1, k), at(r + 1, k + 1));
            add(at(r, k), at(r + 1, k + 1), at(r, k + 1));
        }
    for (uint32_t k = 0; k < segments; ++k) add(south, at(rings - 1, k + 1), at(rings - 1, k));
    return s;
}

}  // namespace vksim::test
