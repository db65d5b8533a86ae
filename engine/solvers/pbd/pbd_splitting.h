#pragma once
// Splitting torn vertices of PBD cloths (docs/physics.md §1, "Tearing"):
// where a cloth reserves spare particles ("tearing": {"capacity"}), once
// per frame after the tear pass, each particle whose kept triangles the
// broken edges separate into several fans splits: every fan but the one
// holding its lowest-indexed triangle moves to a spare particle of its
// cloth, a copy of its x, p and v, the mass shared by the fans' rest areas.
// The triangles of a moved fan and the whole constraints on it are
// re-indexed to the new particle (pbd/split.comp): a constraint only ever
// moves from a particle to a spare one nothing else holds, so the colouring
// built at load stays valid. Spares are allocated by a prefix scan over the
// cloth's particles in order; a particle whose split does not fit the
// reserve drops its other fans' triangles instead (counted, describe()).
// The spare particles sit at the end of the cloth's range, so the workgroup
// path holds them with the cloth; the cluster path, whose clusters are
// ranges of particles fixed at load, refuses such a cloth (misfit()).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_model.h"
#include "step/prefix_scan.h"
#include "vk/buffer.h"

namespace vksim {

class ComputeKernel;
class ParticleStore;
class PbdConstraints;
class StepRecorder;
class VulkanContext;

// What the split pass reads that never changes, built at load from the
// model and the constraints in the GPU's order (the CPU reference's input too).
struct SplitTopology {
    std::vector<gpu::SplitCloth> cloths;
    // Per triangle of the model: the stretch constraints of its edges ab, bc,
    // ca (gpu::kNoHinge where none) and the bits of its rest area (w); zero
    // outside the splitting cloths.
    std::vector<glm::uvec4> triangleInfo;
    // Per stretch constraint: the triangle corners (3 t + corner) p0 follows
    // (x, then y) and p1 follows (z, w); gpu::kSplitNone where none.
    std::vector<glm::uvec4> distanceFollow;
    // Per bending constraint, two: for particles x, y, then z, w.
    std::vector<glm::uvec4> bendingFollow;
    std::vector<uint32_t> adjacencyOffsets, adjacentTriangles;
    uint32_t particleThreads = 0, triangleThreads = 0;
};

// The topology of `model`'s splitting cloths, for `distance` and `bending`
// as the GPU holds them.
SplitTopology buildSplitTopology(const PbdModelView& model, const std::vector<gpu::DistanceConstraint>& distance,
                                 const std::vector<gpu::BendingConstraint>& bending);

class PbdSplitting {
public:
    PbdSplitting(const VulkanContext& ctx, const PbdModelView& model, PbdConstraints& constraints,
                 ParticleStore& particles, const std::vector<gpu::DistanceConstraint>& distance,
                 const std::vector<gpu::BendingConstraint>& bending);
    ~PbdSplitting();

    // The runs of `pass` ("pbd: split", after the tear pass): count, the
    // scan's three, apply (pbd/split.comp), reindex (pbd/split_reindex.comp).
    void recordFrameEnd(StepRecorder& rec, uint32_t pass) const;
    // No spare particle used (waits for the queue); the particles, the
    // triangles and the constraints are reset by their owners.
    void reset();
    // The reserves' fill levels and counters, and the particles' adjacency rows.
    void addStateBuffers(std::vector<GpuBuffer*>& out);
    // Per splitting cloth: spare particles used, vertices refused a split,
    // triangles dropped for them (waits for the queue).
    std::vector<glm::uvec3> readFill() const;
    // "splitting: 14 of 120 spare particles used, 0 vertices refused (0 triangles dropped)".
    std::string describe() const;

    const SplitTopology& topology() const { return topology_; }

private:
    ParticleStore& particles_;
    PbdConstraints& constraints_;
    SplitTopology topology_;
    GpuBuffer clothBuffer_, fillBuffer_, triangleInfoBuffer_, needsBuffer_, cornersBuffer_, distanceFollowBuffer_,
        bendingFollowBuffer_, scanTotal_;
    std::unique_ptr<PrefixScan> scan_;
    std::unique_ptr<ComputeKernel> kernel_, reindex_;
};

// What the split pass reads and writes, on the CPU (double positions).
struct SplitState {
    std::vector<glm::dvec4> x, p, v;  // per particle; w of x and p: inverse mass
    std::vector<uint32_t> triangles, adjacencyRows;
    std::vector<gpu::DistanceConstraint> distance;
    std::vector<gpu::BendingConstraint> bending;
    std::vector<uint32_t> fill;  // four per splitting cloth, as the GPU's
};

// The split pass on the CPU in double precision (the oracle of
// pbd/split.comp): the same fans, allocations and indices, the masses in
// double.
void splitReference(SplitState& state, const SplitTopology& topology);

// The number of fans the kept triangles around particle i fall into, in
// `state` (0 for a particle in no kept triangle), by the split pass's rule:
// counted only where an edge at i broke or a triangle of its row left the
// surface, one elsewhere.
uint32_t fanCount(const SplitState& state, const SplitTopology& topology, uint32_t i);

}  // namespace vksim
