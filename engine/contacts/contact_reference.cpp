#include "contacts/contact_reference.h"

#include "geometry/shared_math.h"

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

TriangleCandidate triangleCandidate(const ContactModel& model, uint32_t t, uint32_t k, const glm::dvec3& pk,
                                    const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc, double wk,
                                    double wa, double wb, double wc) {
    const gpu::ContactTriangle& triangle = model.triangles[t];
    if (k == triangle.a || k == triangle.b || k == triangle.c) return {};
    const gpu::ContactParticle& v = model.particles[k];
    const gpu::ContactParticle& a = model.particles[triangle.a];
    const gpu::ContactParticle& b = model.particles[triangle.b];
    const gpu::ContactParticle& c = model.particles[triangle.c];
    if (wk == 0.0 && wa + wb + wc == 0.0) return {};
    if ((v.flags >> gpu::kContactGroupShift) != (a.flags >> gpu::kContactGroupShift)) return {};  // two copies
    const double touching = double(v.rest.w) + double(a.rest.w);
    const double reach = touching + double(model.margin);
    if (v.object == a.object) {
        if ((a.flags & gpu::kContactSelf) == 0) return {};
        auto rest = [](const gpu::ContactParticle& particle) { return glm::dvec3(glm::vec3(particle.rest)); };
        const glm::dvec3 restWeights = ref::contactClosestOnTriangle(rest(v), rest(a), rest(b), rest(c));
        const glm::dvec3 d = ref::contactTriangleOffset(restWeights, rest(v), rest(a), rest(b), rest(c));
        if (glm::dot(d, d) < reach * reach) return {};
    }
    const glm::dvec3 weights = ref::contactClosestOnTriangle(pk, pa, pb, pc);
    const glm::dvec3 d = ref::contactTriangleOffset(weights, pk, pa, pb, pc);
    const double ratio = glm::dot(d, d) / (reach * reach);
    return {ratio < 1.0, ratio - 1.0, weights};
}

std::vector<std::vector<uint32_t>> bruteForceTriangleContacts(const ContactModel& model,
                                                               std::span<const glm::vec4> p) {
    std::vector<std::vector<uint32_t>> contacts(model.triangleCount());
    auto at = [&](uint32_t k) { return p[model.particles[k].particle]; };
    for (uint32_t t = 0; t < model.triangleCount(); ++t) {
        const gpu::ContactTriangle& triangle = model.triangles[t];
        const glm::vec4 a = at(triangle.a), b = at(triangle.b), c = at(triangle.c);
        for (uint32_t k = 0; k < model.count(); ++k) {
            const glm::vec4 v = at(k);
            if (triangleCandidate(model, t, k, glm::dvec3(glm::vec3(v)), glm::dvec3(glm::vec3(a)),
                                  glm::dvec3(glm::vec3(b)), glm::dvec3(glm::vec3(c)), v.w, a.w, b.w, c.w)
                    .neighbour)
                contacts[t].push_back(k);
        }
    }
    return contacts;
}

std::vector<std::vector<uint32_t>> bruteForceNeighbours(const ContactModel& model, std::span<const glm::vec4> p) {
    std::vector<std::vector<uint32_t>> neighbours(model.count());
    for (uint32_t k = 0; k < model.count(); ++k)
        for (uint32_t l = 0; l < model.count(); ++l)
            if (contactCandidate(model, p, k, l).neighbour) neighbours[k].push_back(l);
    return neighbours;
}

}  // namespace vksim
