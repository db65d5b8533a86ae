#include "geometry/isometric_bending.h"

#include <algorithm>
#include <cmath>

namespace vksim {
namespace {

// A triangle corner whose sine is below this is treated as degenerate
// (|cot| > 1e6): such a triangle has almost no area, and its weights would
// only amplify rounding.
constexpr double kMinSine = 1e-6;

// cot of the angle between a and b = cos/sin = a.b / |a x b|; empty when
// the angle is (almost) 0 or pi.
std::optional<double> cotangent(const glm::dvec3& a, const glm::dvec3& b) {
    double sine = glm::length(glm::cross(a, b));
    if (!(sine > kMinSine * glm::length(a) * glm::length(b))) return std::nullopt;  // also catches NaN
    return glm::dot(a, b) / sine;
}

// Rounds the four weights to float so that they still sum to exactly zero.
// The sum being zero makes e = sum K_i x_i blind to translations; with plain
// float rounding it is ~1e-7 |K|, and a cloth far from the origin would feel
// a bending force proportional to its distance from it (and the momentum
// tests would see a net force). All four are rounded to multiples of a power
// of two q with |K_i| / q <= 2^22, so each is an exact float, and the last is
// minus the sum of the others: exact too (|sum| / q < 2^24), and so is every
// partial sum in float or double.
glm::vec4 roundToFloatSummingToZero(const glm::dvec4& K) {
    double largest = std::max({std::abs(K.x), std::abs(K.y), std::abs(K.z), std::abs(K.w)});
    if (largest == 0.0) return glm::vec4(0.0f);
    int exponent = 0;
    std::frexp(largest, &exponent);  // largest < 2^exponent
    double q = std::ldexp(1.0, exponent - 22);
    glm::dvec4 rounded = glm::round(K / q) * q;
    rounded.w = -(rounded.x + rounded.y + rounded.z);
    return glm::vec4(rounded);
}

}  // namespace

std::optional<IsometricBendingRest> isometricBendingRest(const glm::dvec3& x0, const glm::dvec3& x1,
                                                         const glm::dvec3& x2, const glm::dvec3& x3) {
    // Bergou's discrete Laplacian across the edge, from the cotangents of the
    // four corners at its ends: c01, c02 at x0 in the triangles with x2 and
    // x3; c03, c04 at x1 in the same two triangles. Then
    // K = (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04).
    // For a flat rest shape e = sum K_i x_i = 0, and C = 1/2 scale |e|^2 has
    // the constant Hessian scale (K K^T) (x) I3: Bergou's Q = 3/(A0+A1) K K^T,
    // with the stiffness left to the material.
    glm::dvec3 e0 = x1 - x0, e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1;
    std::optional<double> c01 = cotangent(e0, e1), c02 = cotangent(e0, e2);
    std::optional<double> c03 = cotangent(-e0, e3), c04 = cotangent(-e0, e4);
    if (!c01 || !c02 || !c03 || !c04) return std::nullopt;

    // Both triangles have a non-degenerate corner at x0, so their areas are > 0.
    double area0 = 0.5 * glm::length(glm::cross(e0, e1));
    double area1 = 0.5 * glm::length(glm::cross(e0, e2));
    glm::dvec4 K(*c03 + *c04, *c01 + *c02, -*c01 - *c03, -*c02 - *c04);
    return IsometricBendingRest{roundToFloatSummingToZero(K), static_cast<float>(3.0 / (area0 + area1))};
}

}  // namespace vksim
