#pragma once
// The contact detection on the CPU, in double precision, by brute force:
// every pair of contact particles tested against the rules the GPU's lists
// follow (contact_detection.h). For the tests of the grid, and for the CPU
// reference of the contact response.
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_model.h"

namespace vksim {

// Whether l is a neighbour of k at the working positions `p` (particle
// store indices), and how close to the detection distance their distance
// is: |d|^2 / reach^2 - 1, for tests that leave out pairs float cannot decide.
struct ContactCandidate {
    bool neighbour = false;
    double margin = 0.0;
};
ContactCandidate contactCandidate(const ContactModel& model, std::span<const glm::vec4> p, uint32_t k, uint32_t l);

// Whether contact particle k is in contact with triangle t
// (ContactModel::triangles) at the positions p* and inverse masses w*
// (k's, then the corners'), by the rules of triangle_pairs.comp but the
// closest point's (vertexTriangleContact has them all); how close
// to the detection distance it is (as for pairs); and the weights of the
// closest point.
struct TriangleCandidate {
    bool neighbour = false;
    double margin = 0.0;
    glm::dvec3 weights{0.0};
};
TriangleCandidate triangleCandidate(const ContactModel& model, uint32_t t, uint32_t k, const glm::dvec3& pk,
                                    const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc, double wk,
                                    double wa, double wb, double wc);

// triangle_pairs.comp's last rule (ownsClosestPoint): whether triangle t
// keeps the constraint of a vertex whose closest point on it has `weights`,
// `candidateOn(n)` being that vertex's triangleCandidate on triangle n.
bool ownsClosestPoint(const ContactModel& model, uint32_t t, const glm::dvec3& weights,
                      const std::function<TriangleCandidate(uint32_t)>& candidateOn);

// Contact particle k's triangleCandidate on triangle t with that last rule:
// every rule of triangle_pairs.comp. `state(i)` gives contact particle i's
// position and inverse mass, as a std::pair<glm::dvec3, double>.
template <class State>
TriangleCandidate vertexTriangleContact(const ContactModel& model, uint32_t t, uint32_t k, const State& state) {
    const auto [pk, wk] = state(k);
    auto candidateOn = [&](uint32_t n) {
        const gpu::ContactTriangle& tri = model.triangles[n];
        const auto [pa, wa] = state(tri.a);
        const auto [pb, wb] = state(tri.b);
        const auto [pc, wc] = state(tri.c);
        return triangleCandidate(model, n, k, pk, pa, pb, pc, wk, wa, wb, wc);
    };
    TriangleCandidate candidate = candidateOn(t);
    if (candidate.neighbour) candidate.neighbour = ownsClosestPoint(model, t, candidate.weights, candidateOn);
    return candidate;
}

// Whether edges e < f (ContactModel::edges) are in contact at the positions
// of their ends p* and inverse masses w* (e's ends, then f's), by the rules
// of edge_pairs.comp; how close to the detection distance they are (as for
// pairs); and the weights of the closest points (TriangleContact::weights).
struct EdgeCandidate {
    bool neighbour = false;
    double margin = 0.0;
    glm::dvec4 weights{0.0};
};
EdgeCandidate edgeCandidate(const ContactModel& model, uint32_t e, uint32_t f, const glm::dvec3& a0,
                            const glm::dvec3& a1, const glm::dvec3& b0, const glm::dvec3& b1, double w0, double w1,
                            double w2, double w3);

// Every edge's contact edges f > e, ascending, in O(m^2).
std::vector<std::vector<uint32_t>> bruteForceEdgeContacts(const ContactModel& model, std::span<const glm::vec4> p);

// Every triangle's contact particles, ascending, in O(n m).
std::vector<std::vector<uint32_t>> bruteForceTriangleContacts(const ContactModel& model,
                                                               std::span<const glm::vec4> p);

// Every contact particle's neighbours, ascending, in O(n^2).
std::vector<std::vector<uint32_t>> bruteForceNeighbours(const ContactModel& model, std::span<const glm::vec4> p);

}  // namespace vksim
