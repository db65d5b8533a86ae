#pragma once
// The constraint data every PD path reads (docs/physics.md §5): the model's
// elements with their weights, the global system's rows, off-diagonal
// entries and gather slots, uploaded once, rewritten by live material edits
// (setWeights), and the spectrum of the Jacobi iteration that the weights
// give, estimated once per time step and per batch copy: each copy's rows
// are a system of their own, whose relaxation and Chebyshev weights are the
// ones a world of that copy alone takes (docs/physics.md §5, "Per copy").
#include <map>
#include <vector>

#include "scene/scene.h"
#include "solvers/pd/pd_model.h"
#include "solvers/copy_jacobi_weights.h"
#include "solvers/pd/pd_system.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;
class StepRecorder;

// What the Jacobi passes use for some settings: the relaxation gamma (the
// scene's, or 2 / (mu_min + mu_max), which centres the spectrum of
// I - gamma D^-1 A on zero) and the spectral radius rho (the scene's, or
// max |1 - gamma mu|), from the spectrum of D^-1 A.
struct PdJacobiParameters {
    double gamma = 1.0;
    double rho = 0.0;
    JacobiSpectrum spectrum;
};

class PdConstraints {
public:
    // Uploads nothing for a model without PD particles. Throws
    // std::invalid_argument when the model's system is not built. The
    // attachment targets go up relative to `origin` (Solver::origin).
    // `rowCopies`: per PD row its batch copy (empty: one copy).
    PdConstraints(const VulkanContext& ctx, const PdModel& pd, glm::vec3 origin,
                  const std::vector<uint32_t>& rowCopies = {});

    const PdModel& model() const { return pd_; }
    glm::vec3 origin() const { return origin_; }
    bool empty() const { return pd_.empty(); }

    const GpuBuffer& rows() const { return rows_; }
    const GpuBuffer& offDiagonal() const { return offDiagonal_; }
    const GpuBuffer& gatherSlots() const { return gatherSlots_; }
    const GpuBuffer& springs() const { return springs_; }
    const GpuBuffer& triangles() const { return triangles_; }
    const GpuBuffer& tetStrain() const { return tetStrain_; }
    const GpuBuffer& tetVolume() const { return tetVolume_; }
    const GpuBuffer& bending() const { return bending_; }
    const GpuBuffer& attachments() const { return attachments_; }
    // Per row its copy, and per copy its Jacobi weights (pd/jacobi_row.glsl,
    // CopyJacobiWeights), which recordJacobiWeights writes.
    const GpuBuffer& rowCopies() const { return rowCopyBuffer_; }
    const GpuBuffer& jacobiWeights() const { return jacobiWeights_.buffer(); }
    uint32_t copyCount() const { return static_cast<uint32_t>(copyRows_.size()); }

    // Per copy, the Jacobi parameters for `settings`, from the spectrum of
    // the copy's rows for the settings' time step (cached per h). Throws
    // std::invalid_argument when gamma mu_max >= 2 in a copy: the iteration
    // would diverge.
    std::vector<PdJacobiParameters> copyJacobiParameters(const SolverSettings& settings);
    // The first copy's (a scene's world has one); throws as copyJacobiParameters.
    PdJacobiParameters jacobiParameters(const SolverSettings& settings) {
        return copyJacobiParameters(settings).front();
    }
    // Records the upload of every copy's gamma and Chebyshev weights for
    // `settings` into jacobiWeights() where they changed
    // (CopyJacobiWeights::record). Throws as copyJacobiParameters.
    void recordJacobiWeights(StepRecorder& rec, const SolverSettings& settings);

    // New element weights and rows (a live stiffness edit, pd_materials.h):
    // `pd` has the same elements and system pattern, its weights and rows
    // rebuilt (buildPdSystem). Uploads the arrays whose bytes changed (each
    // upload waits for the frames in flight) and forgets the spectra. Throws
    // std::invalid_argument when the structure differs.
    void setWeights(const PdModel& pd);

private:
    PdModel pd_;
    glm::vec3 origin_;
    GpuBuffer rows_, offDiagonal_, gatherSlots_, springs_, triangles_, tetStrain_, tetVolume_, bending_, attachments_;
    std::vector<std::vector<uint32_t>> copyRows_;  // per copy its rows, increasing
    GpuBuffer rowCopyBuffer_;
    CopyJacobiWeights jacobiWeights_;
    std::map<float, std::vector<JacobiSpectrum>> spectra_;  // by h, per copy
};

}  // namespace vksim
