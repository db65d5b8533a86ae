#pragma once
// The statistics the benchmark reports: order statistics of per-frame
// times, and the least-squares slope of log(time) on log(size) that tells
// linear scaling (1) from fixed costs (below 1) and superlinear growth (above 1).
#include <span>
#include <vector>

namespace vksim {

// Median of `values` (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);

// Nearest-rank percentile, p in (0, 100]: the smallest value with at least
// p% of the values at or below it; 0 when empty.
double percentile(std::vector<double> values, double p);

struct LogLogFit {
    double slope = 0;      // d log(y) / d log(x)
    double intercept = 0;  // log(y) at x = 1
    bool valid = false;    // false with fewer than two distinct positive x
};

// Least squares of log(y) on log(x) over the pairs with x > 0 and y > 0.
LogLogFit fitLogLog(std::span<const double> x, std::span<const double> y);

}  // namespace vksim
