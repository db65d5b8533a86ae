#include "solvers/pd/pd_constraints.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "vk/context.h"

namespace vksim {

namespace {

// The attachments with their targets relative to the range's origin, as the
// iterate q is (docs/physics.md §9.2, "Far from the origin").
std::vector<gpu::PdAttachment> relativeTo(glm::vec3 origin, std::vector<gpu::PdAttachment> attachments) {
    for (gpu::PdAttachment& a : attachments) a.target -= glm::vec4(origin, 0.0f);
    return attachments;
}

}  // namespace

PdConstraints::PdConstraints(const VulkanContext& ctx, const PdModel& pd, glm::vec3 origin,
                             const std::vector<uint32_t>& rowCopies)
    : pd_(pd), origin_(origin) {
    if (pd_.empty()) return;
    if (!rowCopies.empty() && rowCopies.size() != pd_.particleCount)
        throw std::invalid_argument("PdConstraints: one copy per row expected");
    // The copies numbered densely, in the order of their first rows.
    std::vector<uint32_t> copies(pd_.particleCount, 0u);
    std::map<uint32_t, uint32_t> dense;
    for (uint32_t r = 0; r < pd_.particleCount; ++r) {
        const uint32_t given = rowCopies.empty() ? 0u : rowCopies[r];
        const auto [slot, added] = dense.try_emplace(given, static_cast<uint32_t>(copyRows_.size()));
        if (added) copyRows_.emplace_back();
        copies[r] = slot->second;
        copyRows_[copies[r]].push_back(r);
    }
    rowCopyBuffer_ = makeStorageBuffer<uint32_t>(ctx, copies, "pd row copies");
    jacobiWeights_ = CopyJacobiWeights(ctx, static_cast<uint32_t>(copyRows_.size()), "pd jacobi weights");
    if (pd_.rows.size() != pd_.particleCount)
        throw std::invalid_argument("PdSolver: the model's PD system is not built (buildPdSystem)");
    rows_ = makeStorageBuffer<gpu::PdRow>(ctx, pd_.rows, "pd rows");
    offDiagonal_ = makeStorageBuffer<gpu::PdOffDiagonal>(ctx, pd_.offDiagonal, "pd off-diagonal");
    gatherSlots_ = makeStorageBuffer<uint32_t>(ctx, pd_.gatherSlots, "pd gather slots");
    springs_ = makeStorageBuffer<gpu::PdSpring>(ctx, pd_.springs, "pd springs");
    triangles_ = makeStorageBuffer<gpu::PdTriangle>(ctx, pd_.triangles, "pd triangles");
    tetStrain_ = makeStorageBuffer<gpu::PdTetrahedron>(ctx, pd_.tetStrain, "pd tet strain");
    tetVolume_ = makeStorageBuffer<gpu::PdTetrahedron>(ctx, pd_.tetVolume, "pd tet volume");
    bending_ = makeStorageBuffer<gpu::PdBending>(ctx, pd_.bending, "pd bending");
    attachments_ = makeStorageBuffer<gpu::PdAttachment>(ctx, relativeTo(origin_, pd_.attachments), "pd attachments");
}

std::vector<PdJacobiParameters> PdConstraints::copyJacobiParameters(const SolverSettings& settings) {
    const float h = settings.timeStep / static_cast<float>(settings.substeps);
    auto found = spectra_.find(h);
    if (found == spectra_.end()) {
        // A scene's world: its one copy is every row.
        std::vector<JacobiSpectrum> spectra;
        if (copyRows_.size() == 1) spectra.push_back(estimateJacobiSpectrum(pd_, h));
        else
            for (const std::vector<uint32_t>& rows : copyRows_) spectra.push_back(estimateJacobiSpectrum(pd_, h, rows));
        found = spectra_.emplace(h, std::move(spectra)).first;
    }
    std::vector<PdJacobiParameters> copies;
    for (const JacobiSpectrum& spectrum : found->second) {
        PdJacobiParameters p;
        p.spectrum = spectrum;
        p.gamma = settings.pd.relaxation > 0.0f ? double(settings.pd.relaxation) : optimalRelaxation(p.spectrum);
        if (!(p.gamma * p.spectrum.muMax < 2.0))
            throw std::invalid_argument(fmt::format(
                "relaxation {:.3g} makes the projective dynamics Jacobi iteration diverge (gamma * mu_max = {:.3f} "
                ">= 2, mu_max = {:.3f} being the largest eigenvalue of D^-1 A); use a relaxation below {:.3f}, or "
                "\"auto\"",
                p.gamma, p.gamma * p.spectrum.muMax, p.spectrum.muMax, 2.0 / p.spectrum.muMax));
        p.rho = settings.pd.spectralRadius > 0.0f ? double(settings.pd.spectralRadius)
                                                  : relaxedJacobiSpectralRadius(p.spectrum, p.gamma);
        copies.push_back(p);
    }
    return copies;
}

void PdConstraints::recordJacobiWeights(StepRecorder& rec, const SolverSettings& settings) {
    std::vector<CopyRelaxation> relaxations;
    for (const PdJacobiParameters& p : copyJacobiParameters(settings)) relaxations.push_back({p.gamma, p.rho});
    jacobiWeights_.record(rec, relaxations, settings.pd.jacobiIterations, settings.pd.chebyshev);
}

void PdConstraints::setWeights(const PdModel& pd) {
    if (pd.particleCount != pd_.particleCount || pd.springs.size() != pd_.springs.size() ||
        pd.triangles.size() != pd_.triangles.size() || pd.tetStrain.size() != pd_.tetStrain.size() ||
        pd.tetVolume.size() != pd_.tetVolume.size() || pd.bending.size() != pd_.bending.size() ||
        pd.attachments.size() != pd_.attachments.size() || pd.offDiagonal.size() != pd_.offDiagonal.size() ||
        pd.gatherSlots != pd_.gatherSlots)
        throw std::invalid_argument("PdSolver::setWeights: the elements or the system pattern changed");
    if (pd_.empty()) return;
    // Only the arrays whose bytes changed (an edit touches one family, and
    // the rows of its particles). An empty family has no bytes, and its
    // null data() may not go to memcmp.
    // The attachments go up relative to the origin, as at construction.
    auto upload = [this](GpuBuffer& buffer, auto& current, const auto& next) {
        using T = typename std::decay_t<decltype(next)>::value_type;
        if (next.empty() || std::memcmp(current.data(), next.data(), next.size() * sizeof(T)) == 0) return;
        current = next;
        if constexpr (std::is_same_v<T, gpu::PdAttachment>)
            buffer.uploadArray<T>(relativeTo(origin_, current));
        else
            buffer.uploadArray<T>(current);
    };
    upload(springs_, pd_.springs, pd.springs);
    upload(triangles_, pd_.triangles, pd.triangles);
    upload(tetStrain_, pd_.tetStrain, pd.tetStrain);
    upload(tetVolume_, pd_.tetVolume, pd.tetVolume);
    upload(bending_, pd_.bending, pd.bending);
    upload(attachments_, pd_.attachments, pd.attachments);
    upload(rows_, pd_.rows, pd.rows);
    upload(offDiagonal_, pd_.offDiagonal, pd.offDiagonal);
    spectra_.clear();  // the next frame's recordJacobiWeights uploads the new weights
}

}  // namespace vksim
