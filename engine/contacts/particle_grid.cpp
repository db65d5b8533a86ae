#include "contacts/particle_grid.h"

#include <array>

#include "contacts/contact_list_buffer.h"
#include "vk/dispatch_groups.h"

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
                          uint32_t totalIndex, const GpuBuffer* dispatches) const {
    const uint32_t n = model_.count();
    const gpu::ContactPush push = model_.push(0);
    const VkDeviceSize step = sizeof(VkDispatchIndirectCommand);
    VkDeviceSize next = 0;  // the next run's command in `dispatches`
    auto run = [&](const ComputeKernel& kernel, std::initializer_list<const GpuBuffer*> buffers, uint32_t count) {
        if (dispatches) {
            rec.runIndirect(pass, kernel, buffers, *dispatches, next, push);
            next += step;
        } else {
            rec.run(pass, kernel, buffers, count, push);
        }
    };
    run(clear_, {&bucketStart_, &bucketFill_}, model_.tableSize);
    run(count_, {&in.p, &in.particles, &bucketOf_, &bucketStart_, &in.groups, &in.cellSize}, n);
    // bucketStart_ holds the counts until the scan makes them each bucket's first slot.
    if (dispatches) {
        bucketScan_.recordIndirect(rec, pass, bucketStart_, model_.tableSize, totals, totalIndex, *dispatches, next);
        next += 3 * step;
    } else {
        bucketScan_.record(rec, pass, bucketStart_, model_.tableSize, totals, totalIndex);
    }
    run(fill_, {&bucketOf_, &bucketStart_, &bucketFill_, &unordered_}, n);
    run(order_, {&bucketOf_, &bucketStart_, &bucketFill_, &unordered_, &sorted_}, n);
}

std::vector<uint32_t> ParticleGrid::groupCounts() const {
    const uint32_t n = model_.count();
    const std::array<uint32_t, 3> scan = bucketScan_.groupCounts(model_.tableSize);
    const uint32_t groups[kDispatches] = {dispatchGroups(model_.tableSize, clear_.workgroupSize()),
                                          dispatchGroups(n, count_.workgroupSize()),
                                          scan[0],
                                          scan[1],
                                          scan[2],
                                          dispatchGroups(n, fill_.workgroupSize()),
                                          dispatchGroups(n, order_.workgroupSize())};
    std::vector<uint32_t> commands;
    for (const uint32_t x : groups) commands.insert(commands.end(), {x, 1u, 1u});
    return commands;
}

bool ParticleGrid::fitsIndirect() const {
    const std::vector<uint32_t> commands = groupCounts();
    for (size_t i = 0; i < commands.size(); i += 3)
        if (commands[i] > clear_.maxGroupCount()) return false;
    return true;
}

}  // namespace vksim
