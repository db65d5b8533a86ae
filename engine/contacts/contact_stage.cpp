#include "contacts/contact_stage.h"

#include <span>
#include <stdexcept>

namespace vksim {

ContactStage::ContactStage(const VulkanContext& ctx, const SharedModel& model, ParticleRange inIterations,
                           const GpuBuffer* adjacencyRows)
    : model_(buildContactModel(model, inIterations)),
      particles_(makeStorageBuffer(ctx, std::span<const gpu::ContactParticle>(model_.particles), "contact particles")),
      contactOf_(makeStorageBuffer(ctx, std::span<const uint32_t>(model_.contactOf), "contact particle of each")),
      stats_(ctx, sizeof(gpu::ContactStats),
             VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
             MemoryKind::DeviceLocal, "contact stats") {
    if (model_.empty()) return;
    if (model_.spareCount > 0) {
        if (!adjacencyRows)
            throw std::invalid_argument("ContactStage: spare contact particles need the vertex-triangle rows");
        adjacencyRows_ = adjacencyRows;
        followSplits_ = std::make_unique<ComputeKernel>(ctx, "contacts/contact_follow_splits.comp",
                                                        sizeof(gpu::ContactPush));
    }
    constraints_ = std::make_unique<ContactConstraints>(ctx, model_);
    detection_ = std::make_unique<ContactDetection>(ctx, model_, particles_, *constraints_);
    if (model_.hasTriangles())
        triangleDetection_ = std::make_unique<TriangleDetection>(ctx, model_, particles_, *detection_, *constraints_);
    response_ = std::make_unique<ContactResponse>(ctx, model_, particles_, *detection_, triangleDetection_.get(),
                                                  *constraints_);
    reset();
}

ContactStage::~ContactStage() = default;

void ContactStage::declarePasses(StepPlan& plan, bool afterSolve) {
    detectPasses_.grid = plan.declare("contacts: grid", StageKind::CollideGenerate, "contacts");
    detectPasses_.pairs = plan.declare("contacts: pairs", StageKind::CollideGenerate, "contacts");
    if (model_.hasTriangles())
        trianglePass_ = plan.declare("contacts: triangles", StageKind::CollideGenerate, "contacts");
    setPasses_.incidence = detectPasses_.pairs;
    setPasses_.colouring = plan.declare("contacts: colouring", StageKind::CollideGenerate, "contacts");
    solvePass_ = plan.declare("contacts: solve", StageKind::Solve, "contacts");
    afterSolveDeclared_ = afterSolve;
    if (afterSolve) afterSolvePass_ = plan.declare("contacts: after solve", StageKind::Solve, "contacts");
    declared_ = true;
}

void ContactStage::recordFrameStart(StepRecorder& rec) const {
    if (!declared_) throw std::logic_error("ContactStage::declarePasses must be called before recording");
    if (followSplits_)
        rec.run(detectPasses_.grid, *followSplits_, {&particles_, &contactOf_, adjacencyRows_}, model_.count(),
                model_.push());
}

void ContactStage::recordDetect(StepRecorder& rec, const GpuBuffer& p, ContactSolve solve) const {
    if (!declared_) throw std::logic_error("ContactStage::declarePasses must be called before recording");
    detection_->record(rec, detectPasses_, p, stats_);
    if (triangleDetection_) triangleDetection_->record(rec, trianglePass_, p, stats_);
    constraints_->record(rec, setPasses_, *detection_, triangleDetection_.get(), stats_,
                         solve == ContactSolve::Colours);
}

void ContactStage::recordProject(StepRecorder& rec, ContactSolve solve, const GpuBuffer& x, const GpuBuffer& p,
                                 StepPosition at, std::string_view workingName) const {
    response_->record(rec, solvePass_, solve, gpu::kContactPairsInIterations, x, p, at, workingName);
}

void ContactStage::recordProjectAfterSolve(StepRecorder& rec, ContactSolve solve, uint32_t iterations,
                                           const GpuBuffer& x, const GpuBuffer& p, uint32_t substep,
                                           std::string_view workingName) const {
    if (!afterSolveDeclared_)
        throw std::logic_error("ContactStage: \"contacts: after solve\" was not declared (declarePasses)");
    for (uint32_t it = 0; it < iterations; ++it)
        response_->record(rec, afterSolvePass_, solve, gpu::kContactPairsAll, x, p, {substep, it}, workingName);
}

gpu::ContactStats ContactStage::readStats() const { return stats_.downloadArray<gpu::ContactStats>().at(0); }

void ContactStage::reset() {
    const gpu::ContactStats zero{};
    stats_.uploadArray(std::span<const gpu::ContactStats>(&zero, 1));
}

}  // namespace vksim
