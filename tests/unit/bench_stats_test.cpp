// The benchmark's statistics and pass grouping (bench/bench_stats.h,
// bench/pass_traffic.h): order statistics, the log-log slope of the scaling
// check, colour passes grouped into families, byte models for every family.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bench/bench_stats.h"
#include "bench/pass_traffic.h"

namespace vksim {
namespace {

TEST(BenchStats, MedianAndNearestRankPercentile) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
    EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0.0);
    std::vector<double> twenty;
    for (int i = 1; i <= 20; ++i) twenty.push_back(i);
    EXPECT_DOUBLE_EQ(percentile(twenty, 95), 19.0);  // ceil(0.95 * 20) = 19th smallest
    EXPECT_DOUBLE_EQ(percentile(twenty, 100), 20.0);
    EXPECT_DOUBLE_EQ(percentile({7}, 95), 7.0);
}

TEST(BenchStats, LogLogSlopeOfAPowerLaw) {
    const std::vector<double> x{1e3, 4e3, 1.6e4, 6.4e4};
    std::vector<double> y;
    for (double v : x) y.push_back(0.02 * std::pow(v, 1.5));
    const LogLogFit fit = fitLogLog(x, y);
    ASSERT_TRUE(fit.valid);
    EXPECT_NEAR(fit.slope, 1.5, 1e-12);
    EXPECT_NEAR(fit.intercept, std::log(0.02), 1e-10);
    // Fixed cost plus linear work: the slope starts below 1.
    std::vector<double> withFixedCost;
    for (double v : x) withFixedCost.push_back(50.0 + 0.001 * v);
    EXPECT_LT(fitLogLog(x, withFixedCost).slope, 0.5);
    EXPECT_FALSE(fitLogLog(std::vector<double>{5}, std::vector<double>{1}).valid);
    EXPECT_FALSE(fitLogLog(std::vector<double>{5, 5}, std::vector<double>{1, 2}).valid);
}

TEST(PassTraffic, ColourPassesFormFamiliesWithByteModels) {
    EXPECT_EQ(passFamily("stretch colour 0"), "stretch");
    EXPECT_EQ(passFamily("bending colour 17"), "bending");
    EXPECT_EQ(passFamily("collide: generate"), "collide: generate");
    EXPECT_EQ(passFamily("a colour of its own"), "a colour of its own");
    for (const char* family : {"predict", "collide: generate", "stretch", "bending", "attachment", "collide: project",
                               "update velocity", "friction/restitution", "normals", "finite check"}) {
        const PassTraffic* row = findPassTraffic(family);
        ASSERT_NE(row, nullptr) << family;
        EXPECT_GT(row->readBytes, 0u) << family;
    }
    // A distance constraint: its record 16 + 2 particles 32 + material 16 +
    // lambda 4 read; 2 particles 32 + lambda 4 written.
    EXPECT_EQ(findPassTraffic("stretch")->readBytes, 68u);
    EXPECT_EQ(findPassTraffic("stretch")->writeBytes, 36u);
    EXPECT_EQ(findPassTraffic("no such pass"), nullptr);
}

}  // namespace
}  // namespace vksim
