// Scene -> SimModel (solvers/model_builder.h): counts, rest state, masses, pins,
// materials, multiple objects, render topology, colliders, degenerate input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iostream>
#include <string>

#include "cloth_scenes.h"
#include "geometry/isometric_bending.h"
#include "geometry/shared_math.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/model_summary.h"

namespace vksim {
namespace {

glm::dvec3 positionOf(const SimModel& model, uint32_t particle) {
    return glm::dvec3(glm::vec3(model.positions[particle]));
}

// True when (a, b, c) is a cyclic rotation of a triangle in the list.
bool hasTriangle(const SimModel& model, uint32_t a, uint32_t b, uint32_t c) {
    for (uint32_t t = 0; t < model.triangleCount(); ++t) {
        const uint32_t* x = &model.triangles[3 * t];
        for (int r = 0; r < 3; ++r)
            if (x[r] == a && x[(r + 1) % 3] == b && x[(r + 2) % 3] == c) return true;
    }
    return false;
}

TEST(ModelBuilder, ConstraintCountsMatchClosedForm) {
    for (glm::uvec2 res : {glm::uvec2(2, 2), glm::uvec2(3, 5), glm::uvec2(7, 4), glm::uvec2(48, 48)}) {
        SimModel model = buildModel(test::clothScene(res));
        const size_t n = res.x, m = res.y;
        const size_t quads = (n - 1) * (m - 1);
        const size_t structural = (n - 1) * m + n * (m - 1);
        // Edges of the triangulation: structural + one diagonal per quad; the
        // boundary has 2(n-1) + 2(m-1) of them, the rest are interior.
        const size_t interiorEdges = structural + quads - (2 * (n - 1) + 2 * (m - 1));
        SCOPED_TRACE(testing::Message() << n << "x" << m);
        EXPECT_EQ(model.particleCount(), n * m);
        EXPECT_EQ(model.triangleCount(), 2 * quads);
        EXPECT_EQ(model.pbd.distance.size(), structural + 2 * quads);
        EXPECT_EQ(model.pbd.bending.size(), interiorEdges);
        EXPECT_TRUE(model.pbd.attachments.empty());
    }
}

TEST(ModelBuilder, RestStateOfARotatedCloth) {
    Scene scene = test::clothScene({9, 6}, {1.6f, 1.0f});
    ClothObject& cloth = scene.cloths[0];
    cloth.position = {0.3f, 1.2f, -0.4f};
    cloth.rotation = test::axisAngle({1.0f, 2.0f, 3.0f}, 0.8f);
    SimModel model = buildModel(scene);

    // Centred on the object position, normals along the rotated local +Y.
    glm::dvec3 centroid(0.0);
    for (uint32_t i = 0; i < model.particleCount(); ++i) centroid += positionOf(model, i);
    centroid /= double(model.particleCount());
    EXPECT_LT(glm::length(centroid - glm::dvec3(cloth.position)), 1e-6);
    glm::dvec3 up = ref::quatRotate(glm::dvec4(cloth.rotation), glm::dvec3(0, 1, 0));
    for (uint32_t t = 0; t < model.triangleCount(); ++t) {
        glm::dvec3 a = positionOf(model, model.triangles[3 * t]), b = positionOf(model, model.triangles[3 * t + 1]),
                   c = positionOf(model, model.triangles[3 * t + 2]);
        EXPECT_GT(glm::dot(glm::normalize(glm::cross(b - a, c - a)), up), 1.0 - 1e-6) << "triangle " << t;
    }

    // Rest lengths are the initial distances; the shortest is the grid spacing.
    double shortest = 1e9;
    for (const gpu::DistanceConstraint& c : model.pbd.distance) {
        double distance = glm::length(positionOf(model, c.p0) - positionOf(model, c.p1));
        EXPECT_NEAR(c.restLength, distance, 1e-7 * distance);
        shortest = std::min(shortest, double(c.restLength));
    }
    EXPECT_NEAR(shortest, std::min(1.6 / 8, 1.0 / 5), 1e-6);

    // Bending: e = sum K_i x_i vanishes on the flat rest shape (up to the float
    // positions), the K sum to exactly zero, scale = 3 / (A0 + A1), and the
    // edge is oriented as BendingConstraint says.
    double worstE = 0.0;
    for (const gpu::BendingConstraint& c : model.pbd.bending) {
        const glm::uvec4 p = c.particles;
        glm::dvec3 x0 = positionOf(model, p.x), x1 = positionOf(model, p.y), x2 = positionOf(model, p.z),
                   x3 = positionOf(model, p.w);
        glm::dvec4 K(c.K);
        EXPECT_EQ(c.K.x + c.K.y + c.K.z + c.K.w, 0.0f);
        EXPECT_EQ(K.x + K.y + K.z + K.w, 0.0);
        double Kmax = std::max({std::abs(K.x), std::abs(K.y), std::abs(K.z), std::abs(K.w)});
        glm::dvec3 e = K.x * x0 + K.y * x1 + K.z * x2 + K.w * x3;
        worstE = std::max(worstE, glm::length(e) / Kmax);
        double areas =
            0.5 * glm::length(glm::cross(x1 - x0, x2 - x0)) + 0.5 * glm::length(glm::cross(x1 - x0, x3 - x0));
        EXPECT_NEAR(c.scale, 3.0 / areas, 1e-5 * c.scale);
        EXPECT_TRUE(hasTriangle(model, p.x, p.z, p.y)) << "triangle (p0, p2, p1) missing";
        EXPECT_TRUE(hasTriangle(model, p.x, p.y, p.w)) << "triangle (p0, p1, p3) missing";
    }
    std::cout << "flat rest shape: max |sum K_i x_i| / max|K_i| = " << worstE << " m\n";
    // Positions are floats of magnitude ~1.5: a few ulps (1.2e-7 each).
    EXPECT_LT(worstE, 1e-6);
}

TEST(ModelBuilder, IsometricBendingWeightsOfASquare) {
    // Unit square split along x0-x1: every corner at the edge is 45 degrees,
    // cot = 1, so K = (2, 2, -2, -2); both triangles have area 1/2.
    auto rest = isometricBendingRest({0, 0, 0}, {1, 0, 1}, {1, 0, 0}, {0, 0, 1});
    ASSERT_TRUE(rest);
    EXPECT_FLOAT_EQ(rest->K.x, 2.0f);
    EXPECT_FLOAT_EQ(rest->K.y, 2.0f);
    EXPECT_FLOAT_EQ(rest->K.z, -2.0f);
    EXPECT_FLOAT_EQ(rest->K.w, -2.0f);
    EXPECT_FLOAT_EQ(rest->scale, 3.0f);
}

TEST(ModelBuilder, DegenerateTrianglesGiveNoBendingAndNoNaN) {
    EXPECT_FALSE(isometricBendingRest({0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 0, 1}));  // collinear
    EXPECT_FALSE(isometricBendingRest({0, 0, 0}, {0, 0, 0}, {1, 0, 0}, {0, 0, 1}));  // zero-length edge

    // A cloth of zero width: every triangle has zero area.
    ModelDiagnostics diagnostics;
    SimModel model = buildModel(test::clothScene({4, 5}, {0.0f, 1.0f}), &diagnostics);
    EXPECT_TRUE(model.pbd.bending.empty());
    EXPECT_EQ(diagnostics.degenerateBendingEdges, 3u * 5 + 4u * 4 + 3u * 4 - 2u * 3 - 2u * 4);
    for (const gpu::DistanceConstraint& c : model.pbd.distance) EXPECT_TRUE(std::isfinite(c.restLength));
    EXPECT_NE(describeModel(model, diagnostics).find("degenerate"), std::string::npos);
}

TEST(ModelBuilder, MassIsSpreadEvenlyAndPinsAreFixed) {
    Scene scene = test::clothScene({5, 4});
    scene.cloths[0].mass = 2.0f;
    scene.cloths[0].pinned = {{0, 3}, {4, 3}};
    SimModel model = buildModel(scene);
    double mass = 0.0;
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
        float w = model.positions[i].w;
        bool pinned = i == 3 * 5 + 0 || i == 3 * 5 + 4;
        if (pinned) {
            EXPECT_EQ(w, 0.0f) << "particle " << i;
            EXPECT_EQ(glm::length(glm::vec3(model.velocities[i])), 0.0f);
        } else {
            EXPECT_FLOAT_EQ(w, 10.0f) << "particle " << i;  // 20 vertices share 2 kg
            mass += 1.0 / w;
        }
    }
    EXPECT_NEAR(mass, 2.0 * 18.0 / 20.0, 1e-6);

    // As attachments the pinned vertices keep their mass and are held at
    // their initial positions by their own material.
    scene.cloths[0].pinsAsAttachments = true;
    scene.cloths[0].attachment.stiffness = 0.5f;
    model = buildModel(scene);
    mass = 0.0;
    for (const glm::vec4& x : model.positions) mass += 1.0 / x.w;
    EXPECT_NEAR(mass, 2.0, 1e-6);
    ASSERT_EQ(model.pbd.attachments.size(), 2u);
    ASSERT_EQ(model.pbd.attachmentGroups.colours.size(), 1u);
    for (const gpu::AttachmentConstraint& a : model.pbd.attachments) {
        EXPECT_EQ(glm::vec3(a.target), glm::vec3(model.positions[a.particle]));
        EXPECT_EQ(a.material, materialIndex(0, ConstraintFamily::Attachment));
        EXPECT_EQ(model.pbd.materials[a.material].stiffness, 0.5f);
    }

    scene.cloths[0].attachment.enabled = false;
    EXPECT_TRUE(buildModel(scene).pbd.attachments.empty());
}

TEST(ModelBuilder, MaterialsAndDisabledFamilies) {
    Scene scene = test::clothScene({4, 4});
    scene.cloths[0].stretch = {ConstraintModel::Xpbd, 1.0f, 1e-6f, true};
    scene.cloths[0].bending = {ConstraintModel::Pbd, 0.1f, 0.0f, true};
    SimModel model = buildModel(scene);
    ASSERT_EQ(model.pbd.materials.size(), kFamiliesPerObject);
    const gpu::ConstraintMaterial& stretch = model.pbd.materials[materialIndex(0, ConstraintFamily::Stretch)];
    EXPECT_EQ(stretch.mode, gpu::kModeXpbd);
    EXPECT_EQ(stretch.compliance, 1e-6f);
    const gpu::ConstraintMaterial& bending = model.pbd.materials[materialIndex(0, ConstraintFamily::Bending)];
    EXPECT_EQ(bending.mode, gpu::kModePbd);
    EXPECT_EQ(bending.stiffness, 0.1f);
    for (const auto& c : model.pbd.distance) EXPECT_EQ(c.material, materialIndex(0, ConstraintFamily::Stretch));
    for (const auto& c : model.pbd.bending) EXPECT_EQ(c.material, materialIndex(0, ConstraintFamily::Bending));

    scene.cloths[0].stretch.enabled = false;
    scene.cloths[0].bending.enabled = false;
    model = buildModel(scene);
    EXPECT_TRUE(model.pbd.distance.empty());
    EXPECT_TRUE(model.pbd.distanceGroups.colours.empty());
    EXPECT_TRUE(model.pbd.bending.empty());
    EXPECT_EQ(model.triangleCount(), 18u);  // still rendered
}

TEST(ModelBuilder, TwoObjectsGetDisjointRanges) {
    Scene scene = test::clothScene({4, 3});
    ClothObject second = scene.cloths[0];
    second.name = "second";
    second.grid.resolution = {5, 5};
    second.position = {2.0f, 1.0f, 0.0f};
    scene.cloths.push_back(second);
    SimModel model = buildModel(scene);

    ASSERT_EQ(model.objects.size(), 2u);
    const ObjectRange& a = model.objects[0];
    const ObjectRange& b = model.objects[1];
    EXPECT_EQ(a.firstParticle, 0u);
    EXPECT_EQ(a.particleCount, 12u);
    EXPECT_EQ(b.firstParticle, 12u);
    EXPECT_EQ(b.particleCount, 25u);
    EXPECT_EQ(b.firstTriangle, a.triangleCount);
    EXPECT_EQ(a.triangleCount + b.triangleCount, model.triangleCount());
    EXPECT_EQ(model.pbd.materials.size(), 2 * kFamiliesPerObject);

    auto objectOf = [&](uint32_t particle) { return particle < b.firstParticle ? 0u : 1u; };
    for (const auto& c : model.pbd.distance) {
        EXPECT_EQ(objectOf(c.p0), objectOf(c.p1));
        EXPECT_EQ(c.material, materialIndex(objectOf(c.p0), ConstraintFamily::Stretch));
    }
    for (const auto& c : model.pbd.bending) {
        uint32_t object = objectOf(c.particles.x);
        for (int k = 0; k < 4; ++k) EXPECT_EQ(objectOf(c.particles[k]), object);
        EXPECT_EQ(c.material, materialIndex(object, ConstraintFamily::Bending));
    }
    for (uint32_t t = 0; t < model.triangleCount(); ++t) {
        uint32_t object = t < b.firstTriangle ? 0u : 1u;
        for (int k = 0; k < 3; ++k) EXPECT_EQ(objectOf(model.triangles[3 * t + k]), object);
    }
    // Each object's constraint counts add up.
    EXPECT_EQ(model.pbd.distance.size(), (3 * 3 + 4 * 2 + 2 * 3 * 2) + (4 * 5 * 2 + 2 * 4 * 4));
}

TEST(ModelBuilder, VertexTriangleAdjacencyIsConsistent) {
    SimModel model = buildModel(test::clothScene({6, 5}));
    const auto& offsets = model.adjacencyOffsets;
    ASSERT_EQ(offsets.size(), model.particleCount() + 1u);
    EXPECT_EQ(offsets.front(), 0u);
    EXPECT_EQ(offsets.back(), model.adjacentTriangles.size());
    EXPECT_EQ(model.adjacentTriangles.size(), 3u * model.triangleCount());
    for (uint32_t v = 0; v < model.particleCount(); ++v) {
        ASSERT_LE(offsets[v], offsets[v + 1]);
        EXPECT_GE(offsets[v + 1] - offsets[v], 1u) << "every grid vertex is in a triangle";
        for (uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
            uint32_t t = model.adjacentTriangles[k];
            const uint32_t* tri = &model.triangles[3 * t];
            EXPECT_TRUE(tri[0] == v || tri[1] == v || tri[2] == v) << "vertex " << v << ", triangle " << t;
            if (k > offsets[v]) {
                EXPECT_LT(model.adjacentTriangles[k - 1], t);
            }
        }
    }
}

TEST(ModelBuilder, CollidersCarryShapeAndMaterial) {
    Scene scene = test::clothScene({3, 3});
    auto add = [&](ColliderShape shape) {
        ColliderDesc desc;
        desc.shape = shape;
        desc.position = {0.1f, 0.2f, 0.3f};
        desc.rotation = {0.0f, 0.0f, 2.0f, 2.0f};  // not unit: the builder normalises
        desc.radius = 0.4f;
        desc.halfLength = 0.7f;
        desc.halfExtents = {0.1f, 0.2f, 0.3f};
        desc.thickness = 0.01f;
        desc.friction = 0.6f;
        desc.restitution = 0.25f;
        scene.colliders.push_back(desc);
    };
    add(ColliderShape::Plane);
    add(ColliderShape::Sphere);
    add(ColliderShape::Box);
    add(ColliderShape::Capsule);
    SimModel model = buildModel(scene);
    ASSERT_EQ(model.colliders.size(), 4u);
    EXPECT_EQ(model.colliders[0].type, gpu::kColliderPlane);
    EXPECT_EQ(model.colliders[1].type, gpu::kColliderSphere);
    EXPECT_EQ(model.colliders[1].size.x, 0.4f);
    EXPECT_EQ(model.colliders[2].type, gpu::kColliderBox);
    EXPECT_EQ(glm::vec3(model.colliders[2].size), glm::vec3(0.1f, 0.2f, 0.3f));
    EXPECT_EQ(model.colliders[3].type, gpu::kColliderCapsule);
    EXPECT_EQ(model.colliders[3].size.x, 0.4f);
    EXPECT_EQ(model.colliders[3].size.y, 0.7f);
    for (const gpu::Collider& c : model.colliders) {
        EXPECT_EQ(glm::vec3(c.position), glm::vec3(0.1f, 0.2f, 0.3f));
        EXPECT_NEAR(glm::length(c.rotation), 1.0f, 1e-6f);
        EXPECT_EQ(c.thickness, 0.01f);
        EXPECT_EQ(c.friction, 0.6f);
        EXPECT_EQ(c.restitution, 0.25f);
    }
}

TEST(ModelBuilder, RejectsWhatItCannotBuild) {
    Scene scene = test::clothScene({1, 4});
    EXPECT_THROW(buildModel(scene), std::invalid_argument);
    scene = test::clothScene({4, 4});
    scene.cloths[0].pinned = {{4, 0}};
    EXPECT_THROW(buildModel(scene), std::invalid_argument);
    scene = test::clothScene({4, 4});
    scene.cloths[0].mass = 0.0f;
    EXPECT_THROW(buildModel(scene), std::invalid_argument);
    scene = test::clothScene({4, 4});
    scene.colliders.resize(gpu::kMaxColliders + 1);
    EXPECT_THROW(buildModel(scene), std::invalid_argument);
}

// A name is free text of any length: a message quotes at most about 80
// bytes of it (io/quoted_input.h), its start and its end.
TEST(ModelBuilder, MessagesClipLongNames) {
    const std::string name = "start" + std::string(4000, 'a') + "end";
    auto messageOf = [](const Scene& scene) {
        try {
            buildModel(scene);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    Scene scene = test::clothScene({1, 4});
    scene.cloths[0].name = name;
    std::string message = messageOf(scene);
    std::cout << message << "\n";
    EXPECT_LT(message.size(), 200u);
    EXPECT_NE(message.find("cloth 'start"), std::string::npos);
    EXPECT_NE(message.find("aend'"), std::string::npos);
    scene = test::clothScene({4, 4});
    scene.name = name;
    scene.colliders.resize(gpu::kMaxColliders + 1);
    message = messageOf(scene);
    std::cout << message << "\n";
    EXPECT_LT(message.size(), 200u);
    EXPECT_NE(message.find("scene 'start"), std::string::npos);
}

TEST(ModelBuilder, SummaryNamesSizesAndColours) {
    SimModel model = buildModel(test::defaultLikeScene());
    std::string summary = describeModel(model);
    std::cout << summary;
    EXPECT_NE(summary.find("2304 particles (2 pinned)"), std::string::npos);
    EXPECT_NE(summary.find("8930 constraints in 8 colours"), std::string::npos);
}

TEST(ModelBuilder, DeterministicOutput) {
    SimModel a = buildModel(test::defaultLikeScene());
    SimModel b = buildModel(test::defaultLikeScene());
    ASSERT_EQ(a.pbd.distance.size(), b.pbd.distance.size());
    ASSERT_EQ(a.pbd.bending.size(), b.pbd.bending.size());
    EXPECT_EQ(0, std::memcmp(a.pbd.distance.data(), b.pbd.distance.data(),
                             a.pbd.distance.size() * sizeof(a.pbd.distance[0])));
    EXPECT_EQ(0,
              std::memcmp(a.pbd.bending.data(), b.pbd.bending.data(), a.pbd.bending.size() * sizeof(a.pbd.bending[0])));
}

}  // namespace
}  // namespace vksim
