#include "contacts/contact_constraints.h"

#include <algorithm>

#include "contacts/contact_list_buffer.h"
#include "contacts/triangle_detection.h"

namespace vksim {

ContactConstraints::ContactConstraints(const VulkanContext& ctx, const ContactModel& model)
    : model_(model),
      localIndices_(makeStorageBuffer<uint32_t>(ctx, model.localIndices, "contact indices within their group")),
      triangleLocalIndices_(makeStorageBuffer<uint32_t>(ctx, model.triangleLocalIndices,
                                                        "contact triangle indices within their group")),
      colours_(contactListBuffer(ctx, model.setCapacity(), "contact colours")),
      proposals_(contactListBuffer(ctx, model.setCapacity(), "contact colour proposals")),
      priorities_(contactListBuffer(ctx, model.setCapacity(), "contact colour priorities")),
      triangleStart_(contactListBuffer(ctx, model.hasTriangles() ? model.count() : 0, "contact triangle entries")),
      incidenceStart_(contactListBuffer(ctx, model.count(), "contact incidence start")),
      incidenceCount_(contactListBuffer(ctx, model.count(), "contact incidence count")),
      incidence_(contactListBuffer(ctx, model.incidenceCapacity(), "contact incidence")),
      usedColours_(contactListBuffer(ctx, model.count(), "contact colours taken per particle")),
      colourSlots_(contactListBuffer(ctx, VkDeviceSize{model.count()} * gpu::kContactColours * 2,
                                     "contact colour proposals per particle")),  // (constraint, priority) each
      unordered_(contactListBuffer(ctx, model.fourParticleIncidenceCapacity(), "contact incidence, unordered")),
      dispatches_(ctx, sizeof(gpu::ContactDispatch) * gpu::kContactDispatches,
                  VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, MemoryKind::DeviceLocal,
                  "contact dispatches"),
      colourTable_(ctx, sizeof(gpu::ContactColourTable),
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT, MemoryKind::DeviceLocal,
                   "contact colour table"),
      colourLists_(contactListBuffer(ctx, model.setCapacity(), "contact colour lists")),
      noTriangles_(contactListBuffer(ctx, 0, "contact no triangles")),
      leftoverOffsets_(contactListBuffer(ctx, model.count(), "contact leftover particle offsets")),
      leftoverParticles_(contactListBuffer(ctx, model.count(), "contact leftover particles")),
      triangleScan_(ctx, model.hasTriangles() ? model.count() : 1, "contact triangle entry scan"),
      leftoverScan_(ctx, std::max<uint32_t>(model.count(), 1), "contact leftover particle scan"),
      dispatchAll_(ctx, "contacts/contact_dispatch_all.comp", sizeof(gpu::ContactPush)),
      clear_(ctx, "contacts/grid_clear.comp", sizeof(gpu::ContactPush)),
      triangleCount_(ctx, "contacts/triangle_incidence_count.comp", sizeof(gpu::ContactPush)),
      incidenceKernel_(ctx, "contacts/contact_incidence.comp", sizeof(gpu::ContactPush)),
      triangleFill_(ctx, "contacts/triangle_incidence_fill.comp", sizeof(gpu::ContactPush)),
      order_(ctx, "contacts/contact_incidence_order.comp", sizeof(gpu::ContactPush)),
      colourSlotsKernel_(ctx, "contacts/contact_colour_slots.comp", sizeof(gpu::ContactPush)),
      colourRound_(ctx, "contacts/contact_colour.comp", sizeof(gpu::ContactPush)),
      colourStats_(ctx, "contacts/contact_colour_stats.comp", sizeof(gpu::ContactPush)),
      listColours_(ctx, "contacts/contact_colour_lists.comp", sizeof(gpu::ContactPush)),
      colourScatter_(ctx, "contacts/contact_colour_scatter.comp", sizeof(gpu::ContactPush)),
      leftoverFlags_(ctx, "contacts/contact_leftover_flags.comp", sizeof(gpu::ContactPush)),
      listLeftovers_(ctx, "contacts/contact_leftover_list.comp", sizeof(gpu::ContactPush)) {}

const GpuBuffer& ContactConstraints::triangleContacts(const TriangleDetection* triangles) const {
    return triangles ? triangles->contacts() : noTriangles_;
}

void ContactConstraints::record(StepRecorder& rec, const Passes& passes, const ContactDetection& pairs,
                                const TriangleDetection* triangles, const GpuBuffer& stats, bool colour) const {
    const uint32_t n = model_.count();
    const gpu::ContactPush writing = model_.push(1);
    gpu::ContactPush limits = writing;
    limits.round = colourRound_.maxGroupCount();
    const GpuBuffer& totals = pairs.totals();
    const GpuBuffer& contacts = triangleContacts(triangles);
    // Every later pass over the constraints is dispatched by the count the GPU wrote.
    if (colour || triangles)
        rec.runWritingGroupCounts(passes.incidence, dispatchAll_, {&totals, &dispatches_, &colourTable_}, 1, limits);
    if (triangles) {
        // Each particle's vertex-triangle entries, scanned into those before it.
        gpu::ContactPush perParticle = writing;
        perParticle.tableMask = n - 1;  // grid_clear.comp clears tableMask + 1 values
        rec.run(passes.incidence, clear_, {&triangleStart_, &incidenceCount_}, n, perParticle);
        rec.runIndirect(passes.incidence, triangleCount_, {&totals, &dispatches_, &contacts, &triangleStart_},
                        dispatches_, 0, writing);
        triangleScan_.record(rec, passes.incidence, triangleStart_, n, totals, 4);
    }
    // Each particle's four-particle entries, in the slots of `unordered`
    // the fill takes; its pairs, then those after them, ascending.
    if (triangles)
        rec.runIndirect(passes.incidence, triangleFill_,
                        {&totals, &dispatches_, &contacts, &triangleStart_, &incidenceCount_, &unordered_},
                        dispatches_, 0, writing);
    rec.run(passes.incidence, incidenceKernel_,
            {&pairs.counts(), &pairs.offsets(), &pairs.neighbours(), &pairs.constraintCounts(),
             &pairs.constraintOffsets(), &pairs.constraints(), &triangleStart_, &incidenceStart_, &incidenceCount_,
             &incidence_},
            n, writing);
    if (triangles) {
        rec.runIndirect(passes.incidence, order_,
                        {&totals, &dispatches_, &contacts, &triangleStart_, &incidenceStart_, &incidenceCount_,
                         &unordered_, &incidence_},
                        dispatches_, 0, writing);
    }
    if (!colour) return;
    // Rounds of proposals over every kind (round 0 only proposes, so it
    // needs no slots), then each colour's list and dispatch.
    for (uint32_t round = 0; round < gpu::kContactColourRounds; ++round) {
        gpu::ContactPush roundPush = writing;
        roundPush.round = round;
        if (round > 0)
            rec.run(passes.colouring, colourSlotsKernel_,
                    {&incidenceStart_, &incidenceCount_, &incidence_, &colours_, &proposals_, &priorities_,
                     &usedColours_, &colourSlots_},
                    n, roundPush);
        rec.runIndirect(passes.colouring, colourRound_,
                        {&totals, &dispatches_, &pairs.constraints(), &contacts, &usedColours_, &colourSlots_,
                         &colours_, &proposals_, &priorities_},
                        dispatches_, 0, roundPush);
    }
    rec.runIndirect(passes.colouring, colourStats_, {&totals, &colours_, &stats, &dispatches_, &colourTable_},
                    dispatches_, 0, writing);
    rec.runWritingGroupCounts(passes.colouring, listColours_, {&dispatches_, &colourTable_}, 1, limits);
    rec.runIndirect(passes.colouring, colourScatter_, {&totals, &dispatches_, &colours_, &colourTable_, &colourLists_},
                    dispatches_, 0, writing);
    // The particles of the constraints left without a colour, which the
    // Jacobi average over those runs over instead of every particle.
    rec.run(passes.colouring, leftoverFlags_,
            {&incidenceStart_, &incidenceCount_, &incidence_, &colours_, &leftoverOffsets_}, n, writing);
    leftoverScan_.record(rec, passes.colouring, leftoverOffsets_, n, colourTable_, gpu::kLeftoverParticlesIndex);
    rec.runWritingGroupCounts(passes.colouring, listLeftovers_,
                              {&leftoverOffsets_, &colourTable_, &dispatches_, &leftoverParticles_}, n, limits);
}

ContactSetLists ContactConstraints::read(const ContactDetection& pairs, const TriangleDetection* triangles) const {
    const std::vector<uint32_t> totals = pairs.totals().downloadArray<uint32_t>();
    ContactSetLists lists;
    lists.pairs = std::min(totals.at(2), model_.capacity / 2);
    const uint32_t fourParticle = triangles ? std::min(totals.at(3), model_.triangleCapacity) : 0;
    lists.colours = colours_.downloadArray<uint32_t>();
    lists.colours.resize(lists.pairs + fourParticle);
    lists.incidenceStart = incidenceStart_.downloadArray<uint32_t>();
    lists.incidenceStart.resize(model_.count());
    lists.incidenceCount = incidenceCount_.downloadArray<uint32_t>();
    lists.incidenceCount.resize(model_.count());
    lists.incidence = incidence_.downloadArray<uint32_t>();
    lists.incidence.resize(model_.incidenceCapacity());
    // Its length is written only by the colouring: without colours the
    // table holds no count, and the list is read as its capacity at most.
    const uint32_t leftovers = colourTable_.downloadArray<gpu::ContactColourTable>().at(0).leftoverParticles;
    lists.leftoverParticles = leftoverParticles_.downloadArray<uint32_t>();
    lists.leftoverParticles.resize(std::min(leftovers, model_.count()));
    return lists;
}

}  // namespace vksim
