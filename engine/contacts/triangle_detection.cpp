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
      counts_(contactListBuffer(ctx, model.triangleCount(), "triangle contact counts")),
      offsets_(contactListBuffer(ctx, model.triangleCount(), "triangle contact offsets")),
      contacts_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.triangleCapacity} * sizeof(gpu::TriangleContact)),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::DeviceLocal,
                "triangle contacts"),
      constraintScan_(ctx, model.triangleCount(), "triangle contact scan"),
      find_(ctx, "contacts/triangle_pairs.comp", sizeof(gpu::ContactPush)),
      stats_(ctx, "contacts/contact_stats.comp", sizeof(gpu::ContactPush)) {}

void TriangleDetection::record(StepRecorder& rec, uint32_t pass, const GpuBuffer& p, const GpuBuffer& stats) const {
    const uint32_t triangleCount = model_.triangleCount();
    gpu::ContactPush counting = model_.push(0), writing = model_.push(1);
    counting.kind = writing.kind = gpu::kContactKindTriangles;
    const GpuBuffer& totals = pairs_.totals();
    const std::initializer_list<const GpuBuffer*> findBuffers = {
        &p,       &particles_, &triangles_, &pairs_.bucketStart(), &pairs_.bucketCount(), &pairs_.sorted(),
        &counts_, &offsets_,   &contacts_,  &set_.colours(),       &set_.rounds(),        &stats,
        &totals,  &pairs_.groups(),         &set_.localIndices(),  &set_.triangleLocalIndices(),
        &set_.priorities()};
    rec.run(pass, find_, findBuffers, triangleCount, counting);
    constraintScan_.record(rec, pass, offsets_, triangleCount, totals, 3);
    rec.run(pass, find_, findBuffers, triangleCount, writing);
    rec.run(pass, stats_, {&totals, &stats}, 1, writing);
}

TriangleContactLists TriangleDetection::read() const {
    TriangleContactLists lists{contacts_.downloadArray<gpu::TriangleContact>(), counts_.downloadArray<uint32_t>()};
    const uint32_t count = std::min(pairs_.totals().downloadArray<uint32_t>().at(3), model_.triangleCapacity);
    lists.contacts.resize(count);
    lists.counts.resize(model_.triangleCount());
    return lists;
}

}  // namespace vksim
