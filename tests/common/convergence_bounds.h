#pragma once
// How closely one Gauss-Seidel order must converge like another at equal
// iterations (issue "fewer dispatches": no worse than the coloured
// Gauss-Seidel of the per-colour path), from per-iteration curves of the
// stretch residual (mean |C|) and the XPBD objective, `a` the order under
// test, `b` the one it is held to. Both are projections of the same
// constraints in another order; which constraints an order projects last
// moves the residual's level by a few per cent either way, while the
// objective, which the iterations decrease, stays close. So: each falls at
// every iteration; over the iterations after the first the objective falls
// at least 90% as much as b's and mean |C| at least 75%; levels at most
// 0.5% (objective) and 5% (mean |C|) above b's. Used by the cluster path
// against the colours (tests/gpu/cluster_solve_test.cpp) and the shared
// colours against the families' own (tests/unit/colour_steps_test.cpp).
#include <gtest/gtest.h>

#include <cstddef>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

namespace vksim::test {

template <typename T>
void expectConvergesAsWell(const std::vector<T>& residualA, const std::vector<T>& objectiveA,
                           const std::vector<T>& residualB, const std::vector<T>& objectiveB,
                           const std::string& tag, const std::string& names) {
    ASSERT_FALSE(residualA.empty());
    ASSERT_EQ(residualB.size(), residualA.size());
    ASSERT_EQ(objectiveA.size(), residualA.size());
    ASSERT_EQ(objectiveB.size(), residualA.size());
    const size_t last = residualA.size() - 1;
    const double energyFall = objectiveA[0] - objectiveA[last], energyFallB = objectiveB[0] - objectiveB[last];
    const double residualFall = 1.0 - double(residualA[last]) / residualA[0];
    const double residualFallB = 1.0 - double(residualB[last]) / residualB[0];
    std::cout << fmt::format("[{}] fall after the first iteration, {}: objective {:.4g} / {:.4g} J, mean |C| "
                             "{:.3f}% / {:.3f}%\n",
                             tag, names, energyFall, energyFallB, 100 * residualFall, 100 * residualFallB);
    EXPECT_GE(energyFall, 0.9 * energyFallB);
    EXPECT_GE(residualFall, 0.75 * residualFallB);
    for (size_t k = 0; k < residualA.size(); ++k) {
        EXPECT_LE(objectiveA[k], T(1.005) * objectiveB[k]) << "iteration " << k;
        EXPECT_LE(residualA[k], T(1.05) * residualB[k]) << "iteration " << k;
        if (k > 0) {
            EXPECT_LT(objectiveA[k], objectiveA[k - 1]) << "the objective rose at iteration " << k;
            EXPECT_LT(residualA[k], residualA[k - 1]) << "the residual rose at iteration " << k;
        }
    }
}

}  // namespace vksim::test
