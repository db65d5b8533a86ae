#include "bench/pass_traffic.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace vksim {
namespace {

// Bytes per element; vec4 = 16 B. p: predicted position, x: position, v:
// velocity (each a vec4), C: the constraint record (sim_types.h), material:
// its ConstraintMaterial row (16 B), lambda: its float multiplier.
// Projective dynamics and tetrahedral passes get their rows here as they are added.
constexpr std::array kPassTraffic{
    PassTraffic{"predict", ElementKind::Particle, 32, 32, "reads x, v; writes v, p"},
    PassTraffic{"collide: generate", ElementKind::Particle, 32, 16, "reads p, v (near a collider); writes contact"},
    PassTraffic{"stretch", ElementKind::DistanceConstraint, 68, 36,
                "reads C 16, 2 p, material, lambda; writes 2 p, lambda"},
    PassTraffic{"bending", ElementKind::BendingConstraint, 132, 68,
                "reads C 48, 4 p, material, lambda; writes 4 p, lambda"},
    PassTraffic{"attachment", ElementKind::AttachmentConstraint, 68, 20,
                "reads C 32, p, material, lambda; writes p, lambda"},
    PassTraffic{"collide: project", ElementKind::Particle, 24, 20,
                "reads contact bits 8, p; writes p, touching bits 4 (4 B read without candidates)"},
    PassTraffic{"update velocity", ElementKind::Particle, 32, 32, "reads x, p; writes v, x"},
    PassTraffic{"friction/restitution", ElementKind::Particle, 48, 16,
                "reads contact 16, x, v (when touching); writes v"},
    // An interior grid vertex has 6 triangles around it: per triangle its
    // index 4 B, its 3 vertex indices 12 B and their 3 positions 48 B.
    PassTraffic{"normals", ElementKind::Vertex, 8 + 6 * 64, 16,
                "reads 2 CSR offsets 8, 6 x (triangle index, 3 indices, 3 x); writes the normal"},
    PassTraffic{"finite check", ElementKind::Particle, 32, 0, "reads x, v"},
};

}  // namespace

std::span<const PassTraffic> passTrafficTable() { return kPassTraffic; }

const PassTraffic* findPassTraffic(std::string_view family) {
    const auto it = std::find_if(kPassTraffic.begin(), kPassTraffic.end(),
                                 [&](const PassTraffic& row) { return row.family == family; });
    return it == kPassTraffic.end() ? nullptr : &*it;
}

std::string passFamily(std::string_view passName) {
    constexpr std::string_view kColour = " colour ";
    const size_t at = passName.rfind(kColour);
    if (at == std::string_view::npos) return std::string(passName);
    const std::string_view number = passName.substr(at + kColour.size());
    const bool digits = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    return std::string(digits ? passName.substr(0, at) : passName);
}

uint64_t elementsPerSweep(ElementKind element, const SimModel& model) {
    switch (element) {
        case ElementKind::Particle:
        case ElementKind::Vertex: return model.particleCount();
        case ElementKind::DistanceConstraint: return model.distance.size();
        case ElementKind::BendingConstraint: return model.bending.size();
        case ElementKind::AttachmentConstraint: return model.attachments.size();
    }
    return 0;
}

std::string_view elementName(ElementKind element) {
    switch (element) {
        case ElementKind::Particle: return "particle";
        case ElementKind::Vertex: return "vertex";
        case ElementKind::DistanceConstraint: return "distance constraint";
        case ElementKind::BendingConstraint: return "bending constraint";
        case ElementKind::AttachmentConstraint: return "attachment constraint";
    }
    return "element";
}

}  // namespace vksim
