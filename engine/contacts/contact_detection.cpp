#include "contacts/contact_detection.h"

#include <algorithm>

#include "contacts/contact_list_buffer.h"

namespace vksim {

ContactDetection::ContactDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles)
    : model_(model),
      particles_(particles),
      groups_(makeStorageBuffer<gpu::ContactGroup>(ctx, model.groups, "contact groups")),
      localIndices_(makeStorageBuffer<uint32_t>(ctx, model.localIndices, "contact indices within their group")),
      bucketOf_(contactListBuffer(ctx, model.count(), "contact bucket of")),
      bucketCounts_(contactListBuffer(ctx, model.tableSize, "contact bucket counts")),
      bucketFill_(contactListBuffer(ctx, model.tableSize, "contact bucket fill")),
      unordered_(contactListBuffer(ctx, model.count(), "contact grid unordered")),
      sorted_(contactListBuffer(ctx, model.count(), "contact grid")),
      counts_(contactListBuffer(ctx, model.count(), "contact counts")),
      offsets_(contactListBuffer(ctx, model.count(), "contact offsets")),
      neighbours_(contactListBuffer(ctx, model.capacity, "contact neighbours")),
      totals_(contactListBuffer(ctx, 4, "contact totals")),
      constraintCounts_(contactListBuffer(ctx, model.count(), "contact constraint counts")),
      constraintOffsets_(contactListBuffer(ctx, model.count(), "contact constraint offsets")),
      constraints_(contactListBuffer(ctx, uint64_t{model.capacity / 2} * 2, "contact constraints")),
      constraintOf_(contactListBuffer(ctx, model.capacity, "contact constraint of entry")),
      colours_(contactListBuffer(ctx, model.capacity / 2, "contact colours")),
      rounds_(contactListBuffer(ctx, model.capacity / 2, "contact colour rounds")),
      dispatches_(ctx, sizeof(gpu::ContactDispatch) * (gpu::kFirstColourDispatch + gpu::kContactColours),
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, MemoryKind::DeviceLocal,
                  "contact dispatches"),
      colourTable_(ctx, sizeof(gpu::ContactColourTable), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal,
                   "contact colour table"),
      colourLists_(contactListBuffer(ctx, model.capacity / 2, "contact colour lists")),
      bucketScan_(ctx, model.tableSize, "contact bucket scan"),
      pairScan_(ctx, model.count(), "contact pair scan"),
      constraintScan_(ctx, model.count(), "contact constraint scan"),
      clear_(ctx, "contacts/grid_clear.comp", sizeof(gpu::ContactPush)),
      count_(ctx, "contacts/grid_count.comp", sizeof(gpu::ContactPush)),
      fill_(ctx, "contacts/grid_fill.comp", sizeof(gpu::ContactPush)),
      order_(ctx, "contacts/grid_order.comp", sizeof(gpu::ContactPush)),
      pairs_(ctx, "contacts/contact_pairs.comp", sizeof(gpu::ContactPush)),
      stats_(ctx, "contacts/contact_stats.comp", sizeof(gpu::ContactPush)),
      incidence_(ctx, "contacts/contact_incidence.comp", sizeof(gpu::ContactPush)),
      dispatchAll_(ctx, "contacts/contact_dispatch_all.comp", sizeof(gpu::ContactPush)),
      colourRound_(ctx, "contacts/contact_colour.comp", sizeof(gpu::ContactPush)),
      colourStats_(ctx, "contacts/contact_colour_stats.comp", sizeof(gpu::ContactPush)),
      listColours_(ctx, "contacts/contact_colour_lists.comp", sizeof(gpu::ContactPush)),
      colourScatter_(ctx, "contacts/contact_colour_scatter.comp", sizeof(gpu::ContactPush)) {}

gpu::ContactPush ContactDetection::push(uint32_t write) const {
    return {model_.count(), model_.tableSize - 1, model_.cellSize, model_.margin, model_.capacity, write,
            0, 0, 0, 0, 0, 0};
}

void ContactDetection::record(StepRecorder& rec, const Passes& passes, const GpuBuffer& p, const GpuBuffer& stats,
                              bool colour) const {
    const uint32_t gridPass = passes.grid, pairsPass = passes.pairs;
    const uint32_t n = model_.count();
    const gpu::ContactPush counting = push(0), writing = push(1);
    rec.run(gridPass, clear_, {&bucketCounts_, &bucketFill_}, model_.tableSize, counting);
    rec.run(gridPass, count_, {&p, &particles_, &bucketOf_, &bucketCounts_, &groups_}, n, counting);
    // bucketCounts_ becomes each bucket's first slot in the grid.
    bucketScan_.record(rec, gridPass, bucketCounts_, model_.tableSize, totals_, 1);
    rec.run(gridPass, fill_, {&bucketOf_, &bucketCounts_, &bucketFill_, &unordered_}, n, counting);
    rec.run(gridPass, order_, {&bucketOf_, &bucketCounts_, &bucketFill_, &unordered_, &sorted_}, n, counting);
    const std::initializer_list<const GpuBuffer*> pairBuffers = {
        &p,           &particles_,        &bucketCounts_,      &bucketFill_,  &sorted_,  &counts_, &offsets_,
        &neighbours_, &constraintCounts_, &constraintOffsets_, &constraints_, &colours_, &rounds_, &groups_};
    rec.run(pairsPass, pairs_, pairBuffers, n, counting);
    pairScan_.record(rec, pairsPass, offsets_, n, totals_, 0);
    constraintScan_.record(rec, pairsPass, constraintOffsets_, n, totals_, 2);
    rec.run(pairsPass, pairs_, pairBuffers, n, writing);
    rec.run(pairsPass, stats_, {&totals_, &stats}, 1, writing);
    // The constraint of every entry, which both the colouring and the
    // Jacobi average's leftover filter read.
    rec.run(pairsPass, incidence_,
            {&counts_, &offsets_, &neighbours_, &constraintCounts_, &constraintOffsets_, &constraints_, &constraintOf_},
            n, writing);
    if (!colour) return;
    // Jones-Plassmann rounds, then each colour's list and dispatch: every
    // pass over the constraints is dispatched by the count the GPU wrote.
    gpu::ContactPush limits = writing;
    limits.round = colourRound_.maxGroupCount();
    rec.runWritingGroupCounts(passes.colouring, dispatchAll_, {&totals_, &dispatches_, &colourTable_}, 1, limits);
    for (uint32_t round = 0; round < gpu::kContactColourRounds; ++round) {
        gpu::ContactPush roundPush = writing;
        roundPush.round = round;
        rec.runIndirect(
            passes.colouring, colourRound_,
            {&counts_, &offsets_, &totals_, &constraints_, &constraintOf_, &colours_, &rounds_, &dispatches_,
             &localIndices_},
            dispatches_, 0, roundPush);
    }
    rec.runIndirect(passes.colouring, colourStats_, {&totals_, &colours_, &stats, &dispatches_, &colourTable_},
                    dispatches_, 0, writing);
    rec.runWritingGroupCounts(passes.colouring, listColours_, {&dispatches_, &colourTable_}, 1, limits);
    rec.runIndirect(passes.colouring, colourScatter_, {&totals_, &dispatches_, &colours_, &colourTable_, &colourLists_},
                    dispatches_, 0, writing);
}

ContactLists ContactDetection::read() const {
    ContactLists lists{counts_.downloadArray<uint32_t>(), offsets_.downloadArray<uint32_t>(),
                       neighbours_.downloadArray<uint32_t>(), constraints_.downloadArray<glm::uvec2>(),
                       colours_.downloadArray<uint32_t>()};
    const uint32_t constraintCount = std::min(totals_.downloadArray<uint32_t>().at(2), model_.capacity / 2);
    lists.constraints.resize(constraintCount);
    lists.colours.resize(constraintCount);
    lists.counts.resize(model_.count());
    lists.offsets.resize(model_.count());
    lists.neighbours.resize(model_.capacity);
    return lists;
}

}  // namespace vksim
