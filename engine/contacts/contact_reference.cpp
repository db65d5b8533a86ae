#include "contacts/contact_reference.h"

namespace vksim {

ContactCandidate contactCandidate(const ContactModel& model, std::span<const glm::vec4> p, uint32_t k, uint32_t l) {
    if (k == l) return {};
    const gpu::ContactParticle& a = model.particles[k];
    const gpu::ContactParticle& b = model.particles[l];
    // Contact groups (a batch's copies) never touch each other.
    if ((a.flags >> gpu::kContactGroupShift) != (b.flags >> gpu::kContactGroupShift)) return {};
    if (a.object == b.object) {
        if ((a.flags & gpu::kContactSelf) == 0) return {};
        const double touching = double(a.rest.w) + double(b.rest.w);
        const glm::dvec3 rest = glm::dvec3(glm::vec3(a.rest)) - glm::dvec3(glm::vec3(b.rest));
        if (glm::dot(rest, rest) < touching * touching) return {};
    }
    const glm::vec4 pk = p[a.particle], pl = p[b.particle];
    if (pk.w == 0.0f && pl.w == 0.0f) return {};
    const glm::dvec3 d = glm::dvec3(glm::vec3(pk)) - glm::dvec3(glm::vec3(pl));
    const double reach = double(a.rest.w) + double(b.rest.w) + double(model.margin);
    const double ratio = glm::dot(d, d) / (reach * reach);
    return {ratio < 1.0, ratio - 1.0};
}

std::vector<std::vector<uint32_t>> bruteForceNeighbours(const ContactModel& model, std::span<const glm::vec4> p) {
    std::vector<std::vector<uint32_t>> neighbours(model.count());
    for (uint32_t k = 0; k < model.count(); ++k)
        for (uint32_t l = 0; l < model.count(); ++l)
            if (contactCandidate(model, p, k, l).neighbour) neighbours[k].push_back(l);
    return neighbours;
}

}  // namespace vksim
