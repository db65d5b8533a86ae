#include "contacts/contact_reference_solve.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace vksim {

namespace {

// contact_colour.comp's priority of the pair (k, l), bit for bit.
uint32_t pairHash(uint32_t k, uint32_t l) {
    uint32_t h = (k * 0x9E3779B1u) ^ ((l + 0x7F4A7C15u) * 0x85EBCA77u);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

struct Side {
    const gpu::ContactParticle& particle;
    uint32_t k;
    glm::dvec3 p, x;
    double w;
};

glm::dvec3 restOf(const gpu::ContactParticle& particle) { return glm::dvec3(glm::vec3(particle.rest)); }
double thicknessOf(const gpu::ContactParticle& particle) { return double(particle.rest.w); }

// contact_response.glsl's contactCrossed and contactActive.
bool crossed(const Side& a, const Side& b) { return glm::dot(a.p - b.p, a.x - b.x) < 0.0; }

bool active(const Side& a, const Side& b) {
    const double distance = thicknessOf(a.particle) + thicknessOf(b.particle);
    const glm::dvec3 d = a.p - b.p;
    return a.w + b.w > 0.0 && (glm::dot(d, d) < distance * distance || crossed(a, b));
}

// contact_response.glsl's contactCorrection: a's correction from its
// contact with b, in double.
glm::dvec3 correction(const Side& a, const Side& b) {
    const double distance = thicknessOf(a.particle) + thicknessOf(b.particle);
    const glm::dvec3 d = a.p - b.p;
    const double length2 = glm::dot(d, d);
    glm::dvec3 n;
    double depth;
    if (crossed(a, b)) {
        n = glm::normalize(a.x - b.x);
        depth = distance - glm::dot(d, n);
    } else {
        if (length2 > 1e-12 * distance * distance) {
            n = d / std::sqrt(length2);
        } else {
            const glm::dvec3 rest = restOf(a.particle) - restOf(b.particle);
            n = glm::dot(rest, rest) > 0.0 ? glm::normalize(rest) : glm::dvec3(0.0, a.k < b.k ? 1.0 : -1.0, 0.0);
        }
        depth = distance - std::sqrt(length2);
    }
    const double share = a.w / (a.w + b.w);
    glm::dvec3 c = depth * n;
    const double mu = std::sqrt(double(a.particle.friction) * double(b.particle.friction));
    const glm::dvec3 moved = (a.p - a.x) - (b.p - b.x);
    const glm::dvec3 tangential = moved - glm::dot(moved, n) * n;
    const double slip = glm::length(tangential);
    if (slip > 0.0) c -= tangential * std::min(mu * depth / slip, 1.0);
    return share * c;
}

}  // namespace

ContactReferenceSolve::ContactReferenceSolve(const SharedModel& model)
    : model_(buildContactModel(model)), incident_(model_.count()) {}

void ContactReferenceSolve::detect(std::span<const glm::dvec3> p, std::span<const double> inverseMasses,
                                   ContactSolve solve) {
    constraints_.clear();
    for (std::vector<uint32_t>& list : incident_) list.clear();
    // contact_pairs.comp's rules (contact_reference.h tests the grid against them).
    for (uint32_t k = 0; k < model_.count(); ++k)
        for (uint32_t l = k + 1; l < model_.count(); ++l) {
            const gpu::ContactParticle &a = model_.particles[k], &b = model_.particles[l];
            if (a.object == b.object) {
                if (a.self == 0) continue;
                const double touching = thicknessOf(a) + thicknessOf(b);
                const glm::dvec3 rest = restOf(a) - restOf(b);
                if (glm::dot(rest, rest) < touching * touching) continue;
            }
            if (inverseMasses[a.particle] == 0.0 && inverseMasses[b.particle] == 0.0) continue;
            const glm::dvec3 d = p[a.particle] - p[b.particle];
            const double reach = thicknessOf(a) + thicknessOf(b) + double(model_.margin);
            if (glm::dot(d, d) >= reach * reach) continue;
            incident_[k].push_back(static_cast<uint32_t>(constraints_.size()));
            incident_[l].push_back(static_cast<uint32_t>(constraints_.size()));
            constraints_.push_back({k, l});
        }
    colours_.assign(constraints_.size(), gpu::kNoColour);
    if (solve == ContactSolve::Colours) colour();
}

// contact_colour.comp, round by round. A constraint's decision reads the
// rounds and colours of earlier rounds only, so deciding in place, in index
// order, gives what the GPU's threads give in any order: a neighbour that
// took a colour in this round still counts as a competitor.
void ContactReferenceSolve::colour() {
    std::vector<uint32_t> rounds(constraints_.size(), gpu::kNoColour);
    for (uint32_t round = 0; round < gpu::kContactColourRounds; ++round)
        for (uint32_t c = 0; c < constraints_.size(); ++c) {
            if (rounds[c] != gpu::kNoColour) continue;
            const uint32_t hc = pairHash(constraints_[c].x, constraints_[c].y);
            uint32_t used = 0;
            bool wins = true;
            for (const uint32_t k : {constraints_[c].x, constraints_[c].y}) {
                for (const uint32_t d : incident_[k]) {
                    if (d == c) continue;
                    if (rounds[d] >= round) {
                        const uint32_t hd = pairHash(constraints_[d].x, constraints_[d].y);
                        if (!(hc > hd || (hc == hd && c > d))) wins = false;
                    } else if (colours_[d] < gpu::kContactColours) {
                        used |= 1u << colours_[d];
                    }
                }
            }
            if (!wins) continue;
            const uint32_t free = ~used;
            const auto first = static_cast<uint32_t>(std::countr_zero(free));
            colours_[c] = free == 0 || first >= gpu::kContactColours ? gpu::kLeftoverColour : first;
            rounds[c] = round;
        }
}

void ContactReferenceSolve::project(std::span<glm::dvec3> p, std::span<const glm::dvec3> x,
                                    std::span<const double> inverseMasses, ContactSolve solve) const {
    auto side = [&](uint32_t k) {
        const gpu::ContactParticle& particle = model_.particles[k];
        return Side{particle, k, p[particle.particle], x[particle.particle], inverseMasses[particle.particle]};
    };
    std::vector<bool> leftover(constraints_.size(), true);
    if (solve == ContactSolve::Colours) {
        // contact_project_colour.comp: both particles from the positions
        // before the pair's projection.
        for (uint32_t colour = 0; colour < gpu::kContactColours; ++colour)
            for (uint32_t c = 0; c < constraints_.size(); ++c) {
                if (colours_[c] != colour) continue;
                leftover[c] = false;
                const Side a = side(constraints_[c].x), b = side(constraints_[c].y);
                if (!active(a, b)) continue;
                p[a.particle.particle] += correction(a, b);
                p[b.particle.particle] += correction(b, a);
            }
    }
    average(p, x, inverseMasses, leftover);
}

// contact_active.comp, contact_project.comp and contact_apply.comp: each
// pair weighted by 1 / max(touching_k, touching_l), every correction from
// the positions before the pass.
void ContactReferenceSolve::average(std::span<glm::dvec3> p, std::span<const glm::dvec3> x,
                                    std::span<const double> inverseMasses, const std::vector<bool>& included) const {
    auto side = [&](uint32_t k) {
        const gpu::ContactParticle& particle = model_.particles[k];
        return Side{particle, k, p[particle.particle], x[particle.particle], inverseMasses[particle.particle]};
    };
    std::vector<uint32_t> touching(model_.count(), 0);
    for (uint32_t c = 0; c < constraints_.size(); ++c)
        if (included[c] && active(side(constraints_[c].x), side(constraints_[c].y))) {
            ++touching[constraints_[c].x];
            ++touching[constraints_[c].y];
        }
    std::vector<glm::dvec3> corrections(model_.count(), glm::dvec3(0.0));
    for (uint32_t c = 0; c < constraints_.size(); ++c) {
        const uint32_t k = constraints_[c].x, l = constraints_[c].y;
        const Side a = side(k), b = side(l);
        if (!included[c] || !active(a, b)) continue;
        const double weight = 1.0 / double(std::max(touching[k], touching[l]));
        if (a.w > 0.0) corrections[k] += weight * correction(a, b);
        if (b.w > 0.0) corrections[l] += weight * correction(b, a);
    }
    for (uint32_t k = 0; k < model_.count(); ++k) p[model_.particles[k].particle] += corrections[k];
}

}  // namespace vksim
