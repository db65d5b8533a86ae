#include "solvers/springs/spring_system.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "solvers/vertex_colouring.h"

namespace vksim {
namespace {

// Compressed rows built in two passes (count, then fill in element order),
// so each row keeps the order in which `forEach` visits its items.
template <class Item, class ForEach>
void fillRows(uint32_t rowCount, std::vector<uint32_t>& rowStart, std::vector<Item>& items, ForEach forEach) {
    rowStart.assign(size_t(rowCount) + 1, 0);
    forEach([&](uint32_t row, const Item&) { ++rowStart[row + 1]; });
    for (uint32_t r = 0; r < rowCount; ++r) rowStart[r + 1] += rowStart[r];
    items.resize(rowStart[rowCount]);
    std::vector<uint32_t> next(rowStart.begin(), rowStart.end() - 1);
    forEach([&](uint32_t row, const Item& item) { items[next[row]++] = item; });
}

class LocalIndex {
public:
    LocalIndex(const MsModel& ms) : first_(ms.firstParticle), count_(ms.particleCount) {}
    uint32_t operator()(uint32_t global, std::string_view what, size_t index) const {
        if (global < first_ || global - first_ >= count_)
            throw std::invalid_argument(fmt::format("mass-spring {} {} names particle {}, outside [{}, {})", what,
                                                    index, global, first_, first_ + count_));
        return global - first_;
    }

private:
    uint32_t first_;
    uint32_t count_;
};

// Index in blockColumns of column `column` of row `row` (both local).
uint32_t blockOf(const MsModel& ms, uint32_t row, uint32_t column) {
    const auto begin = ms.blockColumns.begin() + ms.blockRowStart[row];
    const auto end = ms.blockColumns.begin() + ms.blockRowStart[row + 1];
    const auto at = std::lower_bound(begin, end, column);
    if (at == end || *at != column) throw std::logic_error("buildSpringSystem: a block is missing from the pattern");
    return static_cast<uint32_t>(at - ms.blockColumns.begin());
}

void buildIncidence(MsModel& ms, const LocalIndex& local) {
    const uint32_t n = ms.particleCount;
    std::vector<uint32_t> springStart, hingeStart, quadraticStart;
    fillRows(n, springStart, ms.incidentSprings, [&](auto emit) {
        for (uint32_t s = 0; s < ms.springs.size(); ++s) {
            emit(local(ms.springs[s].i, "spring", s), gpu::MsIncidentSpring{s, 0});
            emit(local(ms.springs[s].j, "spring", s), gpu::MsIncidentSpring{s, 0});
        }
    });
    fillRows(n, hingeStart, ms.incidentHinges, [&](auto emit) {
        for (uint32_t h = 0; h < ms.hinges.size(); ++h) {
            const gpu::MsHinge& hinge = ms.hinges[h];
            const uint32_t v[4] = {hinge.v0, hinge.v1, hinge.v2, hinge.v3};
            for (uint32_t role = 0; role < 4; ++role) emit(local(v[role], "hinge", h), h * 4 + role);
        }
    });
    // Quadratic rows are already contiguous and sorted (quadratic_bending.h).
    if (ms.quadraticRows.size() != ms.quadratic.size())
        throw std::invalid_argument("buildSpringSystem: quadraticRows does not match the quadratic entries");
    quadraticStart.assign(size_t(n) + 1, 0);
    for (size_t e = 0; e < ms.quadratic.size(); ++e) {
        const uint32_t row = local(ms.quadraticRows[e], "quadratic entry", e);
        local(ms.quadratic[e].column, "quadratic entry", e);
        if (e > 0 && (ms.quadraticRows[e - 1] > ms.quadraticRows[e] ||
                      (ms.quadraticRows[e - 1] == ms.quadraticRows[e] &&
                       ms.quadratic[e - 1].column >= ms.quadratic[e].column)))
            throw std::invalid_argument("buildSpringSystem: quadratic entries are not sorted by row and column");
        ++quadraticStart[row + 1];
    }
    for (uint32_t r = 0; r < n; ++r) quadraticStart[r + 1] += quadraticStart[r];

    ms.particles.assign(n, gpu::MsParticle{});
    for (uint32_t r = 0; r < n; ++r) {
        gpu::MsParticle& p = ms.particles[r];
        p.firstSpring = springStart[r];
        p.springCount = springStart[r + 1] - springStart[r];
        p.firstHinge = hingeStart[r];
        p.hingeCount = hingeStart[r + 1] - hingeStart[r];
        p.firstQuadratic = quadraticStart[r];
        p.quadraticCount = quadraticStart[r + 1] - quadraticStart[r];
    }
    for (const SpringObject& object : ms.objects)
        for (uint32_t p = 0; p < object.particleCount; ++p)
            ms.particles[local(object.firstParticle + p, "object particle", p)].drag = object.params.drag;
}

// Row r: r, its springs' other ends, its quadratic columns; sorted, unique.
void buildPattern(MsModel& ms) {
    const uint32_t n = ms.particleCount;
    ms.blockRowStart.assign(1, 0);
    ms.blockColumns.clear();
    std::vector<uint32_t> row;
    for (uint32_t r = 0; r < n; ++r) {
        const gpu::MsParticle& p = ms.particles[r];
        row.assign(1, r);
        for (uint32_t k = p.firstSpring; k < p.firstSpring + p.springCount; ++k) {
            const gpu::MsSpring& spring = ms.springs[ms.incidentSprings[k].spring];
            row.push_back((spring.i - ms.firstParticle == r ? spring.j : spring.i) - ms.firstParticle);
        }
        for (uint32_t e = p.firstQuadratic; e < p.firstQuadratic + p.quadraticCount; ++e)
            row.push_back(ms.quadratic[e].column - ms.firstParticle);
        std::sort(row.begin(), row.end());
        row.erase(std::unique(row.begin(), row.end()), row.end());
        ms.blockColumns.insert(ms.blockColumns.end(), row.begin(), row.end());
        ms.blockRowStart.push_back(static_cast<uint32_t>(ms.blockColumns.size()));
    }
    for (uint32_t r = 0; r < n; ++r) {
        gpu::MsParticle& p = ms.particles[r];
        p.diagonalBlock = blockOf(ms, r, r);
        for (uint32_t k = p.firstSpring; k < p.firstSpring + p.springCount; ++k) {
            gpu::MsIncidentSpring& incident = ms.incidentSprings[k];
            const gpu::MsSpring& spring = ms.springs[incident.spring];
            incident.block = blockOf(ms, r, (spring.i - ms.firstParticle == r ? spring.j : spring.i) - ms.firstParticle);
        }
        for (uint32_t e = p.firstQuadratic; e < p.firstQuadratic + p.quadraticCount; ++e)
            ms.quadratic[e].block = blockOf(ms, r, ms.quadratic[e].column - ms.firstParticle);
    }
}

// Greedy colouring in particle order (solvers/vertex_colouring.h). The
// neighbours are the pattern's row (springs and quadratic stencils) and the
// particle's hinges' other vertices.
void buildColours(MsModel& ms) {
    const std::vector<uint32_t> colourOf = greedyColours(ms.particleCount, [&](uint32_t r, auto take) {
        for (uint32_t k = ms.blockRowStart[r]; k < ms.blockRowStart[r + 1]; ++k) take(ms.blockColumns[k]);
        const gpu::MsParticle& p = ms.particles[r];
        for (uint32_t k = p.firstHinge; k < p.firstHinge + p.hingeCount; ++k) {
            const gpu::MsHinge& hinge = ms.hinges[ms.incidentHinges[k] / 4];
            for (uint32_t v : {hinge.v0, hinge.v1, hinge.v2, hinge.v3}) take(v - ms.firstParticle);
        }
    });
    VertexColouring colouring = groupByColour(colourOf, ms.firstParticle);
    ms.vertexOrder = std::move(colouring.order);
    ms.vertexColours = std::move(colouring.colours);
}

}  // namespace

void buildSpringSystem(MsModel& ms) {
    const LocalIndex local(ms);
    buildIncidence(ms, local);
    buildPattern(ms);
    buildColours(ms);
}

}  // namespace vksim
