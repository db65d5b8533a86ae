#include "contacts/contact_detection.h"

#include <algorithm>
#include <span>

#include "contacts/contact_constraints.h"
#include "contacts/contact_list_buffer.h"

namespace vksim {

ContactDetection::ContactDetection(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                                   const ContactConstraints& set)
    : model_(model),
      particles_(particles),
      set_(set),
      groups_(makeStorageBuffer<gpu::ContactGroup>(ctx, model.groups, "contact groups")),
      cellSize_(makeStorageBuffer(ctx, std::span<const float>(&model.cellSize, 1), "contact cell size")),
      grid_(ctx, model, "contact grid"),
      counts_(contactListBuffer(ctx, model.count(), "contact counts")),
      offsets_(contactListBuffer(ctx, model.count(), "contact offsets")),
      neighbours_(contactListBuffer(ctx, model.capacity, "contact neighbours")),
      totals_(contactListBuffer(ctx, 8, "contact totals")),
      constraintCounts_(contactListBuffer(ctx, model.count(), "contact constraint counts")),
      constraintOffsets_(contactListBuffer(ctx, model.count(), "contact constraint offsets")),
      constraints_(contactListBuffer(ctx, uint64_t{model.capacity / 2} * 2, "contact constraints")),
      kept_(contactListBuffer(ctx, uint64_t{model.count()} * gpu::kKeptNeighbours, "contact kept neighbours")),
      pairScan_(ctx, model.count(), "contact pair scan"),
      constraintScan_(ctx, model.count(), "contact constraint scan"),
      pairs_(ctx, "contacts/contact_pairs.comp", sizeof(gpu::ContactPush)),
      stats_(ctx, "contacts/contact_stats.comp", sizeof(gpu::ContactPush)) {}

void ContactDetection::record(StepRecorder& rec, const Passes& passes, const GpuBuffer& p,
                              const GpuBuffer& stats) const {
    const uint32_t gridPass = passes.grid, pairsPass = passes.pairs;
    const uint32_t n = model_.count();
    const gpu::ContactPush counting = model_.push(0), writing = model_.push(1);
    grid_.record(rec, gridPass, {p, particles_, groups_, cellSize_}, totals_, 1);
    const std::initializer_list<const GpuBuffer*> pairBuffers = {
        &p,          &particles_,        &grid_.bucketStart(), &grid_.bucketCount(), &grid_.sorted(), &counts_,
        &offsets_,   &neighbours_,       &constraintCounts_,  &constraintOffsets_,            &constraints_,
        &set_.colours(), &set_.proposals(), &groups_,            &set_.localIndices(),          &set_.priorities(),
        &kept_};
    rec.run(pairsPass, pairs_, pairBuffers, n, counting);
    pairScan_.record(rec, pairsPass, offsets_, n, totals_, 0);
    constraintScan_.record(rec, pairsPass, constraintOffsets_, n, totals_, 2);
    rec.run(pairsPass, pairs_, pairBuffers, n, writing);
    rec.run(pairsPass, stats_, {&totals_, &stats}, 1, writing);
}

ContactLists ContactDetection::read() const {
    ContactLists lists{counts_.downloadArray<uint32_t>(), offsets_.downloadArray<uint32_t>(),
                       neighbours_.downloadArray<uint32_t>(), constraints_.downloadArray<glm::uvec2>(),
                       set_.colours().downloadArray<uint32_t>()};
    const uint32_t constraintCount = std::min(totals_.downloadArray<uint32_t>().at(2), model_.capacity / 2);
    lists.constraints.resize(constraintCount);
    lists.colours.resize(constraintCount);
    lists.counts.resize(model_.count());
    lists.offsets.resize(model_.count());
    lists.neighbours.resize(model_.capacity);
    return lists;
}

}  // namespace vksim
