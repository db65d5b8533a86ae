#include "solvers/pd/pd_system.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <stdexcept>

#include <Eigen/Dense>
#include <fmt/format.h>

namespace vksim {
namespace {

// One element as the global step sees it: A_i S_i q = sum_k a_k q_k^T with
// a_k in R^d (d <= 3, unused components zero), and its weight.
struct Stencil {
    uint32_t arity = 0;
    std::array<uint32_t, 4> particles{};
    std::array<glm::dvec3, 4> a{};
    double weight = 0.0;
};

// Calls visit(stencil) for every element, family by family in slot order.
template <typename Visit>
void forEachStencil(const PdModel& pd, Visit&& visit) {
    for (const gpu::PdSpring& s : pd.springs)
        visit(Stencil{2, {s.p0, s.p1}, {glm::dvec3(1, 0, 0), glm::dvec3(-1, 0, 0)}, s.weight});
    for (const gpu::PdTriangle& t : pd.triangles) {
        const glm::dvec3 g1(t.gradients.x, t.gradients.y, 0.0), g2(t.gradients.z, t.gradients.w, 0.0);
        visit(Stencil{3, {t.particles.x, t.particles.y, t.particles.z}, {-(g1 + g2), g1, g2}, t.weight});
    }
    for (const auto* family : {&pd.tetStrain, &pd.tetVolume})
        for (const gpu::PdTetrahedron& t : *family) {
            const glm::dvec3 g1(glm::vec3(t.g1)), g2(glm::vec3(t.g2)), g3(glm::vec3(t.g3));
            visit(Stencil{4, {t.particles.x, t.particles.y, t.particles.z, t.particles.w}, {-(g1 + g2 + g3), g1, g2, g3},
                          t.weight});
        }
    for (const gpu::PdBending& b : pd.bending)
        visit(Stencil{4,
                      {b.particles.x, b.particles.y, b.particles.z, b.particles.w},
                      {glm::dvec3(b.K.x, 0, 0), glm::dvec3(b.K.y, 0, 0), glm::dvec3(b.K.z, 0, 0),
                       glm::dvec3(b.K.w, 0, 0)},
                      b.weight});
    for (const gpu::PdAttachment& a : pd.attachments) visit(Stencil{1, {a.particle}, {glm::dvec3(1, 0, 0)}, a.weight});
}

// Free rows of A = M/h^2 + L: the PD-local index of each free particle and
// its diagonal.
struct FreeRows {
    std::vector<uint32_t> row;         // free index -> PD row
    std::vector<int32_t> freeIndex;    // PD row -> free index, -1 when pinned
    std::vector<double> diagonal;      // by free index
};

FreeRows freeRows(const PdModel& pd, double h, std::span<const uint32_t> among) {
    FreeRows rows;
    rows.freeIndex.assign(pd.particleCount, -1);
    for (const uint32_t r : among) {
        if (pd.rows[r].mass == 0.0f) continue;
        rows.freeIndex[r] = static_cast<int32_t>(rows.row.size());
        rows.row.push_back(r);
        rows.diagonal.push_back(double(pd.rows[r].mass) / (h * h) + pdLaplacianDiagonal(pd, r));
    }
    return rows;
}

}  // namespace

uint32_t pdBandwidth(const PdModel& pd) {
    uint32_t widest = 0;
    for (uint32_t r = 0; r < pd.particleCount; ++r) {
        const gpu::PdRow& row = pd.rows[r];
        const uint32_t i = pd.firstParticle + r;
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k) {
            const uint32_t column = pd.offDiagonal[k].column;
            widest = std::max(widest, column > i ? column - i : i - column);
        }
    }
    return widest;
}

double pdLaplacianDiagonal(const PdModel& pd, uint32_t row) {
    const gpu::PdRow& r = pd.rows[row];
    double diagonal = r.attachmentDiagonal;
    for (uint32_t k = r.offDiagonalFirst; k < r.offDiagonalFirst + r.offDiagonalCount; ++k)
        diagonal -= double(pd.offDiagonal[k].value);
    return diagonal;
}

void buildPdSystem(PdModel& pd, const std::vector<glm::vec4>& positions) {
    // The PD range follows the PBD particles; mass-spring particles may come
    // after it (SimModel), so it need not end at the last particle.
    if (uint64_t{pd.firstParticle} + pd.particleCount > positions.size())
        throw std::invalid_argument("PD particles lie outside the model's particles");
    PdModel::SlotBases& slots = pd.slots;
    uint32_t next = 0;
    slots.springs = next;
    next += 2 * static_cast<uint32_t>(pd.springs.size());
    slots.triangles = next;
    next += 3 * static_cast<uint32_t>(pd.triangles.size());
    slots.tetStrain = next;
    next += 4 * static_cast<uint32_t>(pd.tetStrain.size());
    slots.tetVolume = next;
    next += 4 * static_cast<uint32_t>(pd.tetVolume.size());
    slots.bending = next;
    next += 4 * static_cast<uint32_t>(pd.bending.size());
    slots.attachments = next;
    next += static_cast<uint32_t>(pd.attachments.size());
    slots.total = next;

    // L, accumulated entry by entry in element order. Both (k, l) and (l, k)
    // receive the same terms in the same order, so L is exactly symmetric.
    std::vector<double> attachmentDiagonal(pd.particleCount, 0.0);
    std::vector<std::map<uint32_t, double>> offDiagonal(pd.particleCount);
    std::vector<std::vector<uint32_t>> gather(pd.particleCount);
    uint32_t slot = 0;
    forEachStencil(pd, [&](const Stencil& s) {
        for (uint32_t k = 0; k < s.arity; ++k) {
            const uint32_t particle = s.particles[k];
            if (particle < pd.firstParticle || particle >= pd.firstParticle + pd.particleCount)
                throw std::invalid_argument(fmt::format("PD element uses particle {}, outside the PD range [{}, {})",
                                                        particle, pd.firstParticle,
                                                        pd.firstParticle + pd.particleCount));
            gather[particle - pd.firstParticle].push_back(slot + k);
        }
        for (uint32_t k = 0; k < s.arity; ++k)
            for (uint32_t l = 0; l < s.arity; ++l) {
                const double value = s.weight * glm::dot(s.a[k], s.a[l]);
                const uint32_t rk = s.particles[k] - pd.firstParticle;
                // The translation-invariant part's diagonal is implied by the
                // off-diagonal entries (PdRow); only single-vertex elements
                // (attachments) add to the diagonal itself.
                if (s.arity == 1) attachmentDiagonal[rk] += value;
                else if (s.particles[k] != s.particles[l]) offDiagonal[rk][s.particles[l]] += value;
            }
        slot += s.arity;
    });

    pd.rows.assign(pd.particleCount, gpu::PdRow{});
    pd.offDiagonal.clear();
    pd.gatherSlots.clear();
    for (uint32_t r = 0; r < pd.particleCount; ++r) {
        gpu::PdRow& row = pd.rows[r];
        row.offDiagonalFirst = static_cast<uint32_t>(pd.offDiagonal.size());
        double graphDiagonal = 0.0;
        for (const auto& [column, value] : offDiagonal[r])
            if (static_cast<float>(value) != 0.0f) {
                pd.offDiagonal.push_back({column, static_cast<float>(value)});
                graphDiagonal -= double(static_cast<float>(value));
            }
        row.offDiagonalCount = static_cast<uint32_t>(pd.offDiagonal.size()) - row.offDiagonalFirst;
        row.gatherFirst = static_cast<uint32_t>(pd.gatherSlots.size());
        pd.gatherSlots.insert(pd.gatherSlots.end(), gather[r].begin(), gather[r].end());
        row.gatherCount = static_cast<uint32_t>(gather[r].size());
        row.graphDiagonal = static_cast<float>(graphDiagonal);
        row.attachmentDiagonal = static_cast<float>(attachmentDiagonal[r]);
        const float inverseMass = positions[pd.firstParticle + r].w;
        row.mass = inverseMass > 0.0f ? static_cast<float>(1.0 / double(inverseMass)) : 0.0f;
    }
}

std::vector<std::vector<double>> densePdLaplacian(const PdModel& pd) {
    std::vector<std::vector<double>> L(pd.particleCount, std::vector<double>(pd.particleCount, 0.0));
    for (uint32_t r = 0; r < pd.particleCount; ++r) {
        const gpu::PdRow& row = pd.rows[r];
        L[r][r] = pdLaplacianDiagonal(pd, r);
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k)
            L[r][pd.offDiagonal[k].column - pd.firstParticle] = pd.offDiagonal[k].value;
    }
    return L;
}

JacobiSpectrum estimateJacobiSpectrum(const PdModel& pd, double h, uint32_t steps) {
    std::vector<uint32_t> all(pd.particleCount);
    std::iota(all.begin(), all.end(), 0u);
    return estimateJacobiSpectrum(pd, h, all, steps);
}

JacobiSpectrum estimateJacobiSpectrum(const PdModel& pd, double h, std::span<const uint32_t> among, uint32_t steps) {
    const FreeRows rows = freeRows(pd, h, among);
    // The free rows of A as scalar rows: pinned columns drop out, the float
    // off-diagonal entries widen to double as the GPU's values.
    linear::ScalarRows A;
    A.diagonal = rows.diagonal;
    for (const uint32_t r : rows.row) {
        const gpu::PdRow& row = pd.rows[r];
        for (uint32_t k = row.offDiagonalFirst; k < row.offDiagonalFirst + row.offDiagonalCount; ++k) {
            const int32_t j = rows.freeIndex[pd.offDiagonal[k].column - pd.firstParticle];
            if (j < 0) continue;
            A.column.push_back(static_cast<uint32_t>(j));
            A.value.push_back(double(pd.offDiagonal[k].value));
        }
        A.rowStart.push_back(static_cast<uint32_t>(A.column.size()));
    }
    return linear::estimateJacobiSpectrum(A, steps);
}

}  // namespace vksim
