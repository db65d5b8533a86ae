// Graph colouring (sim/graph_coloring.h): valid (no two constraints of a
// colour share a particle), complete, greedy-minimal, deterministic, and the
// colour counts of the default cloth.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include "cloth_scenes.h"
#include "sim/graph_coloring.h"
#include "sim/model_builder.h"

namespace vksim {
namespace {

struct Family {
    std::vector<uint32_t> particles;  // arity per constraint
    uint32_t arity = 0;
    size_t size() const { return particles.size() / arity; }
    std::span<const uint32_t> of(size_t c) const { return std::span(particles).subspan(c * arity, arity); }
};

std::string describe(const std::vector<ColorRange>& ranges) {
    std::string text = std::to_string(ranges.size()) + " colours:";
    for (const ColorRange& range : ranges) text += " " + std::to_string(range.count);
    return text;
}

// Every constraint has a colour below colorCount, and no particle is touched
// twice within a colour.
void expectValid(const Family& family, const Coloring& coloring) {
    ASSERT_EQ(coloring.colorOf.size(), family.size());
    std::set<std::pair<uint32_t, uint32_t>> particleColor;
    for (size_t c = 0; c < family.size(); ++c) {
        ASSERT_LT(coloring.colorOf[c], coloring.colorCount) << "constraint " << c;
        for (uint32_t particle : family.of(c))
            EXPECT_TRUE(particleColor.insert({particle, coloring.colorOf[c]}).second)
                << "particle " << particle << " twice in colour " << coloring.colorOf[c];
    }
}

// Greedy in input order: constraint c's colour k is not used by any earlier
// neighbour (validity) and each smaller colour is (minimality).
void expectGreedy(const Family& family, const Coloring& coloring) {
    std::vector<std::vector<uint32_t>> colorsAtParticle;
    for (size_t c = 0; c < family.size(); ++c) {
        std::set<uint32_t> taken;
        for (uint32_t particle : family.of(c))
            if (particle < colorsAtParticle.size())
                taken.insert(colorsAtParticle[particle].begin(), colorsAtParticle[particle].end());
        uint32_t smallestFree = 0;
        while (taken.count(smallestFree)) ++smallestFree;
        ASSERT_EQ(coloring.colorOf[c], smallestFree) << "constraint " << c;
        for (uint32_t particle : family.of(c)) {
            if (particle >= colorsAtParticle.size()) colorsAtParticle.resize(particle + 1);
            colorsAtParticle[particle].push_back(coloring.colorOf[c]);
        }
    }
}

// Constraints of `arity` distinct particles out of `particleCount`.
Family randomFamily(uint32_t seed, uint32_t constraintCount, uint32_t arity, uint32_t particleCount) {
    Family family{{}, arity};
    for (uint32_t c = 0; c < constraintCount; ++c) {
        std::vector<uint32_t> chosen;
        for (uint32_t k = 0; chosen.size() < arity; ++k) {
            double unit = test::hashUnit(c * 16 + k, seed) * 0.5 + 0.5;  // [0, 1]
            auto particle = static_cast<uint32_t>(unit * (particleCount - 1) + 0.5);
            if (std::find(chosen.begin(), chosen.end(), particle) == chosen.end()) chosen.push_back(particle);
        }
        family.particles.insert(family.particles.end(), chosen.begin(), chosen.end());
    }
    return family;
}

// A sorted family (from the model builder): each range is a valid colour.
template <class Constraint, class ParticlesOf>
void expectSortedColoring(const std::vector<Constraint>& constraints, const std::vector<ColorRange>& ranges,
                          ParticlesOf particlesOf) {
    uint32_t next = 0;
    for (const ColorRange& range : ranges) {
        EXPECT_EQ(range.first, next);
        EXPECT_GT(range.count, 0u);
        std::set<uint32_t> touched;
        for (uint32_t j = range.first; j < range.first + range.count; ++j)
            for (uint32_t particle : particlesOf(constraints[j]))
                EXPECT_TRUE(touched.insert(particle).second) << "particle " << particle << " twice in one colour";
        next += range.count;
    }
    EXPECT_EQ(next, constraints.size()) << "colour ranges must cover every constraint";
}

// The largest number of other constraints one constraint shares a particle with.
template <class Constraint, class ParticlesOf>
size_t maxConflicts(const std::vector<Constraint>& constraints, ParticlesOf particlesOf) {
    std::vector<std::vector<uint32_t>> constraintsAt;
    for (uint32_t j = 0; j < constraints.size(); ++j)
        for (uint32_t particle : particlesOf(constraints[j])) {
            if (particle >= constraintsAt.size()) constraintsAt.resize(particle + 1);
            constraintsAt[particle].push_back(j);
        }
    size_t most = 0;
    for (uint32_t j = 0; j < constraints.size(); ++j) {
        std::set<uint32_t> neighbours;
        for (uint32_t particle : particlesOf(constraints[j]))
            neighbours.insert(constraintsAt[particle].begin(), constraintsAt[particle].end());
        most = std::max(most, neighbours.size() - 1);
    }
    return most;
}

TEST(GraphColoring, DefaultClothColoursAreValidAndFew) {
    SimModel model = buildModel(test::defaultLikeScene());
    auto distanceParticles = [](const gpu::DistanceConstraint& c) { return std::array{c.p0, c.p1}; };
    auto bendingParticles = [](const gpu::BendingConstraint& c) {
        return std::array{c.particles.x, c.particles.y, c.particles.z, c.particles.w};
    };
    expectSortedColoring(model.distance, model.distanceColors, distanceParticles);
    expectSortedColoring(model.bending, model.bendingColors, bendingParticles);

    std::cout << "48x48 cloth, stretch+shear: " << model.distance.size() << " constraints, "
              << describe(model.distanceColors) << "\n48x48 cloth, bending:       " << model.bending.size()
              << " constraints, " << describe(model.bendingColors) << "\n";
    RecordProperty("stretch_colors", static_cast<int>(model.distanceColors.size()));
    RecordProperty("bending_colors", static_cast<int>(model.bendingColors.size()));
    // An interior vertex is in 8 stretch/shear constraints, so 8 is the
    // minimum; cloth_grid.h lists edges so that greedy reaches it.
    EXPECT_EQ(model.distanceColors.size(), 8u);
    // Greedy never needs more than (most conflicting neighbours) + 1.
    EXPECT_LE(model.bendingColors.size(), maxConflicts(model.bending, bendingParticles) + 1);
    // Greedy over the builder's edge order gives 18 today (an interior
    // vertex is in up to 16 bending constraints, so 16 is a lower bound).
    // More is a regression of the edge order; fewer is welcome: lower this.
    EXPECT_LE(model.bendingColors.size(), 18u);
}

TEST(GraphColoring, RandomGraphsAreValidGreedyAndDeterministic) {
    for (uint32_t arity : {1u, 2u, 3u, 4u})
        for (uint32_t seed : {1u, 2u, 3u}) {
            Family family = randomFamily(seed * 10 + arity, 2000, arity, 500);
            Coloring coloring = colorConstraints(family.particles, arity);
            expectValid(family, coloring);
            expectGreedy(family, coloring);
            Coloring again = colorConstraints(family.particles, arity);
            EXPECT_EQ(again.colorOf, coloring.colorOf);
            EXPECT_EQ(again.colorCount, coloring.colorCount);
            std::cout << "random graph (arity " << arity << ", seed " << seed
                      << ", 2000 constraints on 500 particles): " << describe(orderByColor(coloring).ranges) << "\n";
        }
}

TEST(GraphColoring, MoreThan64ColoursFallBackToWiderMasks) {
    // 150 constraints through particle 0 need 150 colours (three mask words);
    // then a constraint away from it still gets colour 0, one through
    // particle 0 colour 150.
    Family family{{}, 2};
    for (uint32_t k = 1; k <= 150; ++k) family.particles.insert(family.particles.end(), {0u, k});
    family.particles.insert(family.particles.end(), {200u, 201u, 0u, 300u, 5u, 6u});
    Coloring coloring = colorConstraints(family.particles, 2);
    expectValid(family, coloring);
    expectGreedy(family, coloring);
    EXPECT_EQ(coloring.colorCount, 151u);
    EXPECT_EQ(coloring.colorOf[150], 0u);
    EXPECT_EQ(coloring.colorOf[151], 150u);
    EXPECT_EQ(coloring.colorOf[152], 0u);  // particles 5 and 6 hold colours 4 and 5 only
}

TEST(GraphColoring, OrderByColorIsAStableCountingSort) {
    Coloring coloring{{2, 0, 1, 0, 2, 2, 1}, 3};
    ColorOrder order = orderByColor(coloring);
    EXPECT_EQ(order.order, (std::vector<uint32_t>{1, 3, 2, 6, 0, 4, 5}));
    ASSERT_EQ(order.ranges.size(), 3u);
    EXPECT_EQ(order.ranges[0].first, 0u);
    EXPECT_EQ(order.ranges[0].count, 2u);
    EXPECT_EQ(order.ranges[1].first, 2u);
    EXPECT_EQ(order.ranges[1].count, 2u);
    EXPECT_EQ(order.ranges[2].first, 4u);
    EXPECT_EQ(order.ranges[2].count, 3u);
}

TEST(GraphColoring, ColorAndSortReordersConstraints) {
    struct Edge {
        uint32_t a, b, id;
    };
    // A path 0-1-2-3-4 listed edge by edge: colours 0, 1, 0, 1.
    std::vector<Edge> edges{{0, 1, 10}, {1, 2, 11}, {2, 3, 12}, {3, 4, 13}};
    std::vector<ColorRange> ranges = colorAndSortByColor(edges, [](const Edge& e) { return std::array{e.a, e.b}; });
    ASSERT_EQ(ranges.size(), 2u);
    std::vector<uint32_t> ids;
    for (const Edge& e : edges) ids.push_back(e.id);
    EXPECT_EQ(ids, (std::vector<uint32_t>{10, 12, 11, 13}));
    EXPECT_EQ(ranges[1].first, 2u);
}

TEST(GraphColoring, RejectsPartialConstraints) {
    std::vector<uint32_t> particles{0, 1, 2};
    EXPECT_THROW(colorConstraints(particles, 2), std::invalid_argument);
    EXPECT_THROW(colorConstraints(particles, 0), std::invalid_argument);
    EXPECT_EQ(colorConstraints({}, 2).colorCount, 0u);
}

}  // namespace
}  // namespace vksim
