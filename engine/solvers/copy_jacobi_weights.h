#pragma once
// Each batch copy's relaxation gamma and Chebyshev weights omega_1 ... omega_J
// of a Jacobi solve, in one GPU buffer that the Jacobi rows read by their
// copy (shaders/linear/copy_jacobi_weights.glsl): word 0 the stride s, then
// from word 1 + g s copy g's gamma and omegas, as float bits. Each copy's
// system is a block of its own, whose weights are the ones a world of that
// copy alone takes (docs/physics.md §5 "Per copy", §9.7); a scene's world is
// one copy. Projective dynamics (PdConstraints) and mass-spring implicit
// Euler (SpringSolver) fill it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "vk/buffer.h"

namespace vksim {

class VulkanContext;
class StepRecorder;

// What a copy's Jacobi iterations take: the relaxation gamma, and the
// spectral radius rho of the relaxed iteration that the Chebyshev weights
// come from (linear::chebyshevOmegas).
struct CopyRelaxation {
    double gamma = 1.0;
    double rho = 0.0;
};

class CopyJacobiWeights {
public:
    CopyJacobiWeights() = default;
    // Room for `copyCount` copies of the default 20 iterations; record grows it.
    CopyJacobiWeights(const VulkanContext& ctx, uint32_t copyCount, std::string name);

    const GpuBuffer& buffer() const { return buffer_; }

    // Records the upload of every copy's gamma and its Chebyshev weights for
    // `iterations` (all 1 without `chebyshev`) where they changed: one-time
    // work in the frame. A buffer too small for the iterations is replaced
    // (and kept until the weights go, for the frames that bound it).
    void record(StepRecorder& rec, std::span<const CopyRelaxation> copies, uint32_t iterations, bool chebyshev);

private:
    void allocate(uint32_t stride);

    const VulkanContext* ctx_ = nullptr;
    std::string name_;
    uint32_t copyCount_ = 0;
    uint32_t stride_ = 0;  // words per copy the buffer has room for
    GpuBuffer buffer_;
    std::vector<GpuBuffer> retired_;   // replaced by a larger one
    std::vector<uint32_t> uploaded_;   // what the buffer holds
};

}  // namespace vksim
