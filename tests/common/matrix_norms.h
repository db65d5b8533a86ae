#pragma once
// The largest absolute entry of a 3x3 matrix: the norm the unit tests
// compare Hessians, rotations and inertia tensors in.
#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>

namespace vksim::test {

inline double maxAbs(const glm::dmat3& m) {
    double worst = 0.0;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) worst = std::max(worst, std::abs(m[c][r]));
    return worst;
}

}  // namespace vksim::test
