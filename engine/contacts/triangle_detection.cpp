#include "contacts/triangle_detection.h"

#include <algorithm>
#include <span>

#include "contacts/contact_constraints.h"
#include "contacts/contact_list_buffer.h"

namespace vksim {

TriangleDetection::TriangleDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                                     const ContactDetection& pairs, const ContactConstraints& set)
    : model_(model),
      particles_(particles),
      pairs_(pairs),
      set_(set),
      triangles_(makeStorageBuffer(ctx, std::span<const gpu::ContactTriangle>(model.triangles), "contact triangles")),
      neighbours_(makeStorageBuffer(ctx, std::span<const glm::uvec4>(model.triangleNeighbours),
                                    "contact triangle neighbours")),
      counts_(contactListBuffer(ctx, model.triangleCount() + model.edgeCount(), "triangle contact counts")),
      offsets_(contactListBuffer(ctx, model.triangleCount() + model.edgeCount(), "triangle contact offsets")),
      contacts_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.triangleCapacity} * sizeof(gpu::TriangleContact)),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::DeviceLocal,
                "triangle contacts"),
      kept_(contactListBuffer(ctx, uint64_t{model.triangleCount() + model.edgeCount()} * gpu::kKeptPartners,
                              "triangle contact kept partners")),
      scale_(contactListBuffer(ctx, 2, "contact surface grid scale")),
      surfaceGrid_(ctx, model, "contact surface grid"),
      gridGroups_(makeStorageBuffer<uint32_t>(ctx, surfaceGrid_.groupCounts(), "contact surface grid groups")),
      gridDispatches_(ctx, sizeof(VkDispatchIndirectCommand) * ParticleGrid::kDispatches,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
                          VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                      MemoryKind::DeviceLocal, "contact surface grid dispatches"),
      edges_(ctx, model, particles, pairs, set),
      constraintScan_(ctx, model.triangleCount() + model.edgeCount(), "triangle contact scan"),
      scaleKernel_(ctx, "contacts/surface_cell.comp", sizeof(gpu::ContactPush)),
      find_(ctx, "contacts/triangle_pairs.comp", sizeof(gpu::ContactPush)),
      stats_(ctx, "contacts/surface_stats.comp", sizeof(gpu::ContactPush)) {}

void TriangleDetection::record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const GpuBuffer& stats) const {
    const uint32_t triangleCount = model_.triangleCount();
    const gpu::ContactPush counting = model_.push(0), writing = model_.push(1);
    const GpuBuffer& totals = pairs_.totals();
    const FourParticleList list{counts_, offsets_, contacts_, kept_, surfaceGrid_, scale_};
    // One workgroup reduces every triangle's sides, and says whether the
    // grid at that scale is the pairs'; then that grid, unless it is.
    rec.runWritingGroupCounts(pass, scaleKernel_, {&p, &particles_, &triangles_, &scale_, &gridGroups_, &gridDispatches_},
                              64, counting);
    surfaceGrid_.record(rec, pass, {p, particles_, pairs_.groups(), scale_}, totals, 5,
                        surfaceGrid_.fitsIndirect() ? &gridDispatches_ : nullptr);
    const ParticleGrid& pairGrid = pairs_.grid();
    const std::initializer_list<const GpuBuffer*> findBuffers = {
        &p,       &particles_, &triangles_, &surfaceGrid_.bucketStart(), &surfaceGrid_.bucketCount(),
        &surfaceGrid_.sorted(),             &counts_,              &offsets_,       &contacts_,
        &set_.colours(),        &set_.proposals(),         &stats,    &totals,         &pairs_.groups(),
        &set_.localIndices(),   &set_.triangleLocalIndices(),      &set_.priorities(), &scale_,
        &pairGrid.bucketStart(), &pairGrid.bucketCount(), &pairGrid.sorted(), &neighbours_,      &kept_};
    rec.run(pass, find_, findBuffers, triangleCount, counting);
    edges_.record(rec, pass, p, list, stats, counting);
    // Both kinds' offsets at once: the edge-edge constraints after every vertex-triangle one.
    constraintScan_.record(rec, pass, offsets_, triangleCount + model_.edgeCount(), totals, 3);
    rec.run(pass, find_, findBuffers, triangleCount, writing);
    edges_.record(rec, pass, p, list, stats, writing);
    rec.run(pass, stats_, {&totals, &offsets_, &stats}, 1, writing);
}

TriangleContactLists TriangleDetection::read() const {
    const std::vector<gpu::TriangleContact> contacts = contacts_.downloadArray<gpu::TriangleContact>();
    const std::vector<uint32_t> counts = counts_.downloadArray<uint32_t>();
    const uint32_t triangleCount = model_.triangleCount();
    const uint32_t count = std::min(pairs_.totals().downloadArray<uint32_t>().at(3), model_.triangleCapacity);
    // The scan made offsets[triangleCount] the vertex-triangle constraints' count.
    const uint32_t vertexTriangle = std::min(offsets_.downloadArray<uint32_t>().at(triangleCount), count);
    TriangleContactLists lists;
    lists.contacts.assign(contacts.begin(), contacts.begin() + vertexTriangle);
    lists.counts.assign(counts.begin(), counts.begin() + triangleCount);
    lists.edgeContacts.assign(contacts.begin() + vertexTriangle, contacts.begin() + count);
    lists.edgeCounts.assign(counts.begin() + triangleCount, counts.begin() + triangleCount + model_.edgeCount());
    lists.surfaceCell = scale_.downloadArray<float>().at(0);
    lists.surfaceIndirect = surfaceGrid_.fitsIndirect();
    const std::vector<uint32_t> commands =
        lists.surfaceIndirect ? gridDispatches_.downloadArray<uint32_t>() : surfaceGrid_.groupCounts();
    for (uint32_t i = 0; i < 3 * ParticleGrid::kDispatches; i += 3) lists.surfaceGroups += commands[i];
    return lists;
}

}  // namespace vksim
