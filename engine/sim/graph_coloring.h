#pragma once
// Graph colouring of constraints for parallel Gauss-Seidel (docs/physics.md §1): two
// constraints that share a particle get different colours, so the GPU can
// project one colour per dispatch with one thread per constraint, no races
// and no atomics, and the result is the same as a serial sweep over the
// constraints in colour order. Computed once per topology.
#include <array>
#include <cstdint>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/sim_model.h"

namespace vksim {

struct Coloring {
    std::vector<uint32_t> colorOf;  // colour of each constraint, in input order
    uint32_t colorCount = 0;
};

// Greedy colouring in input order: each constraint gets the smallest colour
// that none of its particles has been given yet. Constraint c touches
// particles[c * arity, (c + 1) * arity). Deterministic; O(constraints x arity)
// while 64 colours suffice (one bit mask per particle), then one more 64-bit
// word per particle for every further 64 colours.
Coloring colorConstraints(std::span<const uint32_t> particles, uint32_t arity);

// The constraints listed colour by colour, input order kept inside a colour
// (a stable counting sort), and where each colour starts in that list.
struct ColorOrder {
    std::vector<uint32_t> order;  // order[k] = input index of the k-th constraint
    std::vector<ColorRange> ranges;
};
ColorOrder orderByColor(const Coloring& coloring);

// Colours a constraint family and reorders it by colour in place; returns the
// range of each colour. `particlesOf(constraint)` returns a std::array of the
// particle indices the constraint moves.
template <class Constraint, class ParticlesOf>
std::vector<ColorRange> colorAndSortByColor(std::vector<Constraint>& constraints, ParticlesOf particlesOf) {
    if (constraints.empty()) return {};
    constexpr uint32_t arity = static_cast<uint32_t>(std::tuple_size_v<decltype(particlesOf(constraints[0]))>);
    std::vector<uint32_t> particles;
    particles.reserve(constraints.size() * arity);
    for (const Constraint& constraint : constraints)
        for (uint32_t particle : particlesOf(constraint)) particles.push_back(particle);

    ColorOrder colorOrder = orderByColor(colorConstraints(particles, arity));
    std::vector<Constraint> sorted;
    sorted.reserve(constraints.size());
    for (uint32_t index : colorOrder.order) sorted.push_back(constraints[index]);
    constraints = std::move(sorted);
    return colorOrder.ranges;
}

}  // namespace vksim
