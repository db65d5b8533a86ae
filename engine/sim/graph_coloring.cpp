#include "sim/graph_coloring.h"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace vksim {
namespace {

// Per particle, the set of colours already given to a constraint touching it:
// `words` 64-bit masks per particle. One word covers every cloth and tet mesh
// we expect; a star-shaped topology (one particle in hundreds of constraints)
// grows the stride instead of failing.
class UsedColors {
public:
    explicit UsedColors(uint32_t particleCount) : particleCount_(particleCount), bits_(particleCount, 0) {}

    // Smallest colour free in every listed particle (may be one past the
    // colours the masks can hold yet; mark() then grows them).
    uint32_t firstFree(std::span<const uint32_t> particles) const {
        for (uint32_t word = 0; word < words_; ++word) {
            uint64_t taken = 0;
            for (uint32_t particle : particles) taken |= bits_[size_t(particle) * words_ + word];
            if (taken != ~uint64_t{0}) return word * 64 + static_cast<uint32_t>(std::countr_one(taken));
        }
        return words_ * 64;
    }

    void mark(std::span<const uint32_t> particles, uint32_t color) {
        if (color >= words_ * 64) grow(color / 64 + 1);
        const uint64_t bit = uint64_t{1} << (color % 64);
        for (uint32_t particle : particles) bits_[size_t(particle) * words_ + color / 64] |= bit;
    }

private:
    void grow(uint32_t words) {
        std::vector<uint64_t> wider(size_t(particleCount_) * words, 0);
        for (size_t particle = 0; particle < particleCount_; ++particle)
            std::copy_n(bits_.begin() + particle * words_, words_, wider.begin() + particle * words);
        bits_ = std::move(wider);
        words_ = words;
    }

    uint32_t particleCount_;
    uint32_t words_ = 1;
    std::vector<uint64_t> bits_;
};

}  // namespace

Coloring colorConstraints(std::span<const uint32_t> particles, uint32_t arity) {
    if (arity == 0 || particles.size() % arity != 0)
        throw std::invalid_argument("colorConstraints: the particle list is not a whole number of constraints");
    const size_t constraintCount = particles.size() / arity;
    Coloring coloring;
    coloring.colorOf.resize(constraintCount);
    if (constraintCount == 0) return coloring;

    UsedColors used(*std::max_element(particles.begin(), particles.end()) + 1);
    for (size_t c = 0; c < constraintCount; ++c) {
        std::span<const uint32_t> touched = particles.subspan(c * arity, arity);
        uint32_t color = used.firstFree(touched);
        used.mark(touched, color);
        coloring.colorOf[c] = color;
        coloring.colorCount = std::max(coloring.colorCount, color + 1);
    }
    return coloring;
}

ColorOrder orderByColor(const Coloring& coloring) {
    ColorOrder result;
    result.ranges.resize(coloring.colorCount);
    for (uint32_t color : coloring.colorOf) ++result.ranges[color].count;
    uint32_t first = 0;
    for (ColorRange& range : result.ranges) {
        range.first = first;
        first += range.count;
    }
    // Counting sort: walking the input in order keeps it stable.
    std::vector<uint32_t> next(coloring.colorCount);
    for (uint32_t color = 0; color < coloring.colorCount; ++color) next[color] = result.ranges[color].first;
    result.order.resize(coloring.colorOf.size());
    for (uint32_t index = 0; index < coloring.colorOf.size(); ++index)
        result.order[next[coloring.colorOf[index]]++] = index;
    return result;
}

}  // namespace vksim
