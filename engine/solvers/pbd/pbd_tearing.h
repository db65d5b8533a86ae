#pragma once
// Tearing of PBD cloths (docs/physics.md §1, "Tearing"): once per frame,
// after its substeps, the stretch constraints strained past their cloth's
// threshold break, then the bending constraints hinged on a broken edge,
// and the triangles with a broken edge leave the index buffer the renderer
// draws (pbd/tear.comp). A broken constraint keeps its place and its
// particles, its rest length (or bending scale) negated, which every
// dispatch path's projection reads as "moves nothing": the colouring needs
// no change and the paths step the same bits. The broken flags carry from
// frame to frame, so the two constraint buffers and the triangle indices
// are saved state while a cloth tears. Only built where some cloth tears.
// Where a cloth reserves spare particles, the split pass follows the tear
// pass (pbd_splitting.h) and that cloth's torn triangles stay, re-indexed.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_model.h"
#include "vk/buffer.h"

namespace vksim {

class ComputeKernel;
class ParticleStore;
class PbdConstraints;
class PbdSplitting;
class StepPlan;
class StepRecorder;
class VulkanContext;

class PbdTearing {
public:
    // Whether some cloth of the model tears.
    static bool anyTears(const PbdModel& model);

    PbdTearing(const VulkanContext& ctx, const PbdModelView& model, PbdConstraints& constraints,
               ParticleStore& particles);
    ~PbdTearing();

    void declarePasses(StepPlan& plan);
    // Live threshold edits (World::setTearStrain), recorded at the start of
    // the next frame, no wait. strains: one per material row, as
    // PbdModel::tearStrains (0: that row's constraints do not tear).
    void setStrains(const std::vector<float>& strains);
    const std::vector<float>& strains() const { return strains_; }
    void recordFrameStart(StepRecorder& rec);
    // The two runs of the tear pass, on the end-of-frame positions x, then
    // the split pass where a cloth splits vertices.
    void recordFrameEnd(StepRecorder& rec) const;

    // Back to the model's constraints, none broken, its triangles and no
    // vertex split (waits for the queue).
    void reset(const SharedModel& model);
    // The distance and bending constraint buffers, whose broken flags carry
    // across frames, and the triangle indices.
    void addStateBuffers(std::vector<GpuBuffer*>& out);

    // What has torn, read back (waits for the queue): for a run's summary,
    // "tearing: 12 of 2162 stretch constraints broken (and 9 bending), 14
    // of 1058 triangles dropped", and the splitting's line where a cloth splits.
    std::string describe() const;
    // Null unless some cloth splits vertices.
    const PbdSplitting* splitting() const { return splitting_.get(); }

    // Per bending constraint in the GPU's order: the index of the stretch
    // constraint on its hinge edge (particles x, y), or gpu::kNoHinge.
    const std::vector<uint32_t>& hinges() const { return hinges_; }
    // Per triangle of a tearing cloth: its index in the model (x; with
    // gpu::kTearSplitTriangle where the cloth splits vertices) and the
    // stretch constraints of its three edges (y, z, w; gpu::kNoHinge where
    // an edge has none).
    const std::vector<glm::uvec4>& triangleEdges() const { return triangleEdges_; }

private:
    ParticleStore& particles_;
    PbdConstraints& constraints_;
    uint32_t pass_ = 0, splitPass_ = 0;
    std::vector<float> strains_;
    std::optional<std::vector<float>> pendingStrains_;
    // The constraints as uploaded, for reset().
    std::vector<gpu::DistanceConstraint> initialDistance_;
    std::vector<gpu::BendingConstraint> initialBending_;
    std::vector<uint32_t> hinges_;
    std::vector<glm::uvec4> triangleEdges_;
    GpuBuffer strainBuffer_, hingeBuffer_, triangleEdgeBuffer_;
    std::unique_ptr<ComputeKernel> kernel_;
    std::unique_ptr<PbdSplitting> splitting_;
};

// The tear pass on the CPU in double precision (the test oracle of
// pbd/tear.comp): breaks `distance`, then `bending` and drops the
// `triangles` (3 indices each) as dropTornTriangles does, at
// positions `x` (indexed by particle), with `strains` per material row,
// `hinges` per bending constraint and `triangleEdges` as
// PbdTearing::triangleEdges(). Returns how many stretch constraints broke.
uint32_t tearReference(std::vector<gpu::DistanceConstraint>& distance, std::vector<gpu::BendingConstraint>& bending,
                       std::vector<uint32_t>& triangles, const std::vector<glm::dvec3>& x,
                       const std::vector<float>& strains, const std::vector<uint32_t>& hinges,
                       const std::vector<glm::uvec4>& triangleEdges);

// The tear pass's rule for the surface: each triangle of `triangleEdges`
// with a broken edge in `distance` (two, for a cloth that splits vertices:
// gpu::kTearSplitTriangle) leaves `triangles`, its indices collapsed onto
// its first corner.
void dropTornTriangles(std::vector<uint32_t>& triangles, const std::vector<gpu::DistanceConstraint>& distance,
                       const std::vector<glm::uvec4>& triangleEdges);

}  // namespace vksim
