#include "sim/graph_coloring.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace vksim {
namespace {

static_assert(kMaxColors == 64, "UsedColors keeps one 64-bit mask per particle");

// Per particle, the set of colours already given to a constraint touching
// it: one 64-bit mask, which kMaxColors fits, so a star-shaped topology (one
// particle in thousands of constraints) costs what a grid does.
class UsedColors {
public:
    explicit UsedColors(uint32_t particleCount) : bits_(particleCount, 0) {}

    // Smallest colour free in every listed particle, or kOverflow.
    uint32_t firstFree(std::span<const uint32_t> particles) const {
        uint64_t taken = 0;
        for (uint32_t particle : particles) taken |= bits_[particle];
        return taken == ~uint64_t{0} ? kOverflow : static_cast<uint32_t>(std::countr_one(taken));
    }

    void mark(std::span<const uint32_t> particles, uint32_t color) {
        for (uint32_t particle : particles) bits_[particle] |= uint64_t{1} << color;
    }

private:
    std::vector<uint64_t> bits_;
};

}  // namespace

Coloring colorConstraints(std::span<const uint32_t> particles, uint32_t arity) {
    const std::span<const uint32_t> families[] = {particles};
    const uint32_t arities[] = {arity};
    return colorAcrossFamilies(families, arities).front();
}

std::vector<Coloring> colorAcrossFamilies(std::span<const std::span<const uint32_t>> particles,
                                          std::span<const uint32_t> arities) {
    if (particles.size() != arities.size())
        throw std::invalid_argument("colorAcrossFamilies: one arity per family");
    uint32_t particleCount = 0;
    for (size_t f = 0; f < particles.size(); ++f) {
        if (arities[f] == 0 || particles[f].size() % arities[f] != 0)
            throw std::invalid_argument("colorConstraints: the particle list is not a whole number of constraints");
        if (!particles[f].empty())
            particleCount = std::max(particleCount, *std::max_element(particles[f].begin(), particles[f].end()) + 1);
    }
    UsedColors used(particleCount);
    std::vector<Coloring> colorings(particles.size());
    uint32_t colorCount = 0;
    for (size_t f = 0; f < particles.size(); ++f) {
        const size_t constraintCount = particles[f].size() / arities[f];
        Coloring& coloring = colorings[f];
        coloring.colorOf.resize(constraintCount);
        for (size_t c = 0; c < constraintCount; ++c) {
            std::span<const uint32_t> touched = particles[f].subspan(c * arities[f], arities[f]);
            const uint32_t color = used.firstFree(touched);
            coloring.colorOf[c] = color;
            if (color == kOverflow) {
                ++coloring.overflowCount;
                continue;
            }
            used.mark(touched, color);
            colorCount = std::max(colorCount, color + 1);
        }
    }
    // A family alone keeps its own count (colorConstraints); together, every
    // family has the shared one.
    for (Coloring& coloring : colorings) coloring.colorCount = colorCount;
    return colorings;
}

ColorOrder orderByColor(const Coloring& coloring) {
    // Counting sort over the colours and, last, the overflow group (bucket
    // colorCount); walking the input in order keeps it stable.
    const uint32_t overflowBucket = coloring.colorCount;
    auto bucketOf = [&](uint32_t color) { return color == kOverflow ? overflowBucket : color; };
    std::vector<uint32_t> counts(coloring.colorCount + 1, 0);
    for (uint32_t color : coloring.colorOf) ++counts[bucketOf(color)];
    std::vector<uint32_t> next(counts.size());
    uint32_t first = 0;
    for (size_t bucket = 0; bucket < counts.size(); ++bucket) {
        next[bucket] = first;
        first += counts[bucket];
    }
    ColorOrder result;
    for (uint32_t color = 0; color < coloring.colorCount; ++color)
        result.groups.colors.push_back({next[color], counts[color]});
    result.groups.overflow = {next[overflowBucket], counts[overflowBucket]};
    result.order.resize(coloring.colorOf.size());
    for (uint32_t index = 0; index < coloring.colorOf.size(); ++index)
        result.order[next[bucketOf(coloring.colorOf[index])]++] = index;
    return result;
}

}  // namespace vksim
