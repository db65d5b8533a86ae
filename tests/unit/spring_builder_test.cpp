// The springs of a mass-spring cloth (solvers/springs/spring_builder.h): counts on a
// closed mesh, an open mesh and a grid against their closed forms, hinge
// orientation, rest lengths and angles, non-manifold edges.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <set>

#include "../common/mesh_fixtures.h"
#include "geometry/shared_math.h"
#include "model/cloth_grid.h"
#include "solvers/model_builder.h"
#include "spring_scenes.h"

namespace vksim {
namespace {

size_t countKind(const MsModel& ms, uint32_t kind) {
    return std::count_if(ms.springs.begin(), ms.springs.end(), [&](const gpu::MsSpring& s) { return s.kind == kind; });
}

// True when (a, b, c) is a cyclic rotation of a triangle of the list.
bool hasTriangle(std::span<const uint32_t> triangles, uint32_t a, uint32_t b, uint32_t c) {
    for (size_t t = 0; t < triangles.size(); t += 3)
        for (int r = 0; r < 3; ++r)
            if (triangles[t + r] == a && triangles[t + (r + 1) % 3] == b && triangles[t + (r + 2) % 3] == c)
                return true;
    return false;
}

TEST(SpringBuilder, ClosedMeshHasOnlyInteriorEdges) {
    for (int subdivisions : {0, 1, 2}) {
        const test::Icosphere sphere = test::makeIcosphere(1.0, subdivisions);
        const std::vector<uint32_t> triangles = test::flatten(sphere.triangles);
        const MsModel ms = test::springObject(sphere.positions, triangles, {.topology = SpringTopology::Mesh});
        const SpringCounts& c = ms.objects.at(0).counts;
        const int64_t V = c.vertices, E = c.edges, F = c.triangles;
        SCOPED_TRACE(testing::Message() << "icosphere " << subdivisions << ": V " << V << " E " << E << " F " << F);
        EXPECT_EQ(F, 20 * (1 << (2 * subdivisions)));
        EXPECT_EQ(2 * E, 3 * F);
        EXPECT_EQ(V - E + F, 2);
        EXPECT_EQ(c.interiorEdges, E);
        EXPECT_EQ(c.boundaryEdges, 0u);
        EXPECT_EQ(c.nonManifoldEdges, 0u);
        EXPECT_EQ(c.stretchSprings, E);
        EXPECT_EQ(c.shearSprings, 0u);
        EXPECT_EQ(c.bendSprings, E);
        EXPECT_EQ(c.hinges, E);
        EXPECT_EQ(c.degenerateQuadratic, 0u);
        EXPECT_EQ(ms.springs.size(), size_t(2 * E));
        EXPECT_EQ(countKind(ms, gpu::kSpringStretch), size_t(E));
        EXPECT_EQ(countKind(ms, gpu::kSpringBend), size_t(E));
        EXPECT_EQ(ms.hinges.size(), size_t(E));
    }
}

TEST(SpringBuilder, HingesFollowTheTriangleWinding) {
    const test::Icosphere sphere = test::makeIcosphere(1.0, 1);
    const std::vector<uint32_t> triangles = test::flatten(sphere.triangles);
    const MsModel ms = test::springObject(sphere.positions, triangles, {.topology = SpringTopology::Mesh});
    // Every dihedral angle of an icosphere level 1 is close to the
    // icosahedron's supplement (41.8 degrees) and, wound outwards and
    // convex, all have the same sign.
    double smallest = 10.0, largest = -10.0;
    for (const gpu::MsHinge& h : ms.hinges) {
        EXPECT_TRUE(hasTriangle(triangles, h.v0, h.v1, h.v2)) << h.v0 << " " << h.v1 << " " << h.v2;
        EXPECT_TRUE(hasTriangle(triangles, h.v1, h.v0, h.v3)) << h.v1 << " " << h.v0 << " " << h.v3;
        smallest = std::min<double>(smallest, h.restAngle);
        largest = std::max<double>(largest, h.restAngle);
        EXPECT_FLOAT_EQ(h.restAngle, static_cast<float>(ref::dihedralAngle(sphere.positions[h.v0], sphere.positions[h.v1],
                                                                        sphere.positions[h.v2], sphere.positions[h.v3])));
    }
    std::cout << "icosphere rest angles in [" << smallest << ", " << largest << "] rad\n";
    EXPECT_TRUE(smallest > 0.0 || largest < 0.0);
    EXPECT_GT(std::abs(smallest), 0.2);
    EXPECT_LT(std::abs(largest), 0.8);
}

TEST(SpringBuilder, OpenMeshCountsMatchTheTriangulatedGrid) {
    for (glm::uvec2 res : {glm::uvec2(2, 2), glm::uvec2(3, 5), glm::uvec2(7, 4), glm::uvec2(16, 16)}) {
        const SimModel model =
            buildModel(test::springClothScene(res, {.topology = SpringTopology::Mesh, .shearDiagonals = 2}));
        const MsModel& ms = model.springs;
        const SpringCounts& c = ms.objects.at(0).counts;
        const int64_t nx = res.x, nz = res.y;
        const int64_t cells = (nx - 1) * (nz - 1);
        const int64_t E = (nx - 1) * nz + nx * (nz - 1) + cells, F = 2 * cells, V = nx * nz;
        const int64_t boundary = 2 * (nx - 1) + 2 * (nz - 1);
        SCOPED_TRACE(testing::Message() << nx << "x" << nz);
        EXPECT_EQ(c.vertices, V);
        EXPECT_EQ(c.triangles, F);
        EXPECT_EQ(c.edges, E);
        EXPECT_EQ(V - int64_t(c.edges) + F, 1);
        EXPECT_EQ(c.boundaryEdges, boundary);
        EXPECT_EQ(c.interiorEdges, E - boundary);
        EXPECT_EQ(c.stretchSprings, E);
        EXPECT_EQ(c.shearSprings, 0u);  // the Mesh topology has no shear family
        EXPECT_EQ(c.bendSprings, E - boundary);
        EXPECT_EQ(c.hinges, E - boundary);
        EXPECT_EQ(ms.objects[0].params.shearDiagonals, 0u);  // normalised
    }
}

TEST(SpringBuilder, GridFamiliesMatchClosedForms) {
    for (glm::uvec2 res : {glm::uvec2(2, 2), glm::uvec2(3, 5), glm::uvec2(7, 4), glm::uvec2(16, 16)})
        for (uint32_t diagonals : {0u, 1u, 2u}) {
            const SimModel model = buildModel(test::springClothScene(res, {.shearDiagonals = diagonals}));
            const MsModel& ms = model.springs;
            const SpringCounts& c = ms.objects.at(0).counts;
            const size_t nx = res.x, nz = res.y;
            SCOPED_TRACE(testing::Message() << nx << "x" << nz << ", " << diagonals << " diagonals");
            EXPECT_EQ(c.stretchSprings, (nx - 1) * nz + nx * (nz - 1));
            EXPECT_EQ(c.shearSprings, diagonals * (nx - 1) * (nz - 1));
            EXPECT_EQ(c.bendSprings, (nx - 2) * nz + nx * (nz - 2));
            EXPECT_EQ(countKind(ms, gpu::kSpringStretch), c.stretchSprings);
            EXPECT_EQ(countKind(ms, gpu::kSpringShear), c.shearSprings);
            EXPECT_EQ(countKind(ms, gpu::kSpringBend), c.bendSprings);
            EXPECT_EQ(c.hinges, c.interiorEdges);  // every bending representation is built
        }
}

// One diagonal per cell is the triangulation's: structural + shear springs
// are then exactly the mesh's edges.
TEST(SpringBuilder, OneShearDiagonalIsTheTriangulationDiagonal) {
    Scene scene = test::springClothScene({6, 5}, {.shearDiagonals = 1});
    const SimModel model = buildModel(scene);
    std::set<std::pair<uint32_t, uint32_t>> springs, edges;
    for (const gpu::MsSpring& s : model.springs.springs)
        if (s.kind != gpu::kSpringBend) springs.insert({std::min(s.i, s.j), std::max(s.i, s.j)});
    for (uint32_t t = 0; t < model.triangleCount(); ++t)
        for (int k = 0; k < 3; ++k) {
            const uint32_t a = model.triangles[3 * t + k], b = model.triangles[3 * t + (k + 1) % 3];
            edges.insert({std::min(a, b), std::max(a, b)});
        }
    EXPECT_EQ(springs, edges);
}

TEST(SpringBuilder, RestLengthsAreTheUploadedPositions) {
    Scene scene = test::springClothScene({9, 6});
    scene.cloths[0].rotation = test::axisAngle({1.0f, 2.0f, 3.0f}, 0.8f);
    scene.cloths[0].position = {0.3f, 1.2f, -0.4f};
    const SimModel model = buildModel(scene);
    for (const gpu::MsSpring& s : model.springs.springs) {
        const double length = glm::length(glm::dvec3(glm::vec3(model.positions[s.i])) -
                                          glm::dvec3(glm::vec3(model.positions[s.j])));
        EXPECT_EQ(s.restLength, static_cast<float>(length));
    }
    // A flat cloth is flat at every hinge.
    for (const gpu::MsHinge& h : model.springs.hinges) EXPECT_NEAR(h.restAngle, 0.0f, 1e-5f);
}

TEST(SpringBuilder, NonManifoldEdgesAreCountedNotBent) {
    // Three triangles on the edge (0, 1), a fourth on (1, 2) of the first.
    const std::vector<glm::dvec3> rest = {{0, 0, 0}, {1, 0, 0}, {0.5, 1, 0}, {0.5, -1, 0}, {0.5, 0, 1}, {1.5, 1, 0}};
    const std::vector<uint32_t> triangles = {0, 1, 2, 1, 0, 3, 0, 1, 4, 2, 1, 5};
    const MsModel ms = test::springObject(rest, triangles, {.topology = SpringTopology::Mesh});
    const SpringCounts& c = ms.objects[0].counts;
    EXPECT_EQ(c.nonManifoldEdges, 1u);
    EXPECT_EQ(c.interiorEdges, 1u);
    EXPECT_EQ(c.edges, 9u);
    EXPECT_EQ(c.boundaryEdges, 7u);
    EXPECT_EQ(c.hinges, 1u);
    EXPECT_EQ(c.bendSprings, 1u);
    EXPECT_EQ(c.stretchSprings, 9u);
}

TEST(SpringBuilder, ModelPutsSpringParticlesLast) {
    Scene scene = test::clothScene({4, 3});
    ClothObject pd = scene.cloths[0], springs = scene.cloths[0], pbd = scene.cloths[0];
    pd.method = SolverMethod::Pd;
    pd.name = "pd";
    springs.method = SolverMethod::Springs;
    springs.name = "springs";
    springs.grid.resolution = {5, 5};
    springs.pinned = {{0, 0}};
    pbd.name = "pbd";
    scene.cloths = {springs, pd, pbd};  // scene order is not particle order
    const SimModel model = buildModel(scene);
    EXPECT_EQ(model.pbd.particleCount, 12u);
    EXPECT_EQ(model.pd.firstParticle, 12u);
    EXPECT_EQ(model.pd.particleCount, 12u);
    EXPECT_EQ(model.springs.firstParticle, 24u);
    EXPECT_EQ(model.springs.particleCount, 25u);
    EXPECT_EQ(model.particleCount(), 49u);
    ASSERT_EQ(model.springs.objects.size(), 1u);
    EXPECT_EQ(model.springs.objects[0].cloth, 0u);
    EXPECT_EQ(model.positions[24].w, 0.0f);  // the pinned corner
    EXPECT_GT(model.positions[25].w, 0.0f);
    EXPECT_EQ(model.objects.back().name, "springs");

    // The PD system is the same as without the springs cloth after it.
    Scene withoutSprings = scene;
    withoutSprings.cloths = {pd, pbd};
    const SimModel reference = buildModel(withoutSprings);
    ASSERT_EQ(model.pd.rows.size(), reference.pd.rows.size());
    EXPECT_EQ(0, std::memcmp(model.pd.rows.data(), reference.pd.rows.data(),
                             model.pd.rows.size() * sizeof(gpu::PdRow)));
    ASSERT_EQ(model.pd.offDiagonal.size(), reference.pd.offDiagonal.size());
    EXPECT_EQ(0, std::memcmp(model.pd.offDiagonal.data(), reference.pd.offDiagonal.data(),
                             model.pd.offDiagonal.size() * sizeof(model.pd.offDiagonal[0])));
}

TEST(SpringBuilder, PinsAsAttachmentsAreRejected) {
    Scene scene = test::springClothScene({4, 4});
    scene.cloths[0].pinned = {{0, 0}};
    scene.cloths[0].pinsAsAttachments = true;
    try {
        buildModel(scene);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("pinsAsAttachments"), std::string::npos) << error.what();
    }
}

TEST(SpringBuilder, BadParamsNameTheCloth) {
    Scene scene = test::springClothScene({4, 4}, {.slack = 1.0f});
    try {
        buildModel(scene);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& error) {
        EXPECT_NE(std::string(error.what()).find("cloth 'cloth'"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("slack"), std::string::npos) << error.what();
    }
}

}  // namespace
}  // namespace vksim
