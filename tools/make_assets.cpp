// Writes the meshes in assets/ (they are committed; run this after changing
// it): `build/vksim_make_assets [folder]`, folder defaulting to assets/ in
// the source tree. Deterministic: the same program writes the same bytes.
//
//   torus.obj        a closed torus of quads (R 0.45 m, r 0.18 m): mesh
//                    collider; quads exercise the loader's polygon fans
//   gingerbread.obj  a closed, puffy gingerbread man (a star-shaped outline
//                    with head, arms and legs, 1 m tall, 0.16 m thick):
//                    collider or tetrahedralised solid
//   flag.obj         an open 1.5 m x 1 m sheet in the XY plane, written as
//                    two panels whose shared seam repeats its vertices, so
//                    loading it shows welding at work: cloth
//   t_handle.obj     a closed T of cubes (a 0.35 m bar along X, a 0.2 m stem
//                    along Z): rigid body with three distinct principal
//                    moments, for the intermediate-axis flip
//   top.obj          a closed spinning top, a surface of revolution about +Y
//                    with its tip at the origin: rigid body
//   jelly_cube.obj   a closed 0.3 m cube centred on the origin, 6 cells per
//                    edge: a shape-matched jelly
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "io/write_file.h"

namespace {

struct ObjWriter {
    std::string text;
    uint32_t vertices = 0;

    explicit ObjWriter(const std::string& comment) { text = "# " + comment + "\n# written by tools/make_assets.cpp\n"; }
    uint32_t vertex(glm::dvec3 p) {
        // -0.000000 and 0.000000 are the same vertex: print them alike.
        auto clean = [](double x) { return std::abs(x) < 5e-7 ? 0.0 : x; };
        text += fmt::format("v {:.6f} {:.6f} {:.6f}\n", clean(p.x), clean(p.y), clean(p.z));
        return ++vertices;  // OBJ numbers vertices from 1
    }
    void face(std::initializer_list<uint32_t> corners) {
        text += "f";
        for (uint32_t c : corners) text += fmt::format(" {}", c);
        text += "\n";
    }
    void save(const std::filesystem::path& file) const {
        try {
            vksim::writeWholeFile(file, text);  // replaced whole or not at all
        } catch (const vksim::WriteError& e) {
            fmt::print(stderr, "make_assets: {}\n", e.what());
            std::exit(1);
        }
        fmt::print("{}: {} vertices, {} bytes\n", file.string(), vertices, text.size());
    }
};

// Quads around the torus, counter-clockwise seen from outside.
void writeTorus(const std::filesystem::path& file) {
    const double R = 0.45, r = 0.18;
    const uint32_t around = 40, tube = 20;
    ObjWriter obj(fmt::format("torus R = {} m, r = {} m, axis +Y, {} x {} quads", R, r, around, tube));
    std::vector<uint32_t> id(around * tube);
    for (uint32_t i = 0; i < around; ++i)
        for (uint32_t j = 0; j < tube; ++j) {
            const double u = 2 * std::numbers::pi * i / around, v = 2 * std::numbers::pi * j / tube;
            id[i * tube + j] = obj.vertex({(R + r * std::cos(v)) * std::cos(u), r * std::sin(v),
                                           -(R + r * std::cos(v)) * std::sin(u)});
        }
    for (uint32_t i = 0; i < around; ++i)
        for (uint32_t j = 0; j < tube; ++j) {
            const uint32_t i1 = (i + 1) % around, j1 = (j + 1) % tube;
            obj.face({id[i * tube + j], id[i1 * tube + j], id[i1 * tube + j1], id[i * tube + j1]});
        }
    obj.save(file);
}

// The outline's distance from the centre at angle t (radians from +X): a
// round body plus a smooth lobe for the head, each arm and each leg. Any
// r(t) > 0 is star-shaped about the centre, so the scaled copies of the
// outline nest and the surface cannot intersect itself.
double gingerbreadOutline(double t) {
    struct Lobe {
        double angle, height, width;
    };
    constexpr double deg = std::numbers::pi / 180.0;
    const Lobe lobes[] = {{90 * deg, 0.30, 0.30},   {20 * deg, 0.26, 0.20},  {160 * deg, 0.26, 0.20},
                          {-62 * deg, 0.33, 0.22},  {-118 * deg, 0.33, 0.22}};
    double r = 0.22;
    for (const Lobe& lobe : lobes) {
        const double d = std::remainder(t - lobe.angle, 2 * std::numbers::pi);
        r += lobe.height * std::exp(-(d / lobe.width) * (d / lobe.width));
    }
    return r;
}

// A pillow: rings of the outline scaled by s = k / rings, raised to
// z = +-thickness/2 * sqrt(1 - s^2), meeting at the rim (s = 1, z = 0).
void writeGingerbread(const std::filesystem::path& file) {
    const uint32_t around = 48, rings = 4;
    const double halfThickness = 0.08, lift = 0.05;  // lift: the feet reach down to y = -0.42
    ObjWriter obj(fmt::format("gingerbread man, {} outline points, {} rings per side, closed", around, rings));
    auto ringPoint = [&](uint32_t i, double s, double z) {
        const double t = 2 * std::numbers::pi * i / around;
        const double r = s * gingerbreadOutline(t);
        return glm::dvec3(r * std::cos(t), r * std::sin(t) + lift, z);
    };
    // ring[side][k][i]: k = 0 is the centre point, k = rings the shared rim.
    std::vector<std::vector<std::vector<uint32_t>>> ring(2, std::vector<std::vector<uint32_t>>(rings + 1));
    std::vector<uint32_t> rim;
    for (uint32_t i = 0; i < around; ++i) rim.push_back(obj.vertex(ringPoint(i, 1.0, 0.0)));
    for (int side = 0; side < 2; ++side) {
        const double sign = side == 0 ? 1.0 : -1.0;
        ring[side][0].assign(around, obj.vertex({0.0, lift, sign * halfThickness}));
        for (uint32_t k = 1; k < rings; ++k) {
            const double s = double(k) / rings;
            for (uint32_t i = 0; i < around; ++i)
                ring[side][k].push_back(obj.vertex(ringPoint(i, s, sign * halfThickness * std::sqrt(1 - s * s))));
        }
        ring[side][rings] = rim;
    }
    for (int side = 0; side < 2; ++side)
        for (uint32_t k = 0; k < rings; ++k)
            for (uint32_t i = 0; i < around; ++i) {
                const uint32_t i1 = (i + 1) % around;
                const uint32_t a = ring[side][k][i], b = ring[side][k][i1];
                const uint32_t c = ring[side][k + 1][i], d = ring[side][k + 1][i1];
                // Front (+z) faces wind counter-clockwise seen from +z; the
                // back side mirrors them; k = 0 is the fan around the centre (a = b).
                if (side == 0) {
                    obj.face({a, c, d});
                    if (k > 0) obj.face({a, d, b});
                } else {
                    obj.face({a, d, c});
                    if (k > 0) obj.face({a, b, d});
                }
            }
    obj.save(file);
}

// Two panels side by side, each a lattice of quads split along alternating
// diagonals; the seam column is written once per panel.
void writeFlag(const std::filesystem::path& file) {
    const double width = 1.5, height = 1.0;
    const uint32_t columnsPerPanel = 15, rows = 20;  // cells
    ObjWriter obj(fmt::format("flag {} m x {} m in the XY plane (pole along x = 0), two panels of {} x {} cells "
                              "sharing a seam at x = {} (its vertices repeated: welding joins them)",
                              width, height, columnsPerPanel, rows, width / 2));
    for (int panel = 0; panel < 2; ++panel) {
        std::vector<uint32_t> id;
        for (uint32_t row = 0; row <= rows; ++row)
            for (uint32_t column = 0; column <= columnsPerPanel; ++column)
                id.push_back(obj.vertex({width / 2 * (panel + double(column) / columnsPerPanel),
                                         height * double(row) / rows, 0.0}));
        auto at = [&](uint32_t column, uint32_t row) { return id[row * (columnsPerPanel + 1) + column]; };
        for (uint32_t row = 0; row < rows; ++row)
            for (uint32_t column = 0; column < columnsPerPanel; ++column) {
                const uint32_t a = at(column, row), b = at(column + 1, row), c = at(column, row + 1),
                               d = at(column + 1, row + 1);
                if ((row + column) % 2 == 0) {
                    obj.face({a, b, d});
                    obj.face({a, d, c});
                } else {
                    obj.face({a, b, c});
                    obj.face({b, d, c});
                }
            }
    }
    obj.save(file);
}

// The boundary of a set of unit cubes (cells of side `cell`), each face not
// shared by two cubes as two triangles, counter-clockwise seen from outside;
// corners are grid points, numbered once, so the surface is welded. Closed
// and manifold for cube sets that touch along faces only.
void writeCubes(const std::filesystem::path& file, const std::string& comment, const std::vector<glm::ivec3>& cubes,
                double cell, glm::dvec3 origin) {
    ObjWriter obj(comment);
    auto filled = [&](glm::ivec3 c) {
        for (const glm::ivec3& k : cubes)
            if (k == c) return true;
        return false;
    };
    std::vector<std::pair<glm::ivec3, uint32_t>> ids;
    auto corner = [&](glm::ivec3 p) {
        for (const auto& [q, id] : ids)
            if (q == p) return id;
        const uint32_t id = obj.vertex(origin + cell * glm::dvec3(p));
        ids.emplace_back(p, id);
        return id;
    };
    for (const glm::ivec3& c : cubes)
        for (int axis = 0; axis < 3; ++axis)
            for (int side = 0; side < 2; ++side) {
                glm::ivec3 neighbour = c;
                neighbour[axis] += side == 0 ? -1 : 1;
                if (filled(neighbour)) continue;
                // The face's corners, counter-clockwise seen from its outward normal.
                const int u = (axis + 1) % 3, v = (axis + 2) % 3;
                glm::ivec3 base = c;
                base[axis] += side;
                glm::ivec3 du(0), dv(0);
                du[u] = 1;
                dv[v] = 1;
                const uint32_t a = corner(base), b = corner(base + du), d = corner(base + dv), e = corner(base + du + dv);
                // (u, v, axis) is right-handed: u x v = +axis, so a, b, e, d runs counter-clockwise seen from +axis.
                if (side == 1) {
                    obj.face({a, b, e});
                    obj.face({a, e, d});
                } else {
                    obj.face({a, e, b});
                    obj.face({a, d, e});
                }
            }
    obj.save(file);
}

void writeTHandle(const std::filesystem::path& file) {
    std::vector<glm::ivec3> cubes;
    for (int x = 0; x < 7; ++x) cubes.emplace_back(x, 0, 0);  // the bar
    for (int z = 1; z <= 4; ++z) cubes.emplace_back(3, 0, z);  // the stem, from the bar's middle
    writeCubes(file, "T-handle: a bar of 7 cubes along X and a stem of 4 along Z, 0.05 m cubes", cubes, 0.05,
               glm::dvec3(-0.175, -0.025, -0.025));
}

void writeJellyCube(const std::filesystem::path& file) {
    std::vector<glm::ivec3> cubes;
    for (int x = 0; x < 6; ++x)
        for (int y = 0; y < 6; ++y)
            for (int z = 0; z < 6; ++z) cubes.emplace_back(x, y, z);
    writeCubes(file, "jelly cube: the surface of a 0.3 m cube, 6 cells of 0.05 m per edge", cubes, 0.05,
               glm::dvec3(-0.15, -0.15, -0.15));
}

// A surface of revolution about +Y through the profile (radius, height),
// from the tip (radius 0) to the top pole (radius 0): rings of `slices`
// vertices, single vertices at the poles.
void writeTop(const std::filesystem::path& file) {
    const std::vector<glm::dvec2> profile = {{0.0, 0.0},    {0.03, 0.02},  {0.09, 0.06},  {0.14, 0.1},
                                             {0.15, 0.115}, {0.14, 0.13},  {0.05, 0.15},  {0.015, 0.16},
                                             {0.015, 0.24}, {0.0, 0.245}};
    const uint32_t slices = 32;
    ObjWriter obj(fmt::format("spinning top: surface of revolution about +Y, tip at the origin, {} slices", slices));
    const uint32_t tip = obj.vertex({0.0, profile.front().y, 0.0});
    std::vector<uint32_t> rings;
    for (size_t k = 1; k + 1 < profile.size(); ++k)
        for (uint32_t s = 0; s < slices; ++s) {
            const double a = 2.0 * std::numbers::pi * s / slices;
            rings.push_back(obj.vertex({profile[k].x * std::cos(a), profile[k].y, -profile[k].x * std::sin(a)}));
        }
    const uint32_t top = obj.vertex({0.0, profile.back().y, 0.0});
    const uint32_t ringCount = static_cast<uint32_t>(profile.size() - 2);
    auto at = [&](uint32_t ring, uint32_t s) { return rings[ring * slices + s % slices]; };
    // Angle a runs counter-clockwise seen from +Y (x = cos a, z = -sin a).
    for (uint32_t s = 0; s < slices; ++s) obj.face({tip, at(0, s + 1), at(0, s)});
    for (uint32_t ring = 0; ring + 1 < ringCount; ++ring)
        for (uint32_t s = 0; s < slices; ++s) obj.face({at(ring, s), at(ring, s + 1), at(ring + 1, s + 1), at(ring + 1, s)});
    for (uint32_t s = 0; s < slices; ++s) obj.face({top, at(ringCount - 1, s), at(ringCount - 1, s + 1)});
    obj.save(file);
}

}  // namespace

int main(int argc, char** argv) {
    const std::filesystem::path folder = argc > 1 ? argv[1] : VKSIM_ASSET_DIR;
    std::filesystem::create_directories(folder);
    writeTorus(folder / "torus.obj");
    writeGingerbread(folder / "gingerbread.obj");
    writeFlag(folder / "flag.obj");
    writeTHandle(folder / "t_handle.obj");
    writeTop(folder / "top.obj");
    writeJellyCube(folder / "jelly_cube.obj");
    return 0;
}
