#pragma once
// Rest-state coefficients of the isometric bending constraint (Bergou et al.
// 2006, "A Quadratic Bending Model for Inextensible Surfaces"; as a PBD
// constraint, Bender et al. 2014, "Position-Based Simulation Methods in
// Computer Graphics", section on isometric bending). The projection itself is
// solveIsometricBending in shaders/pbd/pbd_constraints.glsl.
#include <optional>

#include <glm/glm.hpp>

namespace vksim {

struct IsometricBendingRest {
    glm::vec4 K;  // weights of x0..x3 in e = sum_i K_i x_i; they sum to exactly 0 in float
    float scale;  // 3 / (A0 + A1)
};

// Edge (x0, x1) shared by the triangles (x0, x2, x1) and (x0, x1, x3), in
// their rest (flat) shape. Empty when either triangle is degenerate (an angle
// so close to 0 or pi that its cotangent is meaningless): the caller skips the
// constraint instead of uploading NaN or huge weights.
std::optional<IsometricBendingRest> isometricBendingRest(const glm::dvec3& x0, const glm::dvec3& x1,
                                                         const glm::dvec3& x2, const glm::dvec3& x3);

}  // namespace vksim
