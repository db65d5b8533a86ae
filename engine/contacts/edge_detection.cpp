#include "contacts/edge_detection.h"

#include <span>

#include "contacts/contact_constraints.h"

namespace vksim {

EdgeDetection::EdgeDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                             const ContactDetection& pairs, const ContactConstraints& set)
    : model_(model),
      particles_(particles),
      pairs_(pairs),
      set_(set),
      edges_(makeStorageBuffer(ctx, std::span<const gpu::ContactEdge>(model.edges), "contact edges")),
      particleEdgeStart_(makeStorageBuffer<uint32_t>(ctx, model.particleEdgeStart, "contact particle edge start")),
      particleEdges_(makeStorageBuffer<uint32_t>(ctx, model.particleEdges, "contact particle edges")),
      edgeLocalIndices_(
          makeStorageBuffer<uint32_t>(ctx, model.edgeLocalIndices, "contact edge indices within their group")),
      find_(ctx, "contacts/edge_pairs.comp", sizeof(gpu::ContactPush)) {}

void EdgeDetection::record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const FourParticleList& list,
                           const GpuBuffer& stats, const gpu::ContactPush& push) const {
    rec.run(pass, find_,
            {&p, &particles_, &edges_, &particleEdgeStart_, &particleEdges_, &list.grid.bucketStart(),
             &list.grid.bucketCount(), &list.grid.sorted(), &list.counts, &list.offsets, &list.contacts, &set_.colours(),
             &set_.proposals(), &stats, &pairs_.totals(), &pairs_.groups(), &edgeLocalIndices_, &set_.priorities(),
             &list.scale, &pairs_.grid().bucketStart(), &pairs_.grid().bucketCount(), &pairs_.grid().sorted(),
             &list.kept},
            model_.edgeCount(), push);
}

}  // namespace vksim
