// Rigid-body mass properties (engine/geometry/mass_properties.h, docs/physics.md
// §10): the polyhedron integrals against the analytic box, an L-shape built
// from two boxes, and the faceted sphere and capsule with bounds on their
// faceting error; invariance under translation and rotation; the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "geometry/body_shape.h"
#include "geometry/mass_properties.h"
#include "../common/matrix_norms.h"

namespace vksim {
namespace {

using test::maxAbs;

using glm::dmat3;
using glm::dvec3;

// Largest entry of a - b over the largest entry of b.
double relativeError(const dmat3& a, const dmat3& b) { return maxAbs(a - b) / maxAbs(b); }

MassProperties massOf(const BodySurface& s) { return polyhedronMassProperties(s.positions, s.triangles); }

// The std::invalid_argument message `call` throws; "(nothing thrown)" if none.
template <typename Call>
std::string rejection(Call call) {
    try {
        call();
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "(nothing thrown)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Exact polyhedra (box, L-shape) are integrated exactly; what remains is
// rounding: about 1e-16 per operation over at most a few thousand triangles
// of similar size, below 1e-13 relative. 1e-12 leaves a margin and is still
// far below any formula slip (those are >= 1e-2 relative).
constexpr double kExact = 1e-12;

TEST(RigidMassProperties, BoxMeshMatchesTheAnalyticBox) {
    const dvec3 half(0.3, 0.7, 1.9);
    const MassProperties exact = boxMassProperties(half);
    EXPECT_DOUBLE_EQ(exact.volume, 8.0 * 0.3 * 0.7 * 1.9);
    EXPECT_DOUBLE_EQ(exact.inertia[0][0], exact.volume * (0.49 + 3.61) / 3.0);
    for (uint32_t n : {1u, 2u, 4u, 7u, 16u}) {
        const MassProperties mesh = massOf(boxSurface(half, n));
        const double volumeError = std::abs(mesh.volume / exact.volume - 1.0);
        const double centreError = glm::length(mesh.centre) / glm::length(half);
        const double inertiaError = relativeError(mesh.inertia, exact.inertia);
        std::printf("box cellsPerEdge %2u: volume %.2e, centre %.2e, inertia %.2e relative error\n", n, volumeError,
                    centreError, inertiaError);
        EXPECT_LT(volumeError, kExact);
        EXPECT_LT(centreError, kExact);
        EXPECT_LT(inertiaError, kExact);
    }
}

// The L: box A = [0,2]x[0,1]x[0,1] and box B = [0,1]x[1,2]x[0,2], which
// touch over x,z in [0,1] at y = 1; B overhangs A in z, so the centre is off
// every symmetry plane and all three products of inertia are non-zero.
// Written out by hand as one closed surface: 15 vertices (the corners of
// both boxes but (0,1,0), which is inside a face, plus (1,1,1), where the
// exposed parts of A's top and B's bottom meet), 26 triangles.
const std::vector<dvec3> kLVertices = {
    {0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 0}, {1, 2, 0},  // 0-4
    {0, 2, 0}, {0, 0, 1}, {2, 0, 1}, {2, 1, 1}, {1, 1, 1},  // 5-9
    {0, 1, 1}, {0, 1, 2}, {1, 1, 2}, {1, 2, 2}, {0, 2, 2},  // 10-14
};
const std::vector<uint32_t> kLTriangles = {
    3, 5, 4, 3, 0, 5, 3, 1, 0, 3, 2, 1,  // z = 0, the L (normal -z), fanned from its inner corner
    6, 7, 8, 6, 8, 9, 6, 9, 10,          // z = 1, A's back (+z); (1,1,1) on its top edge
    11, 12, 13, 11, 13, 14,              // z = 2, B's back (+z)
    0, 1, 7, 0, 7, 6,                    // y = 0, A's bottom (-y)
    3, 9, 8, 3, 8, 2,                    // y = 1, A's top right of B (+y)
    10, 9, 12, 10, 12, 11,               // y = 1, B's bottom behind A (-y)
    5, 14, 13, 5, 13, 4,                 // y = 2, B's top (+y)
    10, 11, 14, 10, 14, 5, 10, 5, 0, 10, 0, 6,  // x = 0, the L in y,z (-x)
    4, 13, 12, 4, 12, 9, 4, 9, 3,        // x = 1, B's side (+x); (1,1,1) on its bottom edge
    1, 2, 8, 1, 8, 7,                    // x = 2, A's end (+x)
};
// Moved off the origin so that the centre and the parallel-axis shift are
// exercised in every coordinate.
const dvec3 kLOffset(3.25, -1.5, 0.75);

std::vector<dvec3> lVertices() {
    std::vector<dvec3> v = kLVertices;
    for (dvec3& p : v) p += kLOffset;
    return v;
}

// Independent of the code under test: each box's inertia about its own
// centre is V/12 diag(b²+c², c²+a², a²+b²) for sides a, b, c, shifted to the
// common centre by the parallel-axis theorem, I += V (|d|² E - d dᵀ).
MassProperties twoBoxes(dvec3 lowA, dvec3 highA, dvec3 lowB, dvec3 highB) {
    struct Part {
        double volume;
        dvec3 centre;
        dmat3 inertia;
    };
    auto part = [](dvec3 low, dvec3 high) {
        const dvec3 s = high - low;
        const double v = s.x * s.y * s.z;
        dmat3 i(0.0);
        i[0][0] = v / 12.0 * (s.y * s.y + s.z * s.z);
        i[1][1] = v / 12.0 * (s.z * s.z + s.x * s.x);
        i[2][2] = v / 12.0 * (s.x * s.x + s.y * s.y);
        return Part{v, (low + high) / 2.0, i};
    };
    const Part parts[2] = {part(lowA, highA), part(lowB, highB)};
    MassProperties result;
    result.volume = parts[0].volume + parts[1].volume;
    result.centre = (parts[0].volume * parts[0].centre + parts[1].volume * parts[1].centre) / result.volume;
    result.inertia = dmat3(0.0);
    for (const Part& p : parts) {
        const dvec3 d = p.centre - result.centre;
        result.inertia += p.inertia + p.volume * (glm::dot(d, d) * dmat3(1.0) - glm::outerProduct(d, d));
    }
    return result;
}

TEST(RigidMassProperties, HandBuiltLShapeMatchesTwoBoxesByTheParallelAxisTheorem) {
    const MassProperties exact = twoBoxes(dvec3(0, 0, 0) + kLOffset, dvec3(2, 1, 1) + kLOffset,  //
                                          dvec3(0, 1, 0) + kLOffset, dvec3(1, 2, 2) + kLOffset);
    // The L is asymmetric: every product of inertia is non-zero. By hand,
    // both boxes have V = 2 and centres (1, .5, .5) and (.5, 1.5, 1) (plus the
    // offset), the L's centre is (.75, 1, .75), and only the shifts
    // contribute: I_xy = -Σ V d_x d_y = 0.5, I_yz = -0.5, I_zx = 0.25.
    EXPECT_DOUBLE_EQ(exact.inertia[0][1], 0.5);
    EXPECT_DOUBLE_EQ(exact.inertia[1][2], -0.5);
    EXPECT_DOUBLE_EQ(exact.inertia[2][0], 0.25);

    const MassProperties mesh = polyhedronMassProperties(lVertices(), kLTriangles);
    const double volumeError = std::abs(mesh.volume / exact.volume - 1.0);
    const double centreError = glm::length(mesh.centre - exact.centre) / glm::length(exact.centre);
    const double inertiaError = relativeError(mesh.inertia, exact.inertia);
    std::printf("L-shape: volume %.2e, centre %.2e, inertia %.2e relative error\n", volumeError, centreError,
                inertiaError);
    EXPECT_DOUBLE_EQ(exact.volume, 4.0);
    EXPECT_LT(volumeError, kExact);
    EXPECT_LT(centreError, kExact);
    EXPECT_LT(inertiaError, kExact);
}

TEST(RigidMassProperties, TranslationMovesOnlyTheCentre) {
    const MassProperties base = polyhedronMassProperties(kLVertices, kLTriangles);
    for (dvec3 shift : {dvec3(10.0, -20.0, 5.0), dvec3(-1e3, 2e3, 7e2)}) {
        std::vector<dvec3> moved = kLVertices;
        for (dvec3& p : moved) p += shift;
        const MassProperties m = polyhedronMassProperties(moved, kLTriangles);
        // Integrating about the vertices' mean keeps the result independent
        // of where the body is, to rounding of the shifted coordinates:
        // 1e-16 |shift| / size = 2e-13 at 2e3 m for this 2 m body.
        const double volumeError = std::abs(m.volume / base.volume - 1.0);
        const double centreError = glm::length(m.centre - (base.centre + shift)) / glm::length(shift);
        const double inertiaError = relativeError(m.inertia, base.inertia);
        std::printf("translated by %.0f m: volume %.2e, centre %.2e, inertia %.2e relative error\n",
                    glm::length(shift), volumeError, centreError, inertiaError);
        EXPECT_LT(volumeError, kExact);
        EXPECT_LT(centreError, kExact);
        EXPECT_LT(inertiaError, kExact);
    }
}

TEST(RigidMassProperties, RotationConjugatesTheInertia) {
    const std::vector<dvec3> vertices = lVertices();
    const MassProperties base = polyhedronMassProperties(vertices, kLTriangles);
    const dmat3 r(glm::rotate(glm::dmat4(1.0), 0.83, glm::normalize(dvec3(0.3, -1.0, 0.6))));
    std::vector<dvec3> turned = vertices;
    for (dvec3& p : turned) p = r * p;
    const MassProperties m = polyhedronMassProperties(turned, kLTriangles);
    const double volumeError = std::abs(m.volume / base.volume - 1.0);
    const double centreError = glm::length(m.centre - r * base.centre) / glm::length(base.centre);
    const double inertiaError = relativeError(m.inertia, r * base.inertia * glm::transpose(r));
    std::printf("rotated: volume %.2e, centre %.2e, inertia (vs R I R^T) %.2e relative error\n", volumeError,
                centreError, inertiaError);
    EXPECT_LT(volumeError, kExact);
    EXPECT_LT(centreError, kExact);
    EXPECT_LT(inertiaError, kExact);
}

// The faceted sphere and capsule are convex polyhedra with every vertex on
// the analytic surface, so analytic(inner) <= mesh <= analytic(outer) for
// volume and for the moments (the integrands are >= 0 and the sets nest;
// all three have their centre at the origin, the mesh to rounding). Outer is
// the shape itself; inner the same shape with the radius shrunk to the
// distance from the axis segment (a point for the sphere) to the nearest
// face plane, the largest such shape every face plane leaves inside. Both
// bounds are rigorous; the test checks convexity first.
struct Faceting {
    double innerRadius;  // of the largest same-axis capsule inside the mesh
    bool convex;         // every vertex on or behind every face plane
};

Faceting faceting(const BodySurface& s, double halfLength) {
    Faceting f{std::numeric_limits<double>::infinity(), true};
    const double scale = glm::length(s.positions.front()) + halfLength;
    for (std::size_t t = 0; t < s.triangles.size(); t += 3) {
        const dvec3 a = s.positions[s.triangles[t]], b = s.positions[s.triangles[t + 1]],
                    c = s.positions[s.triangles[t + 2]];
        const dvec3 n = glm::normalize(glm::cross(b - a, c - a));
        const double offset = glm::dot(n, a);
        // The segment's point nearest the plane is one of its ends.
        f.innerRadius = std::min(f.innerRadius, offset - std::abs(n.y) * halfLength);
        for (const dvec3& p : s.positions) f.convex = f.convex && glm::dot(n, p) - offset <= 1e-13 * scale;
    }
    return f;
}

// Relative errors of the mesh against the analytic outer shape, checked
// against the rigorous bounds from the inner shape. Returns the volume and
// I_xx errors.
glm::dvec2 checkFaceting(const BodySurface& s, const MassProperties& outer, const MassProperties& inner,
                        const char* label) {
    const MassProperties mesh = massOf(s);
    // About the centre, mesh vs outer; moments compared on the diagonal
    // (the off-diagonals of all three are zero up to rounding).
    const double volumeError = 1.0 - mesh.volume / outer.volume;
    const double volumeBound = 1.0 - inner.volume / outer.volume;
    dvec3 inertiaError, inertiaBound;
    for (int i = 0; i < 3; ++i) {
        inertiaError[i] = 1.0 - mesh.inertia[i][i] / outer.inertia[i][i];
        inertiaBound[i] = 1.0 - inner.inertia[i][i] / outer.inertia[i][i];
    }
    std::printf("%s: %zu vertices, relative errors (bounds): volume %.3e (%.3e), I_xx %.3e (%.3e), I_yy %.3e (%.3e)\n",
                label, s.positions.size(), volumeError, volumeBound, inertiaError.x, inertiaBound.x, inertiaError.y,
                inertiaBound.y);
    // Rounding slack 1e-13 relative: the sums reach 1e-14 (box test).
    EXPECT_GT(volumeError, 0.0) << label;  // inscribed: strictly smaller
    EXPECT_LE(volumeError, volumeBound + 1e-13) << label;
    for (int i = 0; i < 3; ++i) {
        EXPECT_GT(inertiaError[i], 0.0) << label << " axis " << i;
        EXPECT_LE(inertiaError[i], inertiaBound[i] + 1e-13) << label << " axis " << i;
    }
    // By symmetry (the sphere's is central; the capsule mesh is mirrored in
    // x, y and z, in x because the slice count is even) the centre is at the
    // origin and the products of inertia vanish, to rounding (these shapes
    // are under 2 m across).
    EXPECT_LT(glm::length(mesh.centre), 1e-13) << label;
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) {
            if (r == c) continue;
            EXPECT_LT(std::abs(mesh.inertia[c][r]), 1e-13 * maxAbs(outer.inertia)) << label;
        }
    return {volumeError, inertiaError.x};
}

TEST(RigidMassProperties, IcosphereFacetingErrorIsBoundedAndSecondOrder) {
    const double radius = 0.5;
    const MassProperties exact = sphereMassProperties(radius);
    EXPECT_DOUBLE_EQ(exact.volume, 4.0 / 3.0 * std::numbers::pi / 8.0);
    std::vector<glm::dvec2> errors;
    for (uint32_t s = 0; s <= 5; ++s) {
        const BodySurface sphere = sphereSurface(radius, s);
        const Faceting f = faceting(sphere, 0.0);
        ASSERT_TRUE(f.convex) << s;
        const std::string label = "icosphere subdivisions " + std::to_string(s);
        errors.push_back(checkFaceting(sphere, exact, sphereMassProperties(f.innerRadius), label.c_str()));
        // Icosahedral symmetry leaves only isotropic inertia: equal moments.
        const MassProperties m = massOf(sphere);
        EXPECT_NEAR(m.inertia[0][0], m.inertia[1][1], 1e-13 * m.inertia[0][0]);
        EXPECT_NEAR(m.inertia[0][0], m.inertia[2][2], 1e-13 * m.inertia[0][0]);
    }
    // Second order: the gap between a chord and its arc is quadratic in the
    // edge length, which halves with each subdivision, so the error falls
    // 4x per level once the triangles' shapes settle (from level 2 on; the
    // icosahedron itself is far from that regime).
    for (std::size_t s = 2; s + 1 < errors.size(); ++s) {
        const glm::dvec2 ratio = errors[s] / errors[s + 1];
        std::printf("icosphere error ratios, level %zu to %zu: volume %.3f, I_xx %.3f\n", s, s + 1, ratio.x, ratio.y);
        for (int i = 0; i < 2; ++i) {
            EXPECT_GT(ratio[i], 3.8);
            EXPECT_LT(ratio[i], 4.2);
        }
    }
}

TEST(RigidMassProperties, CapsuleMeshConvergesToTheAnalyticCapsule) {
    const double radius = 0.25, halfLength = 0.6;
    const MassProperties exact = capsuleMassProperties(radius, halfLength);
    std::vector<glm::dvec2> errors;
    // Slices and stacks doubled together halve every edge.
    for (uint32_t level = 0; level < 5; ++level) {
        const uint32_t slices = 8u << level, stacks = 2u << level;
        const BodySurface capsule = capsuleSurface(radius, halfLength, slices, stacks);
        const Faceting f = faceting(capsule, halfLength);
        ASSERT_TRUE(f.convex) << level;
        const std::string label = "capsule slices " + std::to_string(slices) + " stacks " + std::to_string(stacks);
        errors.push_back(
            checkFaceting(capsule, exact, capsuleMassProperties(f.innerRadius, halfLength), label.c_str()));
    }
    // Second order, as for the sphere. A slip in the formula adds a constant
    // to the error and spoils the ratios: 0.74 h r for the caps' 0.75 h r in
    // I_xx (a 1e-3 change) turns them into 4.3, 6.9 and -2.0. The finest mesh
    // pins both to 1e-3.
    for (std::size_t i = 1; i + 1 < errors.size(); ++i) {
        const glm::dvec2 ratio = errors[i] / errors[i + 1];
        std::printf("capsule error ratios, level %zu to %zu: volume %.3f, I_xx %.3f\n", i, i + 1, ratio.x, ratio.y);
        for (int k = 0; k < 2; ++k) {
            EXPECT_GT(ratio[k], 3.8);
            EXPECT_LT(ratio[k], 4.2);
        }
    }
    EXPECT_LT(errors.back().x, 1e-3);
    EXPECT_LT(errors.back().y, 1e-3);
}

TEST(RigidMassProperties, CapsuleFormulaLimits) {
    // No cylinder: a ball.
    const MassProperties ball = sphereMassProperties(0.4), noCylinder = capsuleMassProperties(0.4, 0.0);
    EXPECT_DOUBLE_EQ(noCylinder.volume, ball.volume);
    EXPECT_LT(relativeError(noCylinder.inertia, ball.inertia), 1e-15);
    // A long thin capsule tends to a rod: I_xx -> V L² / 12 with L = 2h,
    // I_yy -> V r²/2; the caps add O(r/h) relative.
    const double r = 1e-3, h = 10.0;
    const MassProperties rod = capsuleMassProperties(r, h);
    EXPECT_NEAR(rod.inertia[0][0], rod.volume * 4.0 * h * h / 12.0, 1e-3 * rod.inertia[0][0]);
    EXPECT_NEAR(rod.inertia[1][1], rod.volume * r * r / 2.0, 1e-3 * rod.inertia[1][1]);
}

TEST(RigidMassProperties, InsideOutMeshIsRejected) {
    BodySurface box = boxSurface(dvec3(0.25), 2);
    for (std::size_t t = 0; t < box.triangles.size(); t += 3) std::swap(box.triangles[t + 1], box.triangles[t + 2]);
    const std::string message = rejection([&] { polyhedronMassProperties(box.positions, box.triangles); });
    std::printf("inside-out box: %s\n", message.c_str());
    EXPECT_TRUE(contains(message, "volume is -0.125 m^3: the surface is wound inward")) << message;
    std::vector<uint32_t> reversed = kLTriangles;
    std::reverse(reversed.begin(), reversed.end());
    EXPECT_TRUE(contains(rejection([&] { polyhedronMassProperties(kLVertices, reversed); }), "wound inward"));
}

TEST(RigidMassProperties, FlatOrEmptyMeshIsRejected) {
    // A box squashed flat (closed, but enclosing nothing), and a two-sided
    // square.
    BodySurface flat = boxSurface(dvec3(1.0, 0.5, 2.0), 3);
    for (dvec3& p : flat.positions) p.y = 0.0;
    const std::vector<dvec3> square = {{0, 0, 0}, {1, 0, 0}, {1, 0, 1}, {0, 0, 1}};
    const std::vector<uint32_t> twoSided = {0, 2, 1, 0, 3, 2, 0, 1, 2, 0, 2, 3};
    const std::vector<uint32_t> none;
    for (const auto& [positions, triangles] :
         {std::pair{flat.positions, flat.triangles}, std::pair{square, twoSided}, std::pair{square, none}}) {
        const std::string message = rejection([&] { polyhedronMassProperties(positions, triangles); });
        std::printf("flat mesh: %s\n", message.c_str());
        EXPECT_TRUE(contains(message, "volume is zero")) << message;
    }
}

TEST(RigidMassProperties, MalformedMeshIsRejected) {
    EXPECT_THROW(polyhedronMassProperties(kLVertices, {0, 1}), std::invalid_argument);
    EXPECT_THROW(polyhedronMassProperties(kLVertices, {0, 1, 15}), std::invalid_argument);
    std::vector<dvec3> bad = kLVertices;
    bad[3].x = std::numeric_limits<double>::quiet_NaN();
    EXPECT_THROW(polyhedronMassProperties(bad, kLTriangles), std::invalid_argument);
    EXPECT_THROW(boxMassProperties(dvec3(1.0, -1.0, 1.0)), std::invalid_argument);
    EXPECT_THROW(sphereMassProperties(0.0), std::invalid_argument);
    EXPECT_THROW(capsuleMassProperties(0.1, -0.5), std::invalid_argument);
}

TEST(RigidMassProperties, BodyMassScalesByMassOrDensity) {
    const MassProperties box = boxMassProperties(dvec3(0.5, 1.0, 1.5));  // 1 x 2 x 3 m, 6 m^3
    const BodyMass byMass = bodyMassFromMass(box, 12.0);
    EXPECT_DOUBLE_EQ(byMass.mass, 12.0);
    EXPECT_DOUBLE_EQ(byMass.inertia[0][0], 12.0 / 12.0 * (4.0 + 9.0));  // m (b² + c²) / 12, kg m^2
    EXPECT_DOUBLE_EQ(byMass.inertia[2][2], 12.0 / 12.0 * (1.0 + 4.0));
    const BodyMass byDensity = bodyMassFromDensity(box, 2.0);
    EXPECT_DOUBLE_EQ(byDensity.mass, 12.0);
    EXPECT_LT(relativeError(byDensity.inertia, byMass.inertia), 1e-15);
    EXPECT_THROW(bodyMassFromMass(box, 0.0), std::invalid_argument);
    EXPECT_THROW(bodyMassFromDensity(box, -1.0), std::invalid_argument);
    EXPECT_THROW(bodyMassFromMass(MassProperties{}, 1.0), std::invalid_argument);
}

TEST(RigidInertia, DegenerateTensorIsRejectedWithItsPrincipalMoments) {
    // A rod of zero radius along x.
    const dmat3 rod(dvec3(0.0, 0.0, 0.0), dvec3(0.0, 0.3, 0.0), dvec3(0.0, 0.0, 0.3));
    const std::string message = rejection([&] { requireInvertibleInertia(rod); });
    std::printf("rod: %s\n", message.c_str());
    EXPECT_TRUE(contains(message, "degenerate inertia: principal moments 0, 0.3, 0.3 kg m^2")) << message;
    // A needle box (1 m x 1 µm x 1 µm): moments 8e-25 vs 3e-13 m^5, a ratio
    // of 3e-12, under the 1e-9 floor.
    EXPECT_THROW(requireInvertibleInertia(boxMassProperties(dvec3(0.5, 5e-7, 5e-7)).inertia), std::invalid_argument);
    EXPECT_THROW(requireInvertibleInertia(dmat3(0.0)), std::invalid_argument);
    EXPECT_THROW(requireInvertibleInertia(dmat3(-1.0)), std::invalid_argument);
    dmat3 lopsided(1.0);
    lopsided[0][1] = 0.2;  // not mirrored in [1][0]
    EXPECT_THROW(requireInvertibleInertia(lopsided), std::invalid_argument);
    dmat3 infinite(1.0);
    infinite[2][2] = std::numeric_limits<double>::infinity();
    EXPECT_THROW(requireInvertibleInertia(infinite), std::invalid_argument);
}

TEST(RigidInertia, RealBodiesAreInvertible) {
    EXPECT_NO_THROW(requireInvertibleInertia(massOf(boxSurface(dvec3(0.1, 0.2, 3.0), 2)).inertia));
    EXPECT_NO_THROW(requireInvertibleInertia(polyhedronMassProperties(kLVertices, kLTriangles).inertia));
    EXPECT_NO_THROW(requireInvertibleInertia(capsuleMassProperties(0.05, 2.0).inertia));
}

}  // namespace
}  // namespace vksim
