#include "contacts/contact_response.h"

#include <algorithm>

namespace vksim {

ContactResponse::ContactResponse(const VulkanContext& ctx, const ContactModel& model, const GpuBuffer& particles,
                                 const ContactDetection& detection, const TriangleDetection* triangles,
                                 const ContactConstraints& set)
    : model_(model),
      particles_(particles),
      detection_(detection),
      triangles_(triangles),
      set_(set),
      active_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.count()} * sizeof(uint32_t)),
              VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal, "contact active"),
      corrections_(ctx, std::max<VkDeviceSize>(16, VkDeviceSize{model.count()} * sizeof(glm::vec4)),
                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::DeviceLocal, "contact corrections"),
      countActive_(ctx, "contacts/contact_active.comp", sizeof(gpu::ContactPush)),
      project_(ctx, "contacts/contact_project.comp", sizeof(gpu::ContactPush)),
      apply_(ctx, "contacts/contact_apply.comp", sizeof(gpu::ContactPush)),
      projectColour_(ctx, "contacts/contact_project_colour.comp", sizeof(gpu::ContactPush)) {}

void ContactResponse::record(StepRecorder& rec, uint32_t pass, ContactSolve solve, uint32_t pairs,
                             const GpuBuffer& x, const GpuBuffer& p, StepPosition at,
                             std::string_view workingName) const {
    const uint32_t n = model_.count();
    const bool colours = solve == ContactSolve::Colours;
    gpu::ContactPush push = model_.push();
    push.leftoverOnly = colours ? 1u : 0u;
    push.pairs = pairs;
    const ContactDetection& d = detection_;
    const GpuBuffer& contacts = set_.triangleContacts(triangles_);
    if (colours)
        for (uint32_t colour = 0; colour < gpu::kContactColours; ++colour) {
            push.round = colour;
            rec.runIndirect(pass, projectColour_,
                            {&x, &p, &particles_, &d.totals(), &d.constraints(), &contacts,
                             &set_.dispatches(), &set_.colourTable(), &set_.colourLists()},
                            set_.dispatches(), sizeof(gpu::ContactDispatch) * (gpu::kFirstColourDispatch + colour),
                            push, at, {&p, workingName});
        }
    // The Jacobi average: over every particle, or by colours over the
    // particles of the constraints the colouring left out (none: zero
    // workgroups).
    const GpuBuffer &dispatches = set_.dispatches(), &table = set_.colourTable(), &list = set_.leftoverParticles();
    const VkDeviceSize leftovers = sizeof(gpu::ContactDispatch) * gpu::kLeftoverParticlesDispatch;
    auto jacobi = [&](const ComputeKernel& kernel, std::initializer_list<const GpuBuffer*> buffers,
                      ProbedBuffer probed) {
        if (colours)
            rec.runIndirect(pass, kernel, buffers, dispatches, leftovers, push, at, probed);
        else
            rec.run(pass, kernel, buffers, n, push, at, probed);
    };
    jacobi(countActive_,
           {&x, &p, &particles_, &d.totals(), &d.constraints(), &contacts, &set_.incidenceStart(),
            &set_.incidenceCount(), &set_.incidence(), &set_.colours(), &active_, &dispatches, &table, &list},
           {});
    jacobi(project_,
           {&x, &p, &particles_, &d.totals(), &d.constraints(), &contacts, &set_.incidenceStart(),
            &set_.incidenceCount(), &set_.incidence(), &set_.colours(), &active_, &corrections_, &dispatches,
            &table, &list},
           {});
    jacobi(apply_, {&p, &particles_, &corrections_, &dispatches, &table, &list}, {&p, workingName});
}

}  // namespace vksim
