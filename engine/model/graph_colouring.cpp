#include "model/graph_colouring.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace vksim {
namespace {

static_assert(kMaxColours == 64, "UsedColours keeps one 64-bit mask per particle");

// Per particle, the set of colours already given to a constraint touching
// it: one 64-bit mask, which kMaxColours fits, so a star-shaped topology (one
// particle in thousands of constraints) costs what a grid does.
class UsedColours {
public:
    explicit UsedColours(uint32_t particleCount) : bits_(particleCount, 0) {}

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

Colouring colourConstraints(std::span<const uint32_t> particles, uint32_t arity) {
    const std::span<const uint32_t> families[] = {particles};
    const uint32_t arities[] = {arity};
    return colourAcrossFamilies(families, arities).front();
}

std::vector<Colouring> colourAcrossFamilies(std::span<const std::span<const uint32_t>> particles,
                                          std::span<const uint32_t> arities) {
    if (particles.size() != arities.size())
        throw std::invalid_argument("colourAcrossFamilies: one arity per family");
    uint32_t particleCount = 0;
    for (size_t f = 0; f < particles.size(); ++f) {
        if (arities[f] == 0 || particles[f].size() % arities[f] != 0)
            throw std::invalid_argument("colourConstraints: the particle list is not a whole number of constraints");
        if (!particles[f].empty())
            particleCount = std::max(particleCount, *std::max_element(particles[f].begin(), particles[f].end()) + 1);
    }
    UsedColours used(particleCount);
    std::vector<Colouring> colourings(particles.size());
    uint32_t colourCount = 0;
    for (size_t f = 0; f < particles.size(); ++f) {
        const size_t constraintCount = particles[f].size() / arities[f];
        Colouring& colouring = colourings[f];
        colouring.colourOf.resize(constraintCount);
        for (size_t c = 0; c < constraintCount; ++c) {
            std::span<const uint32_t> touched = particles[f].subspan(c * arities[f], arities[f]);
            const uint32_t color = used.firstFree(touched);
            colouring.colourOf[c] = color;
            if (color == kOverflow) {
                ++colouring.overflowCount;
                continue;
            }
            used.mark(touched, color);
            colourCount = std::max(colourCount, color + 1);
        }
    }
    // A family alone keeps its own count (colourConstraints); together, every
    // family has the shared one.
    for (Colouring& colouring : colourings) colouring.colourCount = colourCount;
    return colourings;
}

ColourOrder orderByColour(const Colouring& colouring) {
    // Counting sort over the colours and, last, the overflow group (bucket
    // colourCount); walking the input in order keeps it stable.
    const uint32_t overflowBucket = colouring.colourCount;
    auto bucketOf = [&](uint32_t color) { return color == kOverflow ? overflowBucket : color; };
    std::vector<uint32_t> counts(colouring.colourCount + 1, 0);
    for (uint32_t color : colouring.colourOf) ++counts[bucketOf(color)];
    std::vector<uint32_t> next(counts.size());
    uint32_t first = 0;
    for (size_t bucket = 0; bucket < counts.size(); ++bucket) {
        next[bucket] = first;
        first += counts[bucket];
    }
    ColourOrder result;
    for (uint32_t color = 0; color < colouring.colourCount; ++color)
        result.groups.colours.push_back({next[color], counts[color]});
    result.groups.overflow = {next[overflowBucket], counts[overflowBucket]};
    result.order.resize(colouring.colourOf.size());
    for (uint32_t index = 0; index < colouring.colourOf.size(); ++index)
        result.order[next[bucketOf(colouring.colourOf[index])]++] = index;
    return result;
}

}  // namespace vksim
