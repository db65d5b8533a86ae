#pragma once
// The PBD constraints every dispatch path reads (docs/physics.md §1-3, §13,
// §16, "XPBD for solids"): the distance, bending, attachment and tetrahedron families with their colours, the
// shape-matching groups, the materials with their live edits and
// per-iteration stiffness, and the XPBD multipliers. Built once from the
// model, the only place the solver reads the model's PBD arrays. The
// constraint arrays go up in the cluster plan's order
// (solvers/pbd/pbd_clusters.h), which every path reads: each colour is only
// permuted within itself, which changes no bits on the other paths.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <volk.h>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/elastic_types.h"
#include "solvers/pbd/colour_steps.h"
#include "solvers/pbd/pbd_model.h"
#include "state/particle_range.h"
#include "vk/buffer.h"

namespace vksim {

class ComputeKernel;
class StepRecorder;
class VulkanContext;
struct ClusterPlan;

class PbdConstraints {
public:
    // `order`: the cluster plan whose order the arrays go up in.
    // `iterations`: the first frame's n_s, for which each material's
    // per-iteration stiffness is computed here.
    PbdConstraints(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& order, uint32_t iterations);
    ~PbdConstraints();

    // The PBD particles (the first of the store).
    ParticleRange range() const { return range_; }
    // What the predicted positions are relative to (solvers/solver_origin.h);
    // the attachment targets are uploaded relative to it.
    glm::vec3 origin() const { return origin_; }
    // The constraints of family `family` (gpu::kPbdFamilyDistance, ...), and of all of them.
    uint32_t count(uint32_t family) const { return counts_[family]; }
    uint64_t totalCount() const { return uint64_t(counts_[0]) + counts_[1] + counts_[2] + counts_[3]; }
    uint32_t shapeMatchGroupCount() const { return shapeMatchGroupCount_; }

    // The model's colours per family and the colouring they were sorted by,
    // and one iteration's steps over them (solvers/pbd/colour_steps.h).
    FamilyGroups groups() const { return {&groups_[0], &groups_[1], &groups_[2], &groups_[3]}; }
    PbdColouring colouring() const { return colouring_; }
    const std::vector<ColourStep>& steps() const { return steps_; }

    // On the GPU: the material rows (each with its per-iteration
    // stiffness), each family's constraints and XPBD multipliers (in family
    // order), and the shape-matching groups followed by their rest offsets
    // (one buffer, pbd_types.h).
    //
    // The tetrahedra's buffer holds all of their data, so that the workgroup
    // solve, at its 16 storage buffers, binds it once: the records
    // (gpu::TetrahedronConstraint), then the solids' ElasticMaterialRow
    // rows, then two multipliers per tetrahedron; each record holds its
    // row's 16-byte slot and its multipliers' float index in the buffer.
    // So lambdas(kPbdFamilyTetrahedron) is that buffer too.
    const GpuBuffer& materials() const { return materials_; }
    const GpuBuffer& constraints(uint32_t family) const { return constraints_[family]; }
    // Written by tearing (pbd_tearing.h), which breaks constraints in place.
    GpuBuffer& constraints(uint32_t family) { return constraints_[family]; }
    const GpuBuffer& lambdas(uint32_t family) const {
        return family == gpu::kPbdFamilyTetrahedron ? constraints_[family] : lambdas_[family];
    }
    const GpuBuffer& shapeMatchData() const { return shapeMatchData_; }

    // Live material edits: recorded into the next frame
    // (recordFrameStart), no wait.
    void setMaterials(const std::vector<gpu::ConstraintMaterial>& materials);
    // The same for the XPBD solids' elastic rows (PbdModel::elasticMaterials).
    void setElasticMaterials(const std::vector<gpu::ElasticMaterialRow>& rows);
    // At the start of a frame with n_s = `iterations`: the pending material
    // edits, then, after an edit or a change of n_s, each material's
    // per-iteration stiffness. Nothing while the recorder only counts.
    void recordFrameStart(StepRecorder& rec, uint32_t iterations);

    // Whether the PBD particles have an energy: there are constraints and
    // every one is XPBD with compliance > 0 (with the current materials).
    bool xpbdEnergyDefined() const;
    // The families (gpu::kXpbdFamily* bits) some of whose constraints have
    // an XPBD material now: those whose multipliers the CPU cluster sweep
    // recorded next keeps (pbd/xpbd_families.glsl).
    uint32_t xpbdFamilies() const;

private:
    // Each material's per-iteration stiffness for n_s = `iterations`, then
    // the barrier to every later read (pbd/iteration_stiffness.comp).
    void recordIterationStiffness(VkCommandBuffer cmd, uint32_t iterations);

    ParticleRange range_;
    glm::vec3 origin_;
    std::array<uint32_t, kPbdFamilies> counts_{};
    uint32_t shapeMatchGroupCount_ = 0;
    std::array<ColourGroups, kPbdFamilies> groups_;
    PbdColouring colouring_ = PbdColouring::PerFamily;
    std::vector<ColourStep> steps_;

    // Per family: its bit in xpbdFamilies() and the material rows some
    // constraint of it uses; then the current rows (live edits included)
    // and the edit not yet recorded.
    struct FamilyMaterials {
        uint32_t xpbdBit = 0;
        std::vector<uint32_t> rows;
    };
    std::array<FamilyMaterials, kPbdFamilies> familyMaterials_;
    std::vector<gpu::ConstraintMaterial> currentMaterials_;
    std::optional<std::vector<gpu::ConstraintMaterial>> pendingMaterials_;
    // Where the elastic rows start in the tetrahedron buffer [bytes], how
    // many there are, and the edit not yet recorded.
    VkDeviceSize elasticRowsOffset_ = 0;
    size_t elasticRowCount_ = 0;
    std::optional<std::vector<gpu::ElasticMaterialRow>> pendingElastic_;

    GpuBuffer materials_;
    std::array<GpuBuffer, kPbdFamilies> constraints_, lambdas_;
    GpuBuffer shapeMatchData_;
    // Recomputes the stiffness when n_s or the materials change;
    // iterationStiffnessOf_ is the n_s it was last computed for.
    std::unique_ptr<ComputeKernel> iterationStiffness_;
    uint32_t iterationStiffnessOf_ = 0;
};

}  // namespace vksim
