#include "solvers/pbd/pbd_constraints.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_clusters.h"
#include "solvers/solver_origin.h"
#include "step/step_recorder.h"
#include "vk/barriers.h"
#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace vksim {

namespace {

// The shape-matching groups and rest offsets in one buffer, as the shaders
// read it (pbd_types.h): the groups, then the offsets, which the groups'
// firstRest index in vec4s.
std::vector<glm::vec4> packShapeMatching(const std::vector<gpu::ShapeMatchGroup>& groups,
                                         const std::vector<glm::vec4>& rest) {
    constexpr size_t kGroupVec4s = sizeof(gpu::ShapeMatchGroup) / sizeof(glm::vec4);
    static_assert(sizeof(gpu::ShapeMatchGroup) % sizeof(glm::vec4) == 0);
    const size_t groupVec4s = groups.size() * kGroupVec4s;
    std::vector<glm::vec4> data(groupVec4s);
    for (size_t g = 0; g < groups.size(); ++g) {
        gpu::ShapeMatchGroup group = groups[g];
        group.firstRest += static_cast<uint32_t>(groupVec4s);
        std::memcpy(&data[g * kGroupVec4s], &group, sizeof(group));
    }
    data.insert(data.end(), rest.begin(), rest.end());
    return data;
}

// The material rows the constraints of one family use, each once.
template <typename Constraint>
std::vector<uint32_t> materialRows(const std::vector<Constraint>& constraints) {
    std::vector<uint32_t> rows;
    for (const Constraint& c : constraints) rows.push_back(c.material);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
}

}  // namespace

PbdConstraints::PbdConstraints(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& order,
                               uint32_t iterations)
    : range_{model.pbd.firstParticle, model.pbd.particleCount},
      origin_(solverOrigin(model.shared, range_)),
      counts_{static_cast<uint32_t>(model.pbd.distance.size()), static_cast<uint32_t>(model.pbd.bending.size()),
              static_cast<uint32_t>(model.pbd.attachments.size())},
      shapeMatchGroupCount_(static_cast<uint32_t>(model.pbd.shapeMatchGroups.size())),
      groups_{model.pbd.distanceGroups, model.pbd.bendingGroups, model.pbd.attachmentGroups},
      colouring_(model.pbd.colouring),
      steps_(colourSteps(groups(), colouring_)),
      familyMaterials_{{{gpu::kXpbdFamilyDistance, materialRows(model.pbd.distance)},
                        {gpu::kXpbdFamilyBending, materialRows(model.pbd.bending)},
                        {gpu::kXpbdFamilyAttachment, materialRows(model.pbd.attachments)}}},
      currentMaterials_(model.pbd.materials) {
    // Texel usage: the CPU cluster sweep reads the records as texels
    // (pbd/cluster_sweep_cpu.comp).
    constexpr VkBufferUsageFlags texels = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
    constraints_[gpu::kPbdFamilyDistance] = makeStorageBuffer<gpu::DistanceConstraint>(
        ctx, permuted(model.pbd.distance, order.distance), "distance constraints", texels);
    constraints_[gpu::kPbdFamilyBending] = makeStorageBuffer<gpu::BendingConstraint>(
        ctx, permuted(model.pbd.bending, order.bending), "bending constraints", texels);
    std::vector<gpu::AttachmentConstraint> attachments = permuted(model.pbd.attachments, order.attachment);
    for (gpu::AttachmentConstraint& c : attachments) c.target -= glm::vec4(origin_, 0.0f);
    constraints_[gpu::kPbdFamilyAttachment] =
        makeStorageBuffer<gpu::AttachmentConstraint>(ctx, attachments, "attachment constraints", texels);
    constexpr std::array<const char*, kPbdFamilies> lambdaNames = {"distance lambdas", "bending lambdas",
                                                                   "attachment lambdas"};
    for (uint32_t f = 0; f < kPbdFamilies; ++f)
        lambdas_[f] = makeStorageBuffer<float>(ctx, std::vector<float>(counts_[f]), lambdaNames[f]);
    materials_ = makeStorageBuffer<gpu::ConstraintMaterial>(ctx, model.pbd.materials, "constraint materials", texels);
    shapeMatchData_ = makeStorageBuffer<glm::vec4>(
        ctx, packShapeMatching(model.pbd.shapeMatchGroups, model.pbd.shapeMatchRest), "shape matching");

    iterationStiffness_ =
        std::make_unique<ComputeKernel>(ctx, "pbd/iteration_stiffness.comp", sizeof(gpu::ProjectPush));
    // Now, not in the first frame: one-time work there would keep its
    // commands from being replayed (world/frame_commands.h).
    iterationStiffnessOf_ = iterations;
    if (!currentMaterials_.empty())
        ctx.submitAndWait([&](VkCommandBuffer cmd) { recordIterationStiffness(cmd, iterations); });
}

PbdConstraints::~PbdConstraints() = default;

void PbdConstraints::setMaterials(const std::vector<gpu::ConstraintMaterial>& materials) {
    if (materials.size() * sizeof(gpu::ConstraintMaterial) > materials_.size())
        throw std::invalid_argument("material count cannot change at run time");
    pendingMaterials_ = materials;
    currentMaterials_ = materials;
}

// Live material edits, recorded before the frame's first pass: the previous
// frames' passes finish reading the buffer before the update writes it, and
// the update is visible to this frame's passes. Both are one-time work, so
// untimed: the frames that follow replay commands without them.
void PbdConstraints::recordFrameStart(StepRecorder& rec, uint32_t iterations) {
    if ((!pendingMaterials_ && iterationStiffnessOf_ == iterations) || rec.counting()) return;
    rec.recordedOneTimeWork();
    if (pendingMaterials_) {
        computeToTransferWriteBarrier(rec.cmd());
        if (!pendingMaterials_->empty())
            vkCmdUpdateBuffer(rec.cmd(), materials_.handle(), 0,
                              pendingMaterials_->size() * sizeof(gpu::ConstraintMaterial), pendingMaterials_->data());
        transferWriteToComputeBarrier(rec.cmd());
        pendingMaterials_.reset();
    } else {
        computeToComputeBarrier(rec.cmd());  // the previous frames' reads first
    }
    recordIterationStiffness(rec.cmd(), iterations);
}

void PbdConstraints::recordIterationStiffness(VkCommandBuffer cmd, uint32_t iterations) {
    gpu::ProjectPush push{};
    push.count = static_cast<uint32_t>(currentMaterials_.size());
    push.iterations = iterations;
    iterationStiffness_->dispatch(cmd, {&materials_}, push.count, push);
    // Read by the projections, and as texels by the CPU cluster sweep: the
    // compute-to-compute barrier covers sampled reads.
    computeToComputeBarrier(cmd);
    iterationStiffnessOf_ = iterations;
}

uint32_t PbdConstraints::xpbdFamilies() const {
    uint32_t families = 0;
    for (const FamilyMaterials& family : familyMaterials_)
        for (uint32_t m : family.rows)
            if (currentMaterials_[m].mode == gpu::kModeXpbd) families |= family.xpbdBit;
    return families;
}

bool PbdConstraints::xpbdEnergyDefined() const {
    // Shape matching is a PBD projection with no compliance: no energy.
    if (shapeMatchGroupCount_ > 0) return false;
    bool any = false;
    for (const FamilyMaterials& family : familyMaterials_)
        for (uint32_t m : family.rows) {
            if (currentMaterials_[m].mode != gpu::kModeXpbd || !(currentMaterials_[m].compliance > 0.0f)) return false;
            any = true;
        }
    return any;
}

}  // namespace vksim
