#include "contacts/contact_reference.h"

#include <utility>

#include "geometry/shared_math.h"

namespace vksim {

ContactCandidate contactCandidate(const ContactModel& model, std::span<const glm::vec4> p, uint32_t k, uint32_t l) {
    if (k == l) return {};
    const gpu::ContactParticle& a = model.particles[k];
    const gpu::ContactParticle& b = model.particles[l];
    if (((a.flags | b.flags) & gpu::kContactUnused) != 0) return {};  // a spare particle no split took
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

bool ownsClosestPoint(const ContactModel& model, uint32_t t, const glm::dvec3& weights,
                      const std::function<TriangleCandidate(uint32_t)>& candidateOn) {
    const uint32_t zeros = ref::contactZeroWeights(weights);
    if (zeros == 0) return true;
    if (zeros > 1) return false;
    const uint32_t across = model.triangleNeighbours[t][ref::contactOppositeCorner(weights)];
    if (across == gpu::kNoNeighbourTriangle) return true;
    const TriangleCandidate acrossCandidate = candidateOn(across);
    if (!acrossCandidate.neighbour) return true;
    const gpu::ContactTriangle &s = model.triangles[t], &n = model.triangles[across];
    const uint32_t off = ref::contactCornerOff(glm::uvec3(s.a, s.b, s.c), glm::uvec3(n.a, n.b, n.c));
    if (acrossCandidate.weights[off] != 0.0) return false;
    return t < across;
}

EdgeCandidate edgeCandidate(const ContactModel& model, uint32_t e, uint32_t f, const glm::dvec3& a0,
                            const glm::dvec3& a1, const glm::dvec3& b0, const glm::dvec3& b1, double w0, double w1,
                            double w2, double w3) {
    const gpu::ContactEdge &first = model.edges[e], &second = model.edges[f];
    if (first.a == second.a || first.a == second.b || first.b == second.a || first.b == second.b) return {};
    if (w0 + w1 == 0.0 && w2 + w3 == 0.0) return {};
    const gpu::ContactParticle &p0 = model.particles[first.a], &p1 = model.particles[first.b];
    const gpu::ContactParticle &p2 = model.particles[second.a], &p3 = model.particles[second.b];
    if ((p0.flags >> gpu::kContactGroupShift) != (p2.flags >> gpu::kContactGroupShift)) return {};  // two copies
    const double reach = double(p0.rest.w) + double(p2.rest.w) + double(model.margin);
    auto weightsAt = [](const glm::dvec2& at) { return glm::dvec4(1.0 - at.x, at.x, 1.0 - at.y, at.y); };
    if (first.object == second.object) {
        if ((p0.flags & gpu::kContactSelf) == 0) return {};
        auto rest = [](const gpu::ContactParticle& particle) { return glm::dvec3(glm::vec3(particle.rest)); };
        const glm::dvec4 restWeights = weightsAt(ref::contactClosestOnSegments(rest(p0), rest(p1), rest(p2), rest(p3)));
        const glm::dvec3 d = ref::contactEdgeOffset(restWeights, rest(p0), rest(p1), rest(p2), rest(p3));
        if (glm::dot(d, d) < reach * reach) return {};
    }
    const glm::dvec2 at = ref::contactClosestOnSegments(a0, a1, b0, b1);
    const glm::dvec4 weights = weightsAt(at);
    const glm::dvec3 d = ref::contactEdgeOffset(weights, a0, a1, b0, b1);
    const double ratio = glm::dot(d, d) / (reach * reach);
    return {ratio < 1.0 && ref::contactEdgesCrossInside(at), ratio - 1.0, weights};
}

std::vector<std::vector<uint32_t>> bruteForceEdgeContacts(const ContactModel& model, std::span<const glm::vec4> p) {
    std::vector<std::vector<uint32_t>> contacts(model.edgeCount());
    auto at = [&](uint32_t k) { return p[model.particles[k].particle]; };
    for (uint32_t e = 0; e < model.edgeCount(); ++e) {
        const glm::vec4 a0 = at(model.edges[e].a), a1 = at(model.edges[e].b);
        for (uint32_t f = e + 1; f < model.edgeCount(); ++f) {
            const glm::vec4 b0 = at(model.edges[f].a), b1 = at(model.edges[f].b);
            if (edgeCandidate(model, e, f, glm::dvec3(glm::vec3(a0)), glm::dvec3(glm::vec3(a1)),
                              glm::dvec3(glm::vec3(b0)), glm::dvec3(glm::vec3(b1)), a0.w, a1.w, b0.w, b1.w)
                    .neighbour)
                contacts[e].push_back(f);
        }
    }
    return contacts;
}

std::vector<std::vector<uint32_t>> bruteForceTriangleContacts(const ContactModel& model,
                                                               std::span<const glm::vec4> p) {
    std::vector<std::vector<uint32_t>> contacts(model.triangleCount());
    auto state = [&](uint32_t k) {
        const glm::vec4 at = p[model.particles[k].particle];
        return std::pair(glm::dvec3(glm::vec3(at)), double(at.w));
    };
    for (uint32_t t = 0; t < model.triangleCount(); ++t) {
        for (uint32_t k = 0; k < model.count(); ++k)
            if (vertexTriangleContact(model, t, k, state).neighbour) contacts[t].push_back(k);
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
