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

// The PBD volume constraints' material rows, each once.
std::vector<uint32_t> volumeMaterialRows(const std::vector<gpu::TetrahedronConstraint>& tets) {
    std::vector<uint32_t> rows;
    for (const gpu::TetrahedronConstraint& c : tets)
        if (c.volumeMaterial != gpu::kNoVolumeConstraint) rows.push_back(c.volumeMaterial);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
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

// The tetrahedron buffer (pbd_constraints.h): the records in the GPU's
// order, each pointed at its solid's row and its multipliers, then the
// rows, then the multipliers (zero), padded to whole 16-byte texels.
std::vector<glm::uvec4> packTetrahedra(std::vector<gpu::TetrahedronConstraint> tets,
                                       const std::vector<gpu::ElasticMaterialRow>& rows) {
    constexpr size_t kRecordTexels = sizeof(gpu::TetrahedronConstraint) / sizeof(glm::uvec4);
    static_assert(sizeof(gpu::TetrahedronConstraint) % sizeof(glm::uvec4) == 0);
    static_assert(sizeof(gpu::ElasticMaterialRow) == sizeof(glm::uvec4));
    const size_t rowsFirst = tets.size() * kRecordTexels, lambdasFirst = (rowsFirst + rows.size()) * 4;
    std::vector<glm::uvec4> data(rowsFirst + rows.size() + (2 * tets.size() + 3) / 4, glm::uvec4(0));
    for (size_t j = 0; j < tets.size(); ++j) {
        tets[j].elasticRow += static_cast<uint32_t>(rowsFirst);
        tets[j].lambda = static_cast<uint32_t>(lambdasFirst + 2 * j);
        std::memcpy(&data[j * kRecordTexels], &tets[j], sizeof(tets[j]));
    }
    if (!rows.empty()) std::memcpy(&data[rowsFirst], rows.data(), rows.size() * sizeof(rows[0]));
    if (data.size() > UINT32_MAX / 4) throw std::length_error("the tetrahedron buffer passes 2^32 floats");
    return data;
}

}  // namespace

PbdConstraints::PbdConstraints(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& order,
                               uint32_t iterations)
    : range_{model.pbd.firstParticle, model.pbd.particleCount},
      origin_(solverOrigin(model.shared, range_)),
      counts_{static_cast<uint32_t>(model.pbd.distance.size()), static_cast<uint32_t>(model.pbd.bending.size()),
              static_cast<uint32_t>(model.pbd.attachments.size()), static_cast<uint32_t>(model.pbd.tetrahedra.size())},
      shapeMatchGroupCount_(static_cast<uint32_t>(model.pbd.shapeMatchGroups.size())),
      groups_{model.pbd.distanceGroups, model.pbd.bendingGroups, model.pbd.attachmentGroups,
              model.pbd.tetrahedronGroups},
      colouring_(model.pbd.colouring),
      steps_(colourSteps(groups(), colouring_)),
      familyMaterials_{{{gpu::kXpbdFamilyDistance, materialRows(model.pbd.distance)},
                        {gpu::kXpbdFamilyBending, materialRows(model.pbd.bending)},
                        {gpu::kXpbdFamilyAttachment, materialRows(model.pbd.attachments)},
                        {gpu::kXpbdFamilyTetrahedron, volumeMaterialRows(model.pbd.tetrahedra)}}},
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
    constraints_[gpu::kPbdFamilyTetrahedron] = makeStorageBuffer<glm::uvec4>(
        ctx, packTetrahedra(permuted(model.pbd.tetrahedra, order.tetrahedron), model.pbd.elasticMaterials),
        "tetrahedra", texels);
    elasticRowsOffset_ = VkDeviceSize(counts_[gpu::kPbdFamilyTetrahedron]) * sizeof(gpu::TetrahedronConstraint);
    elasticRowCount_ = model.pbd.elasticMaterials.size();
    constexpr std::array<const char*, kPbdFamilies> lambdaNames = {"distance lambdas", "bending lambdas",
                                                                   "attachment lambdas", nullptr};
    for (uint32_t f = 0; f < kPbdFamilies; ++f)
        if (f != gpu::kPbdFamilyTetrahedron)
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

void PbdConstraints::setElasticMaterials(const std::vector<gpu::ElasticMaterialRow>& rows) {
    if (rows.size() != elasticRowCount_)
        throw std::invalid_argument("elastic material count cannot change at run time");
    pendingElastic_ = rows;
}

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
    if ((!pendingMaterials_ && !pendingElastic_ && iterationStiffnessOf_ == iterations) || rec.counting()) return;
    rec.recordedOneTimeWork();
    if (pendingMaterials_ || pendingElastic_) {
        computeToTransferWriteBarrier(rec.cmd());
        if (pendingMaterials_ && !pendingMaterials_->empty())
            vkCmdUpdateBuffer(rec.cmd(), materials_.handle(), 0,
                              pendingMaterials_->size() * sizeof(gpu::ConstraintMaterial), pendingMaterials_->data());
        if (pendingElastic_ && !pendingElastic_->empty())
            vkCmdUpdateBuffer(rec.cmd(), constraints_[gpu::kPbdFamilyTetrahedron].handle(), elasticRowsOffset_,
                              pendingElastic_->size() * sizeof(gpu::ElasticMaterialRow), pendingElastic_->data());
        transferWriteToComputeBarrier(rec.cmd());
        pendingMaterials_.reset();
        pendingElastic_.reset();
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
    // The tetrahedra's elastic constraints are XPBD whatever their rows.
    uint32_t families = counts_[gpu::kPbdFamilyTetrahedron] > 0 ? gpu::kXpbdFamilyTetrahedron : 0u;
    for (const FamilyMaterials& family : familyMaterials_)
        for (uint32_t m : family.rows)
            if (currentMaterials_[m].mode == gpu::kModeXpbd) families |= family.xpbdBit;
    return families;
}

bool PbdConstraints::xpbdEnergyDefined() const {
    // Shape matching is a PBD projection with no compliance: no energy.
    if (shapeMatchGroupCount_ > 0) return false;
    // A tetrahedron's elastic constraints are XPBD with alpha = 1/(mu V) > 0
    // (E > 0); its PBD volume constraint, if any, has a row below.
    bool any = counts_[gpu::kPbdFamilyTetrahedron] > 0;
    for (const FamilyMaterials& family : familyMaterials_)
        for (uint32_t m : family.rows) {
            if (currentMaterials_[m].mode != gpu::kModeXpbd || !(currentMaterials_[m].compliance > 0.0f)) return false;
            any = true;
        }
    return any;
}

}  // namespace vksim
