#include "solvers/copy_jacobi_weights.h"

#include <bit>
#include <stdexcept>
#include <utility>

#include "linear/jacobi_spectrum.h"
#include "step/step_recorder.h"
#include "vk/barriers.h"
#include "vk/context.h"

namespace vksim {

CopyJacobiWeights::CopyJacobiWeights(const VulkanContext& ctx, uint32_t copyCount, std::string name)
    : ctx_(&ctx), name_(std::move(name)), copyCount_(copyCount) {
    allocate(21);
}

void CopyJacobiWeights::allocate(uint32_t stride) {
    stride_ = stride;
    buffer_ = makeStorageBuffer<uint32_t>(*ctx_, std::vector<uint32_t>(1 + size_t(copyCount_) * stride_, 0u), name_);
    uploaded_.clear();
}

void CopyJacobiWeights::record(StepRecorder& rec, std::span<const CopyRelaxation> copies, uint32_t iterations,
                               bool chebyshev) {
    if (copies.size() != copyCount_) throw std::invalid_argument("CopyJacobiWeights: one relaxation per copy expected");
    const uint32_t perCopy = iterations + 1;
    if (perCopy > stride_) {
        retired_.push_back(std::move(buffer_));
        allocate(perCopy);
    }
    // The stride, then each copy's gamma and omegas, as float bits.
    std::vector<uint32_t> words{stride_};
    for (const CopyRelaxation& copy : copies) {
        words.push_back(std::bit_cast<uint32_t>(static_cast<float>(copy.gamma)));
        for (const float omega : linear::chebyshevOmegas(copy.rho, iterations, chebyshev))
            words.push_back(std::bit_cast<uint32_t>(omega));
    }
    if (words == uploaded_) return;
    rec.recordedOneTimeWork();
    computeToTransferWriteBarrier(rec.cmd());
    vkCmdUpdateBuffer(rec.cmd(), buffer_.handle(), 0, sizeof(uint32_t), words.data());
    for (size_t g = 0; g < copies.size(); ++g)
        vkCmdUpdateBuffer(rec.cmd(), buffer_.handle(), (1 + g * stride_) * sizeof(uint32_t),
                          perCopy * sizeof(uint32_t), words.data() + 1 + g * perCopy);
    transferWriteToComputeBarrier(rec.cmd());
    uploaded_ = std::move(words);
}

}  // namespace vksim
