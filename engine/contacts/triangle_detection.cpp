#include "contacts/triangle_detection.h"

#include <algorithm>
#include <span>

#include "contacts/contact_list_buffer.h"

namespace vksim {

TriangleDetection::TriangleDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                                     const ContactDetection& pairs)
    : model_(model),
      particles_(particles),
      pairs_(pairs),
      triangles_(makeStorageBuffer(ctx, std::span<const gpu::ContactTriangle>(model.triangles), "contact triangles")),
      counts_(contactListBuffer(ctx, model.triangleCount(), "triangle contact counts")),
      offsets_(contactListBuffer(ctx, model.triangleCount(), "triangle contact offsets")),
      totals_(contactListBuffer(ctx, 4, "triangle contact totals")),
      contacts_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.triangleCapacity} * sizeof(gpu::TriangleContact)),
                VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::DeviceLocal,
                "triangle contacts"),
      colours_(contactListBuffer(ctx, model.triangleCapacity, "triangle contact colours")),
      rounds_(contactListBuffer(ctx, model.triangleCapacity, "triangle contact colour rounds")),
      incidenceStart_(contactListBuffer(ctx, model.count(), "triangle contact incidence start")),
      incidenceFill_(contactListBuffer(ctx, model.count(), "triangle contact incidence count")),
      incidence_(contactListBuffer(ctx, uint64_t{4} * model.triangleCapacity, "triangle contact incidence")),
      dispatches_(ctx, sizeof(gpu::ContactDispatch) * (gpu::kFirstColourDispatch + gpu::kContactColours),
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, MemoryKind::DeviceLocal,
                  "triangle contact dispatches"),
      colourTable_(ctx, sizeof(gpu::ContactColourTable), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal,
                   "triangle contact colour table"),
      colourLists_(contactListBuffer(ctx, model.triangleCapacity, "triangle contact colour lists")),
      constraintScan_(ctx, model.triangleCount(), "triangle contact scan"),
      incidenceScan_(ctx, model.count(), "triangle contact incidence scan"),
      find_(ctx, "contacts/triangle_pairs.comp", sizeof(gpu::ContactPush)),
      stats_(ctx, "contacts/contact_stats.comp", sizeof(gpu::ContactPush)),
      dispatchAll_(ctx, "contacts/contact_dispatch_all.comp", sizeof(gpu::ContactPush)),
      clear_(ctx, "contacts/grid_clear.comp", sizeof(gpu::ContactPush)),
      incidenceCount_(ctx, "contacts/triangle_incidence_count.comp", sizeof(gpu::ContactPush)),
      incidenceFillKernel_(ctx, "contacts/triangle_incidence_fill.comp", sizeof(gpu::ContactPush)),
      incidenceOrder_(ctx, "contacts/triangle_incidence_order.comp", sizeof(gpu::ContactPush)),
      colourRound_(ctx, "contacts/triangle_colour.comp", sizeof(gpu::ContactPush)),
      colourStats_(ctx, "contacts/contact_colour_stats.comp", sizeof(gpu::ContactPush)),
      listColours_(ctx, "contacts/contact_colour_lists.comp", sizeof(gpu::ContactPush)),
      colourScatter_(ctx, "contacts/contact_colour_scatter.comp", sizeof(gpu::ContactPush)) {}

gpu::ContactPush TriangleDetection::push(uint32_t write) const {
    gpu::ContactPush push{};
    push.count = model_.count();
    push.tableMask = model_.tableSize - 1;
    push.cellSize = model_.cellSize;
    push.margin = model_.margin;
    push.capacity = 2 * model_.triangleCapacity;  // contactConstraintCount reads half of it
    push.write = write;
    push.kind = gpu::kContactKindTriangles;
    push.triangles = model_.triangleCount();
    return push;
}

void TriangleDetection::record(StepRecorder& rec, const Passes& passes, const GpuBuffer& p, const GpuBuffer& stats,
                               bool colour) const {
    const uint32_t n = model_.count(), triangleCount = model_.triangleCount();
    const gpu::ContactPush counting = push(0), writing = push(1);
    const std::initializer_list<const GpuBuffer*> findBuffers = {
        &p,       &particles_, &triangles_, &pairs_.bucketStart(), &pairs_.bucketCount(), &pairs_.sorted(),
        &counts_, &offsets_,   &contacts_,  &colours_,             &rounds_,              &stats};
    rec.run(passes.triangles, find_, findBuffers, triangleCount, counting);
    constraintScan_.record(rec, passes.triangles, offsets_, triangleCount, totals_, 2);
    rec.run(passes.triangles, find_, findBuffers, triangleCount, writing);
    rec.run(passes.triangles, stats_, {&totals_, &stats}, 1, writing);
    // Every later pass over the constraints is dispatched by the count the GPU wrote.
    gpu::ContactPush limits = writing;
    limits.round = colourRound_.maxGroupCount();
    rec.runWritingGroupCounts(passes.triangles, dispatchAll_, {&totals_, &dispatches_, &colourTable_}, 1, limits);
    // The incidence lists: a counting sort of the entries 4 c + role by particle.
    gpu::ContactPush perParticle = writing;
    perParticle.tableMask = n - 1;  // grid_clear.comp clears tableMask + 1 values
    rec.run(passes.triangles, clear_, {&incidenceStart_, &incidenceFill_}, n, perParticle);
    rec.runIndirect(passes.triangles, incidenceCount_,
                    {&totals_, &dispatches_, &contacts_, &triangles_, &incidenceStart_}, dispatches_, 0, writing);
    incidenceScan_.record(rec, passes.triangles, incidenceStart_, n, totals_, 0);
    rec.runIndirect(passes.triangles, incidenceFillKernel_,
                    {&totals_, &dispatches_, &contacts_, &triangles_, &incidenceStart_, &incidenceFill_, &incidence_},
                    dispatches_, 0, writing);
    rec.run(passes.triangles, incidenceOrder_, {&incidenceStart_, &incidenceFill_, &incidence_}, n, writing);
    if (!colour) return;
    for (uint32_t round = 0; round < gpu::kContactColourRounds; ++round) {
        gpu::ContactPush roundPush = writing;
        roundPush.round = round;
        rec.runIndirect(passes.colouring, colourRound_,
                        {&totals_, &dispatches_, &contacts_, &triangles_, &incidenceStart_, &incidenceFill_,
                         &incidence_, &colours_, &rounds_},
                        dispatches_, 0, roundPush);
    }
    rec.runIndirect(passes.colouring, colourStats_, {&totals_, &colours_, &stats, &dispatches_, &colourTable_},
                    dispatches_, 0, writing);
    rec.runWritingGroupCounts(passes.colouring, listColours_, {&dispatches_, &colourTable_}, 1, limits);
    rec.runIndirect(passes.colouring, colourScatter_, {&totals_, &dispatches_, &colours_, &colourTable_, &colourLists_},
                    dispatches_, 0, writing);
}

TriangleContactLists TriangleDetection::read() const {
    TriangleContactLists lists{contacts_.downloadArray<gpu::TriangleContact>(), counts_.downloadArray<uint32_t>(),
                               colours_.downloadArray<uint32_t>(), incidenceStart_.downloadArray<uint32_t>(),
                               incidenceFill_.downloadArray<uint32_t>(), incidence_.downloadArray<uint32_t>()};
    const uint32_t count = std::min(totals_.downloadArray<uint32_t>().at(2), model_.triangleCapacity);
    lists.contacts.resize(count);
    lists.colours.resize(count);
    lists.counts.resize(model_.triangleCount());
    lists.incidenceStart.resize(model_.count());
    lists.incidenceCount.resize(model_.count());
    lists.incidence.resize(uint64_t{4} * count);
    return lists;
}

}  // namespace vksim
