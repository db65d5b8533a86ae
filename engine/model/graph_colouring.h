#pragma once
// Graph colouring of constraints for parallel Gauss-Seidel (docs/physics.md §1): two
// constraints that share a particle get different colours, so the GPU can
// project one colour per dispatch with one thread per constraint, no races
// and no atomics, and the result is the same as a serial sweep over the
// constraints in colour order. The colours are capped (kMaxColours); the
// constraints that find no free colour below the cap form the overflow
// group, projected after the colours by one GPU thread in input order, as
// Box2D v3 (b2_overflowIndex) and Jolt (the non-parallel split) do. Computed
// once per topology.
#include <array>
#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

namespace vksim {

// Constraints [first, first + count) of a family's array.
struct ColourRange {
    uint32_t first = 0;
    uint32_t count = 0;
};

// How a constraint family, sorted by colour (graph_colouring.h), is split
// into GPU dispatches: colour c is colours[c] (one thread per constraint),
// then the overflow group, the constraints that found no free colour below
// kMaxColours, in input order, projected one after another by one thread.
// Both the GPU and the CPU reference walk them in this order.
struct ColourGroups {
    std::vector<ColourRange> colours;
    ColourRange overflow;  // after the last colour; empty for every ordinary mesh

    // Dispatches per iteration of a family coloured on its own
    // (PbdColouring::PerFamily): one per colour, one for a non-empty overflow group.
    uint32_t dispatchCount() const { return static_cast<uint32_t>(colours.size()) + (overflow.count > 0 ? 1 : 0); }
};

// The most colours of one constraint family: one dispatch each per
// iteration, so this bounds what a pathological mesh costs (a UV sphere
// whose poles have valence 1,000 needed 1,000 stretch and 2,000 bending
// colours uncapped: 24,000 dispatches per substep at 8 iterations). 64
// because the colours used at a particle are then one 64-bit mask, so
// colouring takes O(arity) time per constraint and 8 bytes per particle
// whatever the mesh, and because ordinary meshes need far fewer: every
// scene in scenes/ at most 18 (a grid: 8 stretch, 18 bending), a triangle
// mesh about its largest valence in stretch colours and two to three times
// that in bending colours. A family under the cap keeps exactly its
// uncapped colouring.
inline constexpr uint32_t kMaxColours = 64;
// colourOf of a constraint that found no free colour below kMaxColours.
inline constexpr uint32_t kOverflow = kMaxColours;

struct Colouring {
    std::vector<uint32_t> colourOf;  // colour of each constraint, in input order, or kOverflow
    uint32_t colourCount = 0;        // colours used, at most kMaxColours
    uint32_t overflowCount = 0;     // constraints with colourOf == kOverflow
};

// Greedy colouring in input order: each constraint gets the smallest colour
// that none of its particles has been given yet, or kOverflow when all
// kMaxColours are taken (an overflow constraint takes no colour, so it
// blocks none). Constraint c touches particles[c * arity, (c + 1) * arity).
// Deterministic; O(constraints x arity) time and one 64-bit mask per particle.
Colouring colourConstraints(std::span<const uint32_t> particles, uint32_t arity);

// The constraints listed colour by colour, then the overflow group, input
// order kept inside each (a stable counting sort), and where each starts.
struct ColourOrder {
    std::vector<uint32_t> order;  // order[k] = input index of the k-th constraint
    ColourGroups groups;
};
ColourOrder orderByColour(const Colouring& colouring);

// One greedy colouring of several constraint families together
// (PbdColouring::AcrossFamilies, docs/physics.md §1): the families are
// walked in the order given, each constraint taking the smallest colour free
// at all its particles whatever family took the others there. Family i's
// constraint c touches particles[i][c * arities[i], (c + 1) * arities[i]).
// Each family's Colouring gets the shared colour count (a family may have no
// constraint of some colour) and its own overflow count.
std::vector<Colouring> colourAcrossFamilies(std::span<const std::span<const uint32_t>> particles,
                                          std::span<const uint32_t> arities);

// The particles of each constraint, `arity` of them one after another, as
// colourConstraints reads them. `particlesOf(constraint)` returns a std::array.
template <class Constraint, class ParticlesOf>
std::vector<uint32_t> constraintParticles(const std::vector<Constraint>& constraints, ParticlesOf particlesOf) {
    std::vector<uint32_t> particles;
    for (const Constraint& constraint : constraints)
        for (uint32_t particle : particlesOf(constraint)) particles.push_back(particle);
    return particles;
}

// Reorders a family in place by its colouring: colour by colour, then the
// overflow group; returns where each starts.
template <class Constraint>
ColourGroups sortByColour(std::vector<Constraint>& constraints, const Colouring& colouring) {
    ColourOrder colourOrder = orderByColour(colouring);
    std::vector<Constraint> sorted;
    sorted.reserve(constraints.size());
    for (uint32_t index : colourOrder.order) sorted.push_back(constraints[index]);
    constraints = std::move(sorted);
    return colourOrder.groups;
}

// Colours a constraint family on its own and reorders it in place.
// `particlesOf(constraint)` returns a std::array of the particle indices the
// constraint moves.
template <class Constraint, class ParticlesOf>
ColourGroups colourAndSortByColour(std::vector<Constraint>& constraints, ParticlesOf particlesOf) {
    if (constraints.empty()) return {};
    constexpr uint32_t arity = static_cast<uint32_t>(std::tuple_size_v<decltype(particlesOf(constraints[0]))>);
    return sortByColour(constraints, colourConstraints(constraintParticles(constraints, particlesOf), arity));
}

}  // namespace vksim
