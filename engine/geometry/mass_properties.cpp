#include "geometry/mass_properties.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "geometry/require_positive.h"

namespace vksim {
namespace {

// Polyhedral mass properties: Mirtich 1996 in the simplified form of Eberly,
// "Polyhedral Mass Properties (Revisited)", 2002 (docs/physics.md §10).
//
// Triangle (p0, p1, p2) is p(u, v) = p0 + u (p1 - p0) + v (p2 - p0) over the
// unit right triangle T (u, v >= 0, u + v <= 1), so n dA = d du dv with the
// unnormalised normal d = (p1 - p0) x (p2 - p0). In barycentrics
// (l0, l1, l2) = (1 - u - v, u, v), the integral over T of
// l0^a l1^b l2^c is a! b! c! / (a + b + c + 2)!. A coordinate w is
// w0 l0 + w1 l1 + w2 l2, so with the complete symmetric sums of its corner
// values (CornerSums):
//   ∫_T w = s1 / 6,  ∫_T w² = s2 / 12,  ∫_T w³ = s3 / 20,
//   ∫_T w² w' = (w'0 g0 + w'1 g1 + w'2 g2) / 60.
// The divergence theorem, ∫_V ∂F/∂x dV = ∮ F n_x dA, with F = x²/2, x³/3
// and x²y/2 turns the volume integrals into sums over the triangles:
//   ∫ x  = Σ d_x s2(x) / 24,        ∫ x² = Σ d_x s3(x) / 60,
//   ∫ xy = Σ d_x Σ_i y_i g_i(x) / 120,
// and cyclically (y and z with d_y, d_z; ∫ yz from y²z/2, ∫ zx from z²x/2).
// The volume is ∮ p·n dA / 3 = Σ p0 · (p1 x p2) / 6 (signed tetrahedra).
struct CornerSums {
    double s1, s2, s3;  // sums of every monomial of degree 1, 2, 3 in w0, w1, w2
    glm::dvec3 g;       // g_i = s2 + w_i s1 + w_i²: the weight of w'_i in ∫_T w² w'
};

CornerSums cornerSums(double w0, double w1, double w2) {
    CornerSums c;
    c.s1 = w0 + w1 + w2;
    c.s2 = w0 * w0 + w1 * w1 + w2 * w2 + w0 * w1 + w1 * w2 + w2 * w0;
    // Degree 3: w0³ + w0² (w1 + w2) + ... + w0 w1 w2, all ten monomials once.
    c.s3 = w0 * w0 * w0 + w1 * (w0 * w0 + w0 * w1 + w1 * w1) + w2 * c.s2;
    c.g = glm::dvec3(c.s2 + w0 * (c.s1 + w0), c.s2 + w1 * (c.s1 + w1), c.s2 + w2 * (c.s1 + w2));
    return c;
}

// The ten volume integrals, about a reference point.
struct VolumeIntegrals {
    double volume = 0;     // ∫ 1
    glm::dvec3 first{0};   // ∫ x, ∫ y, ∫ z
    glm::dvec3 square{0};  // ∫ x², ∫ y², ∫ z²
    glm::dvec3 product{0}; // ∫ xy, ∫ yz, ∫ zx
};

void addTriangle(VolumeIntegrals& sum, glm::dvec3 p0, glm::dvec3 p1, glm::dvec3 p2) {
    const glm::dvec3 d = glm::cross(p1 - p0, p2 - p0);
    const CornerSums x = cornerSums(p0.x, p1.x, p2.x);
    const CornerSums y = cornerSums(p0.y, p1.y, p2.y);
    const CornerSums z = cornerSums(p0.z, p1.z, p2.z);
    sum.volume += glm::dot(p0, glm::cross(p1, p2)) / 6.0;
    sum.first += d * glm::dvec3(x.s2, y.s2, z.s2) / 24.0;
    sum.square += d * glm::dvec3(x.s3, y.s3, z.s3) / 60.0;
    sum.product += d * glm::dvec3(glm::dot(glm::dvec3(p0.y, p1.y, p2.y), x.g),
                                  glm::dot(glm::dvec3(p0.z, p1.z, p2.z), y.g),
                                  glm::dot(glm::dvec3(p0.x, p1.x, p2.x), z.g)) /
                   120.0;
}

// Inertia about the centre of mass from the second moments about the
// reference point (parallel-axis theorem): ∫ x'y' = ∫ xy - V c_x c_y etc.,
// then I = [∫(y'²+z'²), -∫x'y', -∫z'x'; ...].
glm::dmat3 inertiaAboutCentre(const VolumeIntegrals& s, glm::dvec3 c) {
    const double v = s.volume;
    const glm::dvec3 sq = s.square - v * c * c;
    const double xy = s.product.x - v * c.x * c.y;
    const double yz = s.product.y - v * c.y * c.z;
    const double zx = s.product.z - v * c.z * c.x;
    // glm is column-major; the tensor is symmetric, so the order only
    // matters for reading.
    return glm::dmat3(sq.y + sq.z, -xy, -zx,  //
                      -xy, sq.z + sq.x, -yz,  //
                      -zx, -yz, sq.x + sq.y);
}

}  // namespace

MassProperties polyhedronMassProperties(const std::vector<glm::dvec3>& positions,
                                        const std::vector<uint32_t>& triangles) {
    if (triangles.size() % 3 != 0)
        throw std::invalid_argument(
            fmt::format("the mesh has {} triangle indices, not a multiple of 3", triangles.size()));
    for (uint32_t i : triangles)
        if (i >= positions.size())
            throw std::invalid_argument(
                fmt::format("triangle index {} is out of range: the mesh has {} vertices", i, positions.size()));

    // Integrate about the vertices' mean rather than the origin: the
    // parallel-axis shift subtracts V |c|² from the second moments, which
    // cancels catastrophically for a small body far from the origin.
    glm::dvec3 reference(0.0), low(0.0), high(0.0);
    if (!positions.empty()) low = high = positions.front();
    for (const glm::dvec3& p : positions) {
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
            throw std::invalid_argument(fmt::format("a vertex is not finite: ({}, {}, {})", p.x, p.y, p.z));
        reference += p;
        low = glm::min(low, p);
        high = glm::max(high, p);
    }
    if (!positions.empty()) reference /= static_cast<double>(positions.size());

    VolumeIntegrals sum;
    for (std::size_t t = 0; t < triangles.size(); t += 3)
        addTriangle(sum, positions[triangles[t]] - reference, positions[triangles[t + 1]] - reference,
                    positions[triangles[t + 2]] - reference);

    // Rounding leaves a flat mesh a volume of about 1e-16 of its bounding
    // box; 1e-12 of it still accepts a 1 m x 1 m x 1 µm plate (1e-6).
    const double diagonal = glm::length(high - low);
    if (std::abs(sum.volume) <= 1e-12 * diagonal * diagonal * diagonal)
        throw std::invalid_argument(
            fmt::format("volume is zero ({:.3g} m^3 for a bounding box diagonal of {:.6g} m): the surface is flat "
                        "or degenerate, or half of it is wound the other way",
                        sum.volume, diagonal));
    if (sum.volume < 0.0)
        throw std::invalid_argument(
            fmt::format("volume is {:.6g} m^3: the surface is wound inward (faces must run counter-clockwise seen "
                        "from outside)",
                        sum.volume));

    MassProperties result;
    result.volume = sum.volume;
    const glm::dvec3 centre = sum.first / sum.volume;
    result.centre = reference + centre;
    result.inertia = inertiaAboutCentre(sum, centre);
    return result;
}

MassProperties boxMassProperties(glm::dvec3 halfExtents) {
    for (int i = 0; i < 3; ++i) requirePositive(halfExtents[i], "box half extent");
    // Side 2a: ∫ x² over the box = V a² / 3, so I_xx = V (b² + c²) / 3.
    const glm::dvec3 h2 = halfExtents * halfExtents;
    MassProperties result;
    result.volume = 8.0 * halfExtents.x * halfExtents.y * halfExtents.z;
    result.inertia = glm::dmat3(0.0);
    result.inertia[0][0] = result.volume * (h2.y + h2.z) / 3.0;
    result.inertia[1][1] = result.volume * (h2.z + h2.x) / 3.0;
    result.inertia[2][2] = result.volume * (h2.x + h2.y) / 3.0;
    return result;
}

MassProperties sphereMassProperties(double radius) {
    requirePositive(radius, "sphere radius");
    MassProperties result;
    result.volume = 4.0 / 3.0 * std::numbers::pi * radius * radius * radius;
    result.inertia = glm::dmat3(0.4 * result.volume * radius * radius);
    return result;
}

// Cylinder (radius r, length 2h, volume V_c = 2π r² h) plus two hemispheres
// (together a ball, V_s = 4/3 π r³). About the capsule's centre:
//   cylinder:  I_yy = V_c r²/2,    I_xx = V_c (r²/4 + h²/3);
//   caps:      I_yy = 2/5 V_s r²,  I_xx = V_s (2/5 r² + h² + 3/4 h r).
// A cap's I_xx: about the centre of its flat face a hemisphere has half a
// ball's moment, 2/5 V_h r²; its centre of mass lies 3r/8 from that face,
// so about its own centre of mass 2/5 V_h r² - V_h (3r/8)², and shifted to
// the capsule centre, h + 3r/8 away: V_h (2/5 r² - 9/64 r² + (h + 3r/8)²)
// = V_h (2/5 r² + h² + 3/4 h r). The two caps give V_s = 2 V_h.
MassProperties capsuleMassProperties(double radius, double halfLength) {
    requirePositive(radius, "capsule radius");
    if (!(halfLength >= 0.0) || !std::isfinite(halfLength))
        throw std::invalid_argument(fmt::format("capsule half length must be finite and >= 0, not {}", halfLength));
    const double r = radius, h = halfLength, r2 = r * r;
    const double cylinder = 2.0 * std::numbers::pi * r2 * h;
    const double ball = 4.0 / 3.0 * std::numbers::pi * r2 * r;
    const double axial = cylinder * r2 / 2.0 + ball * 0.4 * r2;
    const double transverse = cylinder * (r2 / 4.0 + h * h / 3.0) + ball * (0.4 * r2 + h * h + 0.75 * h * r);
    MassProperties result;
    result.volume = cylinder + ball;
    result.inertia = glm::dmat3(0.0);
    result.inertia[0][0] = transverse;
    result.inertia[1][1] = axial;
    result.inertia[2][2] = transverse;
    return result;
}

BodyMass bodyMassFromMass(const MassProperties& properties, double mass) {
    requirePositive(mass, "mass");
    requirePositive(properties.volume, "volume");
    return BodyMass{mass, properties.centre, properties.inertia * (mass / properties.volume)};
}

BodyMass bodyMassFromDensity(const MassProperties& properties, double density) {
    requirePositive(density, "density");
    requirePositive(properties.volume, "volume");
    return BodyMass{density * properties.volume, properties.centre, properties.inertia * density};
}

void requireInvertibleInertia(const glm::dmat3& inertia) {
    Eigen::Matrix3d m;
    double largestEntry = 0.0;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
            m(r, c) = inertia[c][r];
            if (!std::isfinite(m(r, c)))
                throw std::invalid_argument(fmt::format("inertia entry ({}, {}) is not finite: {}", r, c, m(r, c)));
            largestEntry = std::max(largestEntry, std::abs(m(r, c)));
        }
    const double asymmetry = (m - m.transpose()).cwiseAbs().maxCoeff();
    if (asymmetry > 1e-9 * largestEntry)
        throw std::invalid_argument(
            fmt::format("inertia is not symmetric: entries differ from their transposes by up to {:.3g} kg m^2",
                        asymmetry));

    // Eigenvalues in increasing order. The relative floor keeps a solver's
    // I^-1 within about 1e9 of its scale: a rod of zero radius (moment 0
    // about its axis) or a flat mesh would spin without bound.
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(m, Eigen::EigenvaluesOnly);
    const Eigen::Vector3d& moments = solver.eigenvalues();
    if (!(moments(0) > 1e-9 * moments(2)) || !(moments(2) > 0.0))
        throw std::invalid_argument(fmt::format("degenerate inertia: principal moments {:.6g}, {:.6g}, {:.6g} kg m^2",
                                                moments(0), moments(1), moments(2)));
}

}  // namespace vksim
