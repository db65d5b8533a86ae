#pragma once
// The contact detection on the CPU, in double precision, by brute force:
// every pair of contact particles tested against the rules the GPU's lists
// follow (contact_detection.h). For the tests of the grid, and for the CPU
// reference of the contact response.
#include <cstdint>
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
// (k's, then the corners'), by the rules of triangle_pairs.comp; how close
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
