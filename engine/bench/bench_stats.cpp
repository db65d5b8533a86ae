#include "bench/bench_stats.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace vksim {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
    const size_t index = static_cast<size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
    return values[index];
}

LogLogFit fitLogLog(std::span<const double> x, std::span<const double> y) {
    if (x.size() != y.size()) throw std::invalid_argument("fitLogLog: x and y differ in length");
    std::vector<double> lx, ly;
    for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] <= 0 || y[i] <= 0) continue;
        lx.push_back(std::log(x[i]));
        ly.push_back(std::log(y[i]));
    }
    LogLogFit fit;
    if (lx.size() < 2) return fit;
    const auto n = static_cast<double>(lx.size());
    double mx = 0, my = 0;
    for (size_t i = 0; i < lx.size(); ++i) mx += lx[i] / n, my += ly[i] / n;
    double sxx = 0, sxy = 0;
    for (size_t i = 0; i < lx.size(); ++i) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
    }
    if (sxx <= 0) return fit;
    fit.slope = sxy / sxx;
    fit.intercept = my - fit.slope * mx;
    fit.valid = true;
    return fit;
}

}  // namespace vksim
