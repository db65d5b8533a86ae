#include "contacts/triangle_response.h"

#include <algorithm>

namespace vksim {

TriangleResponse::TriangleResponse(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                                   const TriangleDetection& detection)
    : model_(model),
      particles_(particles),
      detection_(detection),
      active_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.count()} * sizeof(uint32_t)),
              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal, "triangle contact active"),
      corrections_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.count()} * sizeof(glm::vec4)),
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal, "triangle contact corrections"),
      countActive_(ctx, "contacts/triangle_active.comp", sizeof(gpu::ContactPush)),
      project_(ctx, "contacts/triangle_project.comp", sizeof(gpu::ContactPush)),
      apply_(ctx, "contacts/contact_apply.comp", sizeof(gpu::ContactPush)),
      projectColour_(ctx, "contacts/triangle_project_colour.comp", sizeof(gpu::ContactPush)) {}

void TriangleResponse::record(StepRecorder& rec, uint32_t pass, ContactSolve solve, uint32_t pairs,
                              const GpuBuffer& x, const GpuBuffer& p, StepPosition at,
                              std::string_view workingName) const {
    const uint32_t n = model_.count();
    const bool colours = solve == ContactSolve::Colours;
    gpu::ContactPush push = detection_.push(1);
    push.leftoverOnly = colours ? 1u : 0u;
    push.pairs = pairs;
    const TriangleDetection& d = detection_;
    if (colours)
        for (uint32_t colour = 0; colour < gpu::kContactColours; ++colour) {
            push.round = colour;
            rec.runIndirect(pass, projectColour_,
                            {&x, &p, &particles_, &d.triangles(), &d.contacts(), &d.dispatches(), &d.colourTable(),
                             &d.colourLists()},
                            d.dispatches(), sizeof(gpu::ContactDispatch) * (gpu::kFirstColourDispatch + colour), push,
                            at, {&p, workingName});
        }
    rec.run(pass, countActive_,
            {&x, &p, &particles_, &d.triangles(), &d.contacts(), &d.incidenceStart(), &d.incidenceCount(),
             &d.incidence(), &d.colours(), &active_},
            n, push);
    rec.run(pass, project_,
            {&x, &p, &particles_, &d.triangles(), &d.contacts(), &d.incidenceStart(), &d.incidenceCount(),
             &d.incidence(), &d.colours(), &active_, &corrections_},
            n, push);
    rec.run(pass, apply_, {&p, &particles_, &corrections_}, n, push, at, {&p, workingName});
}

}  // namespace vksim
