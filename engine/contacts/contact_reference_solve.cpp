#include "contacts/contact_reference_solve.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <utility>

#include "contacts/contact_reference.h"
#include "geometry/shared_math.h"
#include "shaders/vbd/vbd_types.h"

namespace vksim {

namespace {

glm::dvec3 restOf(const gpu::ContactParticle& particle) { return glm::dvec3(glm::vec3(particle.rest)); }

// contact_colour.comp's priority: the pair numbered within its contact group.
uint32_t pairHash(const ContactModel& model, const glm::uvec2& pair) {
    return ref::contactPairHash(model.localIndices[pair.x], model.localIndices[pair.y]);
}
double thicknessOf(const gpu::ContactParticle& particle) { return double(particle.rest.w); }

// A pair's friction coefficients (mu_s, mu_k): the two objects' combined
// (springs/contact_energy.glsl's contactEntryFriction).
glm::dvec2 pairFriction(const gpu::ContactParticle& a, const gpu::ContactParticle& b) {
    return {std::sqrt(double(a.staticFriction) * double(b.staticFriction)),
            std::sqrt(double(a.friction) * double(b.friction))};
}

}  // namespace

ContactReferenceSolve::Side ContactReferenceSolve::side(uint32_t k, std::span<const glm::dvec3> p,
                                                        std::span<const glm::dvec3> x,
                                                        std::span<const double> inverseMasses) const {
    const gpu::ContactParticle& particle = model_.particles[k];
    return {k, p[particle.particle], x[particle.particle], inverseMasses[particle.particle]};
}

// contact_response.glsl's contactActive, in double (geometry/shared_math.h).
bool ContactReferenceSolve::touching(const Side& a, const Side& b) const {
    const double distance = thicknessOf(model_.particles[a.k]) + thicknessOf(model_.particles[b.k]);
    return ref::contactTouching(a.p - b.p, a.w, b.w, a.x, b.x, distance);
}

// contact_response.glsl's contactCorrection, a's from its contact with b.
glm::dvec3 ContactReferenceSolve::correction(const Side& a, const Side& b) const {
    const gpu::ContactParticle &pa = model_.particles[a.k], &pb = model_.particles[b.k];
    return ref::contactCorrection(a.p, a.w, a.x, b.p, b.w, b.x, restOf(pa) - restOf(pb),
                                  thicknessOf(pa) + thicknessOf(pb),
                                  std::sqrt(double(pa.staticFriction) * double(pb.staticFriction)),
                                  std::sqrt(double(pa.friction) * double(pb.friction)), a.k < b.k);
}

ContactReferenceSolve::ContactReferenceSolve(const SharedModel& model, ParticleRange inIterations)
    : model_(buildContactModel(model, inIterations)), incident_(model_.count()) {}

template <typename Visit>
void ContactReferenceSolve::forTouchingPairs(uint32_t particle, const glm::dvec3& p,
                                             std::span<const glm::dvec3> others, std::span<const glm::dvec3> x,
                                             std::span<const double> inverseMasses, ParticleRange range, double h,
                                             Visit&& visit) const {
    const uint32_t k = model_.contactOf[particle];
    if (k == gpu::kNotAContactParticle) return;
    const gpu::ContactParticle& a = model_.particles[k];
    for (const uint32_t c : incident_[k]) {
        if (c >= constraints_.size()) continue;  // a vertex-triangle constraint: the pairs' energy only
        const uint32_t l = constraints_[c].x == k ? constraints_[c].y : constraints_[c].x;
        const gpu::ContactParticle& b = model_.particles[l];
        const uint32_t j = b.particle;
        if (!range.contains(j)) continue;
        const double distance = thicknessOf(a) + thicknessOf(b);
        const double wi = inverseMasses[particle], wj = inverseMasses[j];
        if (!ref::contactTouching(p - others[j], wi, wj, x[particle], x[j], distance)) continue;
        visit(l, j,
              ref::contactPenalty(p, wi, x[particle], others[j], wj, x[j], restOf(a) - restOf(b), distance, k < l, h));
    }
}

ContactReferenceSolve::Penalty ContactReferenceSolve::penalty(uint32_t particle, const glm::dvec3& p,
                                                              std::span<const glm::dvec3> others,
                                                              std::span<const glm::dvec3> x,
                                                              std::span<const double> inverseMasses,
                                                              ParticleRange range, double h) const {
    Penalty sum;
    forTouchingPairs(particle, p, others, x, inverseMasses, range, h,
                     [&](uint32_t, uint32_t j, const ref::ContactPenalty& term) {
                         const glm::dmat3 block = term.stiffness * glm::outerProduct(term.n, term.n);
                         sum.energy += term.energy;
                         sum.gradient += term.gradient;
                         sum.hessian += block;
                         sum.couplings.push_back({j, -block});
                     });
    return sum;
}

ContactReferenceSolve::Friction ContactReferenceSolve::friction(uint32_t particle, const glm::dvec3& p,
                                                                std::span<const glm::dvec3> others,
                                                                std::span<const glm::dvec3> x,
                                                                std::span<const double> inverseMasses,
                                                                ParticleRange range, double h,
                                                                const glm::dvec3& gradient,
                                                                const glm::dmat3& hessian) const {
    Friction sum;
    const double normalTotal = this->normalTotal(particle, p, others, x, inverseMasses, range, h);
    if (!(normalTotal > 0.0)) return sum;
    const gpu::ContactParticle& a = model_.particles[model_.contactOf[particle]];
    forTouchingPairs(particle, p, others, x, inverseMasses, range, h,
                     [&](uint32_t l, uint32_t j, const ref::ContactPenalty& term) {
                         const glm::dvec2 mu = pairFriction(a, model_.particles[l]);
                         const ref::LaggedFriction f =
                             ref::contactPairFriction(term, p - others[j], x[particle] - x[j], normalTotal, mu.x,
                                                      mu.y, double(gpu::kVbdFrictionStickSpeed) * h, gradient, hessian);
                         sum.gradient += f.gradient;
                         sum.hessian += f.hessian;
                     });
    return sum;
}

std::vector<ContactReferenceSolve::FrictionLag> ContactReferenceSolve::frictionLags(
    uint32_t particle, std::span<const glm::dvec3> others, std::span<const glm::dvec3> x,
    std::span<const double> inverseMasses, ParticleRange range, double h, std::span<const double> normalTotals) const {
    std::vector<FrictionLag> lags;
    const glm::dvec3& p = others[particle];
    forTouchingPairs(particle, p, others, x, inverseMasses, range, h,
                     [&](uint32_t l, uint32_t j, const ref::ContactPenalty& term) {
                         // springs/newton_assemble.glsl's contactPairHoldShare.
                         const double push = term.stiffness * term.depth;
                         double share = 0.0;
                         if (inverseMasses[particle] > 0.0)
                             share = std::max(share, push / normalTotals[particle - range.first]);
                         if (inverseMasses[j] > 0.0) share = std::max(share, push / normalTotals[j - range.first]);
                         const glm::dvec2 mu =
                             pairFriction(model_.particles[model_.contactOf[particle]], model_.particles[l]);
                         lags.push_back({j, term.n,
                                         ref::contactPairFrictionLoad(term, p - others[j], x[particle] - x[j], share,
                                                                      mu.x, mu.y)});
                     });
    return lags;
}

std::vector<double> ContactReferenceSolve::normalTotals(std::span<const glm::dvec3> others,
                                                        std::span<const glm::dvec3> x,
                                                        std::span<const double> inverseMasses, ParticleRange range,
                                                        double h) const {
    std::vector<double> totals(range.count);
    for (uint32_t r = 0; r < range.count; ++r)
        totals[r] = normalTotal(range.first + r, others[range.first + r], others, x, inverseMasses, range, h);
    return totals;
}

double ContactReferenceSolve::normalTotal(uint32_t particle, const glm::dvec3& p, std::span<const glm::dvec3> others,
                                          std::span<const glm::dvec3> x, std::span<const double> inverseMasses,
                                          ParticleRange range, double h) const {
    double total = 0.0;
    forTouchingPairs(particle, p, others, x, inverseMasses, range, h,
                     [&](uint32_t, uint32_t, const ref::ContactPenalty& term) { total += term.stiffness * term.depth; });
    return total;
}

void ContactReferenceSolve::detect(std::span<const glm::dvec3> p, std::span<const double> inverseMasses,
                                   ContactSolve solve) {
    constraints_.clear();
    for (std::vector<uint32_t>& list : incident_) list.clear();
    // contact_pairs.comp's rules (contact_reference.h tests the grid against them).
    for (uint32_t k = 0; k < model_.count(); ++k)
        for (uint32_t l = k + 1; l < model_.count(); ++l) {
            const gpu::ContactParticle &a = model_.particles[k], &b = model_.particles[l];
            if ((a.flags >> gpu::kContactGroupShift) != (b.flags >> gpu::kContactGroupShift)) continue;
            if (((a.flags | b.flags) & gpu::kContactUnused) != 0) continue;  // a spare particle no split took
            if (a.object == b.object) {
                if ((a.flags & gpu::kContactSelf) == 0) continue;
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
    detectTriangles(p, inverseMasses);
    detectEdges(p, inverseMasses);
    colours_.assign(setSize(), gpu::kNoColour);
    if (solve == ContactSolve::Colours) colour();
}

// triangle_pairs.comp's rules (contact_reference.h's vertexTriangleContact).
void ContactReferenceSolve::detectTriangles(std::span<const glm::dvec3> p, std::span<const double> inverseMasses) {
    triangleContacts_.clear();
    auto state = [&](uint32_t k) {
        const uint32_t particle = model_.particles[k].particle;
        return std::pair(p[particle], inverseMasses[particle]);
    };
    for (uint32_t t = 0; t < model_.triangleCount(); ++t) {
        const gpu::ContactTriangle& tri = model_.triangles[t];
        for (uint32_t k = 0; k < model_.count(); ++k) {
            const TriangleCandidate candidate = vertexTriangleContact(model_, t, k, state);
            if (!candidate.neighbour) continue;
            // Its number in the set, after the pairs.
            const auto c = static_cast<uint32_t>(constraints_.size() + triangleContacts_.size());
            for (const uint32_t particle : {k, tri.a, tri.b, tri.c}) incident_[particle].push_back(c);
            triangleContacts_.push_back({k, t, gpu::kSurfaceVertexTriangle, 0, glm::uvec4(k, tri.a, tri.b, tri.c),
                                         glm::vec4(glm::vec3(candidate.weights), 0.0f)});
        }
    }
}

// edge_pairs.comp's rules (contact_reference.h's edgeCandidate), after the
// vertex-triangle constraints.
void ContactReferenceSolve::detectEdges(std::span<const glm::dvec3> p, std::span<const double> inverseMasses) {
    auto position = [&](uint32_t k) { return p[model_.particles[k].particle]; };
    auto w = [&](uint32_t k) { return inverseMasses[model_.particles[k].particle]; };
    for (uint32_t e = 0; e < model_.edgeCount(); ++e) {
        const gpu::ContactEdge& first = model_.edges[e];
        for (uint32_t f = e + 1; f < model_.edgeCount(); ++f) {
            const gpu::ContactEdge& second = model_.edges[f];
            const EdgeCandidate candidate =
                edgeCandidate(model_, e, f, position(first.a), position(first.b), position(second.a),
                              position(second.b), w(first.a), w(first.b), w(second.a), w(second.b));
            if (!candidate.neighbour) continue;
            const auto c = static_cast<uint32_t>(constraints_.size() + triangleContacts_.size());
            const glm::uvec4 particles(first.a, first.b, second.a, second.b);
            for (uint32_t role = 0; role < 4; ++role) incident_[particles[role]].push_back(c);
            triangleContacts_.push_back(
                {e, f, gpu::kSurfaceEdgeEdge, 0, particles, glm::vec4(candidate.weights)});
        }
    }
}

glm::uvec4 ContactReferenceSolve::triangleParticles(uint32_t t) const { return triangleContacts_[t].particles; }

uint32_t ContactReferenceSolve::setSize() const {
    return static_cast<uint32_t>(constraints_.size() + triangleContacts_.size());
}

uint32_t ContactReferenceSolve::particleCount(uint32_t c) const { return c < constraints_.size() ? 2 : 4; }

glm::uvec4 ContactReferenceSolve::particlesOf(uint32_t c) const {
    const auto pairs = static_cast<uint32_t>(constraints_.size());
    if (c < pairs) return {constraints_[c].x, constraints_[c].y, gpu::kNotAContactParticle, gpu::kNotAContactParticle};
    return triangleParticles(c - pairs);
}

// contact_colour.comp's priority.
uint32_t ContactReferenceSolve::priority(uint32_t c) const {
    const auto pairs = static_cast<uint32_t>(constraints_.size());
    if (c < pairs) return pairHash(model_, constraints_[c]);
    const gpu::TriangleContact& contact = triangleContacts_[c - pairs];
    if (contact.kind == gpu::kSurfaceEdgeEdge)
        return ref::contactPairHash(model_.edgeLocalIndices[contact.vertex], model_.edgeLocalIndices[contact.triangle]);
    return ref::contactPairHash(model_.localIndices[contact.vertex], model_.triangleLocalIndices[contact.triangle]);
}

// contact_response.glsl's contactInPass, triangle_response.glsl's triangleInPass.
bool ContactReferenceSolve::inPass(uint32_t c, uint32_t pairs) const {
    const glm::uvec4 k = particlesOf(c);
    uint32_t flags = ~0u;
    bool oneObject = true;
    for (uint32_t side = 0; side < particleCount(c); ++side) {
        flags &= model_.particles[k[side]].flags;
        oneObject = oneObject && model_.particles[k[side]].object == model_.particles[k[0]].object;
    }
    if (pairs == gpu::kContactPairsWithinObjects && !oneObject) return false;
    return pairs == gpu::kContactPairsAll || (flags & gpu::kContactInIterations) != 0;
}

// triangle_response.glsl in double: both kinds as the pair constraint
// between their two points of frozen weights.
ContactReferenceSolve::Projection ContactReferenceSolve::projectTriangle(uint32_t t, std::span<const glm::dvec3> p,
                                                                         std::span<const glm::dvec3> x,
                                                                         std::span<const double> inverseMasses) const {
    const gpu::TriangleContact& contact = triangleContacts_[t];
    const glm::uvec4 k = contact.particles;
    const glm::dvec4 weights = glm::dvec4(contact.weights);
    const bool edges = contact.kind == gpu::kSurfaceEdgeEdge;
    glm::dvec3 pos[4], start[4], rest[4];
    double w[4];
    for (uint32_t role = 0; role < 4; ++role) {
        const gpu::ContactParticle& particle = model_.particles[k[role]];
        pos[role] = p[particle.particle];
        start[role] = x[particle.particle];
        rest[role] = restOf(particle);
        w[role] = inverseMasses[particle.particle];
    }
    auto offset = [&](const glm::dvec3* at) {
        return edges ? ref::contactEdgeOffset(weights, at[0], at[1], at[2], at[3])
                     : ref::contactTriangleOffset(glm::dvec3(weights), at[0], at[1], at[2], at[3]);
    };
    const glm::dvec3 d = offset(pos), d0 = offset(start);
    const double wFirst = edges ? ref::contactTriangleInverseMass(glm::dvec3(weights.x, weights.y, 0.0), w[0], w[1], 0.0)
                                : w[0];
    const double wSecond = edges ? ref::contactTriangleInverseMass(glm::dvec3(weights.z, weights.w, 0.0), w[2], w[3], 0.0)
                                 : ref::contactTriangleInverseMass(glm::dvec3(weights), w[1], w[2], w[3]);
    // The second point's first particle: the triangle's corner a, the second edge's first end.
    const gpu::ContactParticle &first = model_.particles[k[0]], &second = model_.particles[k[edges ? 2 : 1]];
    const double distance = thicknessOf(first) + thicknessOf(second);
    Projection projection;
    if (!ref::contactTouching(d, wFirst, wSecond, d0, glm::dvec3(0.0), distance)) return projection;
    projection.active = true;
    const ref::TriangleCorrection correction = ref::contactTriangleCorrection(
        d, wFirst, d0, wSecond, offset(rest), distance,
        std::sqrt(double(first.staticFriction) * double(second.staticFriction)),
        std::sqrt(double(first.friction) * double(second.friction)));
    for (uint32_t role = 0; role < 4; ++role) {
        if (edges)
            projection.corrections[role] =
                role < 2 ? ref::contactFirstEdgeCorrection(correction, weights[role], w[role], wFirst)
                         : ref::contactCornerCorrection(correction, weights[role], w[role]);
        else
            projection.corrections[role] =
                role == 0 ? correction.vertex : ref::contactCornerCorrection(correction, weights[role - 1], w[role]);
    }
    return projection;
}

// contact_project_colour.comp's projectPair, contact_project.comp's pair
// terms: each particle's correction from the positions before the
// projection (a pinned particle's is zero).
ContactReferenceSolve::Projection ContactReferenceSolve::projectConstraint(
    uint32_t c, std::span<const glm::dvec3> p, std::span<const glm::dvec3> x,
    std::span<const double> inverseMasses) const {
    if (c >= constraints_.size()) return projectTriangle(c - static_cast<uint32_t>(constraints_.size()), p, x,
                                                         inverseMasses);
    const Side a = side(constraints_[c].x, p, x, inverseMasses), b = side(constraints_[c].y, p, x, inverseMasses);
    Projection projection;
    if (!touching(a, b)) return projection;
    projection.active = true;
    projection.corrections[0] = correction(a, b);
    projection.corrections[1] = correction(b, a);
    return projection;
}

// contact_colour_slots.comp and contact_colour.comp, round by round, over
// the whole set: each round's slots from the rounds before, then each
// constraint's decision from the slots (in number order here, in any order
// on the GPU: a decision reads the slots only).
void ContactReferenceSolve::colour() {
    const uint32_t count = setSize();
    const auto particles = static_cast<uint32_t>(incident_.size());
    std::vector<uint32_t> proposals(count, gpu::kNoColour), used(particles);
    std::vector<std::array<uint32_t, gpu::kContactColours>> slots(particles);
    auto stronger = [&](uint32_t d, uint32_t c) {
        const uint32_t hd = priority(d), hc = priority(c);
        return hd > hc || (hd == hc && d > c);
    };
    constexpr uint32_t kAll = (1u << gpu::kContactColours) - 1u;
    for (uint32_t round = 0; round < gpu::kContactColourRounds; ++round) {
        for (uint32_t k = 0; k < particles; ++k) {
            slots[k].fill(gpu::kNoColour);
            used[k] = 0;
            for (const uint32_t d : incident_[k]) {
                if (colours_[d] != gpu::kNoColour) {
                    if (colours_[d] < gpu::kContactColours) used[k] |= 1u << colours_[d];
                } else if (proposals[d] < gpu::kContactColours) {
                    uint32_t& best = slots[k][proposals[d]];
                    if (best == gpu::kNoColour || stronger(d, best)) best = d;
                }
            }
        }
        for (uint32_t c = 0; c < count; ++c) {
            if (colours_[c] != gpu::kNoColour) continue;
            const glm::uvec4 k = particlesOf(c);
            const uint32_t proposed = proposals[c];
            bool takes = round > 0 && proposed < gpu::kContactColours;
            uint32_t usedAll = 0, strongerProposals = 0;
            if (round > 0)
                for (uint32_t s = 0; s < particleCount(c); ++s) {
                    usedAll |= used[k[s]];
                    if (takes && (slots[k[s]][proposed] != c || ((used[k[s]] >> proposed) & 1u) != 0)) takes = false;
                    for (uint32_t j = 0; j < gpu::kContactColours; ++j) {
                        const uint32_t d = slots[k[s]][j];
                        if (d != gpu::kNoColour && d != c && stronger(d, c)) strongerProposals |= 1u << j;
                    }
                }
            if (takes) {
                colours_[c] = proposed;
                continue;
            }
            const uint32_t free = ~usedAll & kAll;
            if (free == 0) {
                colours_[c] = gpu::kLeftoverColour;
                continue;
            }
            const uint32_t candidates = (free & ~strongerProposals) != 0 ? free & ~strongerProposals : free;
            proposals[c] = ref::contactColourProposal(priority(c), round, candidates);
        }
    }
}

// contact_project_colour.comp colour by colour (constraints of one colour
// share no particle, so their order changes nothing), then the Jacobi
// average over what is left.
void ContactReferenceSolve::project(std::span<glm::dvec3> p, std::span<const glm::dvec3> x,
                                    std::span<const double> inverseMasses, ContactSolve solve, uint32_t pairs) const {
    // The workgroup path's iterations sweep the colours only: what the
    // colouring left out, and every pair under the Jacobi average, is
    // projected after the solve.
    const bool withinObjects = pairs == gpu::kContactPairsWithinObjects;
    if (withinObjects && solve != ContactSolve::Colours) return;
    const uint32_t count = setSize();
    std::vector<bool> leftover(count);
    for (uint32_t c = 0; c < count; ++c) leftover[c] = inPass(c, pairs);
    if (solve == ContactSolve::Colours)
        for (uint32_t colour = 0; colour < gpu::kContactColours; ++colour)
            for (uint32_t c = 0; c < count; ++c) {
                if (colours_[c] != colour || !leftover[c]) continue;
                leftover[c] = false;
                const Projection projection = projectConstraint(c, p, x, inverseMasses);
                if (!projection.active) continue;
                const glm::uvec4 k = particlesOf(c);
                for (uint32_t s = 0; s < particleCount(c); ++s)
                    p[model_.particles[k[s]].particle] += projection.corrections[s];
            }
    if (!withinObjects) average(p, x, inverseMasses, leftover);
}

// contact_active.comp, contact_project.comp and contact_apply.comp: each
// constraint weighted by one over the largest touching count of its
// particles, every correction from the positions before the pass.
void ContactReferenceSolve::average(std::span<glm::dvec3> p, std::span<const glm::dvec3> x,
                                    std::span<const double> inverseMasses, const std::vector<bool>& included) const {
    const uint32_t count = setSize();
    std::vector<Projection> projections(count);
    std::vector<uint32_t> touchingCounts(model_.count(), 0);
    for (uint32_t c = 0; c < count; ++c) {
        if (!included[c]) continue;
        projections[c] = projectConstraint(c, p, x, inverseMasses);
        if (!projections[c].active) continue;
        const glm::uvec4 k = particlesOf(c);
        for (uint32_t s = 0; s < particleCount(c); ++s) ++touchingCounts[k[s]];
    }
    std::vector<glm::dvec3> corrections(model_.count(), glm::dvec3(0.0));
    for (uint32_t c = 0; c < count; ++c) {
        if (!included[c] || !projections[c].active) continue;
        const glm::uvec4 k = particlesOf(c);
        uint32_t most = 0;
        for (uint32_t s = 0; s < particleCount(c); ++s) most = std::max(most, touchingCounts[k[s]]);
        for (uint32_t s = 0; s < particleCount(c); ++s)
            if (inverseMasses[model_.particles[k[s]].particle] > 0.0)
                corrections[k[s]] += projections[c].corrections[s] / double(most);
    }
    for (uint32_t k = 0; k < model_.count(); ++k) p[model_.particles[k].particle] += corrections[k];
}

}  // namespace vksim
