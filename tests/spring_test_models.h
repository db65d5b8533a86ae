#pragma once
// Mass-spring models built by hand for the tests (not by the scene's
// builder): particles, springs and optional hinges and quadratic bending
// entries, with MsModel's incidence lists, Newton block pattern and vertex
// colours filled in the way spring_model.h describes. The whole model is
// the mass-spring range (firstParticle 0).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include <glm/glm.hpp>

#include "solvers/sim_model.h"

namespace vksim::test {

struct SpringTestParticle {
    glm::vec3 position{0.0f};
    float mass = 1.0f;  // 0 pins the particle
    glm::vec3 velocity{0.0f};
    float drag = 0.0f;  // sigma [kg/s]
};

// One symmetric entry of the quadratic bending matrix, k Q_ij (i <= j): it
// is stored in both rows.
struct SpringTestQuadratic {
    uint32_t i = 0, j = 0;
    float value = 0.0f;
};

struct SpringTestSystem {
    std::vector<SpringTestParticle> particles;
    std::vector<gpu::MsSpring> springs;
    std::vector<gpu::MsHinge> hinges;
    std::vector<SpringTestQuadratic> quadratic;
};

inline gpu::MsSpring testSpring(uint32_t i, uint32_t j, float restLength, float stiffness, uint32_t kind = 0) {
    return gpu::MsSpring{i, j, restLength, stiffness, 1.0f, 0.0f, kind, 0};
}

inline SimModel makeSpringModel(const SpringTestSystem& system) {
    SimModel model;
    const uint32_t n = static_cast<uint32_t>(system.particles.size());
    for (const SpringTestParticle& p : system.particles) {
        model.positions.emplace_back(p.position, p.mass > 0.0f ? 1.0f / p.mass : 0.0f);
        model.velocities.emplace_back(p.velocity, 0.0f);
    }
    MsModel& ms = model.springs;
    ms.firstParticle = 0;
    ms.particleCount = n;
    ms.springs = system.springs;
    ms.hinges = system.hinges;

    // Per row: incident springs and hinges by index, quadratic entries by column.
    std::vector<std::vector<uint32_t>> springsOf(n), hingesOf(n);
    std::vector<std::map<uint32_t, float>> quadraticOf(n);
    std::vector<std::set<uint32_t>> neighbours(n);  // block columns, and the colouring's graph
    for (uint32_t s = 0; s < ms.springs.size(); ++s) {
        const gpu::MsSpring& e = ms.springs[s];
        springsOf[e.i].push_back(s);
        springsOf[e.j].push_back(s);
        neighbours[e.i].insert(e.j);
        neighbours[e.j].insert(e.i);
    }
    for (uint32_t h = 0; h < ms.hinges.size(); ++h) {
        const gpu::MsHinge& e = ms.hinges[h];
        for (uint32_t v : {e.v0, e.v1, e.v2, e.v3}) hingesOf[v].push_back(h);
    }
    for (const SpringTestQuadratic& q : system.quadratic) {
        quadraticOf[q.i][q.j] += q.value;
        if (q.i != q.j) quadraticOf[q.j][q.i] += q.value;
        neighbours[q.i].insert(q.j);
        neighbours[q.j].insert(q.i);
    }
    for (uint32_t r = 0; r < n; ++r) {
        neighbours[r].insert(r);
        for (uint32_t c : neighbours[r]) ms.blockColumns.push_back(c);
        ms.blockRowStart.push_back(static_cast<uint32_t>(ms.blockColumns.size()));
    }
    auto blockOf = [&](uint32_t row, uint32_t column) {
        const auto begin = ms.blockColumns.begin() + ms.blockRowStart[row];
        const auto end = ms.blockColumns.begin() + ms.blockRowStart[row + 1];
        return static_cast<uint32_t>(std::lower_bound(begin, end, column) - ms.blockColumns.begin());
    };
    for (uint32_t r = 0; r < n; ++r) {
        gpu::MsParticle p{};
        p.firstSpring = static_cast<uint32_t>(ms.incidentSprings.size());
        for (uint32_t s : springsOf[r]) {
            const gpu::MsSpring& e = ms.springs[s];
            ms.incidentSprings.push_back({s, blockOf(r, e.i == r ? e.j : e.i)});
        }
        p.springCount = static_cast<uint32_t>(springsOf[r].size());
        p.firstHinge = static_cast<uint32_t>(ms.incidentHinges.size());
        for (uint32_t h : hingesOf[r]) {
            const gpu::MsHinge& e = ms.hinges[h];
            const uint32_t role = e.v0 == r ? 0 : e.v1 == r ? 1 : e.v2 == r ? 2 : 3;
            ms.incidentHinges.push_back(h * 4 + role);
        }
        p.hingeCount = static_cast<uint32_t>(hingesOf[r].size());
        p.firstQuadratic = static_cast<uint32_t>(ms.quadratic.size());
        for (const auto& [column, value] : quadraticOf[r])
            ms.quadratic.push_back({column, value, blockOf(r, column), 0});
        p.quadraticCount = static_cast<uint32_t>(quadraticOf[r].size());
        p.diagonalBlock = blockOf(r, r);
        p.drag = system.particles[r].drag;
        ms.particles.push_back(p);
    }

    // Greedy colouring in index order: the smallest colour no neighbour has.
    std::vector<uint32_t> color(n, 0);
    uint32_t colours = 0;
    for (uint32_t r = 0; r < n; ++r) {
        std::set<uint32_t> taken;
        for (uint32_t c : neighbours[r])
            if (c < r) taken.insert(color[c]);
        while (taken.count(color[r])) ++color[r];
        colours = std::max(colours, color[r] + 1);
    }
    for (uint32_t c = 0; c < colours; ++c) {
        MsModel::Colour range{static_cast<uint32_t>(ms.vertexOrder.size()), 0};
        for (uint32_t r = 0; r < n; ++r)
            if (color[r] == c) ms.vertexOrder.push_back(r);
        range.count = static_cast<uint32_t>(ms.vertexOrder.size()) - range.first;
        ms.vertexColours.push_back(range);
    }
    return model;
}

// A square grid cloth of nx x nz particles, spacing `s`, in the XZ plane:
// structural springs (stretch), both cell diagonals (shear), skip-one
// springs (bend); each cell's diagonal (a, b)-(a+1, b+1) is a hinge (rest
// angle 0) with stiffness `hinge`, and carries a flat-rest quadratic
// stencil K = (1, 1, -1, -1) on (edge ends, tips), Q = quadratic K K^T: a
// square's diagonals share their midpoint, so K x = 0 at rest, and K sums
// to zero, so Q moves no momentum.
struct GridParams {
    uint32_t nx = 4, nz = 4;
    float spacing = 0.1f;
    float massPerParticle = 0.01f;
    float stretch = 100.0f, shear = 20.0f, bend = 5.0f;
    float hinge = 0.0f;
    float quadratic = 0.0f;
};

inline SpringTestSystem gridSystem(const GridParams& g) {
    SpringTestSystem system;
    auto id = [&](uint32_t a, uint32_t b) { return b * g.nx + a; };
    for (uint32_t b = 0; b < g.nz; ++b)
        for (uint32_t a = 0; a < g.nx; ++a)
            system.particles.push_back({glm::vec3(float(a) * g.spacing, 0.0f, float(b) * g.spacing),
                                        g.massPerParticle, glm::vec3(0.0f), 0.0f});
    const float s = g.spacing, d = s * std::sqrt(2.0f);
    for (uint32_t b = 0; b < g.nz; ++b)
        for (uint32_t a = 0; a < g.nx; ++a) {
            if (a + 1 < g.nx) system.springs.push_back(testSpring(id(a, b), id(a + 1, b), s, g.stretch, 0));
            if (b + 1 < g.nz) system.springs.push_back(testSpring(id(a, b), id(a, b + 1), s, g.stretch, 0));
            if (a + 1 < g.nx && b + 1 < g.nz) {
                system.springs.push_back(testSpring(id(a, b), id(a + 1, b + 1), d, g.shear, 1));
                system.springs.push_back(testSpring(id(a + 1, b), id(a, b + 1), d, g.shear, 1));
                const uint32_t v0 = id(a, b), v1 = id(a + 1, b + 1), v2 = id(a + 1, b), v3 = id(a, b + 1);
                system.hinges.push_back(gpu::MsHinge{v0, v1, v2, v3, 0.0f, g.hinge, 0.0f, 0.0f});
                if (g.quadratic != 0.0f) {
                    const uint32_t v[4] = {v0, v1, v2, v3};
                    const float K[4] = {1.0f, 1.0f, -1.0f, -1.0f};
                    for (int p = 0; p < 4; ++p)
                        for (int q = p; q < 4; ++q)
                            system.quadratic.push_back({std::min(v[p], v[q]), std::max(v[p], v[q]),
                                                        g.quadratic * K[p] * K[q]});
                }
            }
            if (a + 2 < g.nx) system.springs.push_back(testSpring(id(a, b), id(a + 2, b), 2 * s, g.bend, 2));
            if (b + 2 < g.nz) system.springs.push_back(testSpring(id(a, b), id(a, b + 2), 2 * s, g.bend, 2));
        }
    return system;
}

}  // namespace vksim::test
