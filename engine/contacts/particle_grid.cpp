#include "contacts/particle_grid.h"

#include "contacts/contact_list_buffer.h"

namespace vksim {

ParticleGrid::ParticleGrid(const VulkanContext& ctx, const ContactModel& model, const std::string& name)
    : model_(model),
      bucketOf_(contactListBuffer(ctx, model.count(), name + " bucket of")),
      bucketStart_(contactListBuffer(ctx, model.tableSize, name + " bucket counts")),
      bucketFill_(contactListBuffer(ctx, model.tableSize, name + " bucket fill")),
      unordered_(contactListBuffer(ctx, model.count(), name + " unordered")),
      sorted_(contactListBuffer(ctx, model.count(), name)),
      bucketScan_(ctx, model.tableSize, name + " bucket scan"),
      clear_(ctx, "contacts/grid_clear.comp", sizeof(gpu::ContactPush)),
      count_(ctx, "contacts/grid_count.comp", sizeof(gpu::ContactPush)),
      fill_(ctx, "contacts/grid_fill.comp", sizeof(gpu::ContactPush)),
      order_(ctx, "contacts/grid_order.comp", sizeof(gpu::ContactPush)) {}

void ParticleGrid::record(StepRecorder& rec, uint32_t pass, const Inputs& in, const GpuBuffer& totals,
                          uint32_t totalIndex) const {
    const uint32_t n = model_.count();
    const gpu::ContactPush push = model_.push(0);
    rec.run(pass, clear_, {&bucketStart_, &bucketFill_}, model_.tableSize, push);
    rec.run(pass, count_, {&in.p, &in.particles, &bucketOf_, &bucketStart_, &in.groups, &in.cellSize}, n, push);
    // bucketStart_ holds the counts until the scan makes them each bucket's first slot.
    bucketScan_.record(rec, pass, bucketStart_, model_.tableSize, totals, totalIndex);
    rec.run(pass, fill_, {&bucketOf_, &bucketStart_, &bucketFill_, &unordered_}, n, push);
    rec.run(pass, order_, {&bucketOf_, &bucketStart_, &bucketFill_, &unordered_, &sorted_}, n, push);
}

}  // namespace vksim
