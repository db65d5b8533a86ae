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

PdConstraints::PdConstraints(const VulkanContext& ctx, const PdModel& pd, glm::vec3 origin)
    : pd_(pd), origin_(origin) {
    if (pd_.empty()) return;
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

PdJacobiParameters PdConstraints::jacobiParameters(const SolverSettings& settings) {
    const float h = settings.timeStep / static_cast<float>(settings.substeps);
    auto found = spectra_.find(h);
    if (found == spectra_.end()) found = spectra_.emplace(h, estimateJacobiSpectrum(pd_, h)).first;
    PdJacobiParameters p;
    p.spectrum = found->second;
    p.gamma = settings.pd.relaxation > 0.0f ? double(settings.pd.relaxation) : optimalRelaxation(p.spectrum);
    if (!(p.gamma * p.spectrum.muMax < 2.0))
        throw std::invalid_argument(fmt::format(
            "relaxation {:.3g} makes the projective dynamics Jacobi iteration diverge (gamma * mu_max = {:.3f} >= 2, "
            "mu_max = {:.3f} being the largest eigenvalue of D^-1 A); use a relaxation below {:.3f}, or \"auto\"",
            p.gamma, p.gamma * p.spectrum.muMax, p.spectrum.muMax, 2.0 / p.spectrum.muMax));
    p.rho = settings.pd.spectralRadius > 0.0f ? double(settings.pd.spectralRadius)
                                              : relaxedJacobiSpectralRadius(p.spectrum, p.gamma);
    return p;
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
    spectra_.clear();
}

}  // namespace vksim
