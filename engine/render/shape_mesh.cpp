#include "render/shape_mesh.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

namespace vksim {
namespace {

// [m] how far inside the collider surface its mesh is drawn (see the header).
constexpr float kDrawInset = 0.002f;
// [m] half the side of the square that stands for an infinite plane.
constexpr float kGroundHalfSize = 50.0f;

void addVertex(ShapeMesh& mesh, glm::vec3 position, glm::vec3 normal) {
    mesh.positions.emplace_back(position, 1.0f);
    mesh.normals.emplace_back(normal, 0.0f);
}

// Two triangles over the quad a-b-d-c, where a->b runs along one ring and
// a->c to the next ring; counter-clockwise around the outward normal when
// rings run from +Y down and b follows a in increasing longitude.
void addGridQuads(ShapeMesh& mesh, uint32_t firstVertex, uint32_t rings, uint32_t slices) {
    const uint32_t stride = slices + 1;
    for (uint32_t r = 0; r + 1 < rings; ++r)
        for (uint32_t s = 0; s < slices; ++s) {
            const uint32_t a = firstVertex + r * stride + s;
            const uint32_t b = a + 1;
            const uint32_t c = a + stride;
            const uint32_t d = c + 1;
            mesh.indices.insert(mesh.indices.end(), {a, b, c, b, d, c});
        }
}

// A sphere of `radius` cut at its equator, the halves moved apart by
// 2 * halfLength along Y: a capsule, or a sphere when halfLength is 0.
// Rings run from the top pole (latitude angle 0) to the bottom pole (pi).
ShapeMesh makeStretchedSphere(float radius, float halfLength, uint32_t slices, uint32_t stacksPerHalf) {
    ShapeMesh mesh;
    uint32_t rings = 0;
    for (int half = 0; half < 2; ++half) {
        const float offsetY = half == 0 ? halfLength : -halfLength;
        // A sphere's halves share the equator ring; a capsule's two equators
        // are the ends of its cylinder.
        const uint32_t first = (half == 1 && halfLength <= 0.0f) ? 1 : 0;
        for (uint32_t k = first; k <= stacksPerHalf; ++k, ++rings) {
            const float polar = (float(half) + float(k) / float(stacksPerHalf)) * std::numbers::pi_v<float> * 0.5f;
            for (uint32_t s = 0; s <= slices; ++s) {
                const float longitude = float(s) / float(slices) * 2.0f * std::numbers::pi_v<float>;
                const glm::vec3 n(std::sin(polar) * std::cos(longitude), std::cos(polar),
                                  std::sin(polar) * std::sin(longitude));
                addVertex(mesh, radius * n + glm::vec3(0.0f, offsetY, 0.0f), n);
            }
        }
    }
    addGridQuads(mesh, 0, rings, slices);
    return mesh;
}

// One box face: centre `n * h`, spanned by u and v (u x v = n), scaled by h.
void addBoxFace(ShapeMesh& mesh, glm::vec3 n, glm::vec3 u, glm::vec3 v, glm::vec3 h) {
    const uint32_t first = static_cast<uint32_t>(mesh.positions.size());
    const glm::vec2 corners[4] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};  // counter-clockwise around n
    for (glm::vec2 c : corners) addVertex(mesh, (n + c.x * u + c.y * v) * h, n);
    mesh.indices.insert(mesh.indices.end(), {first, first + 1, first + 2, first, first + 2, first + 3});
}

}  // namespace

ShapeMesh makeSphereMesh(float radius, uint32_t slices, uint32_t stacks) {
    return makeStretchedSphere(radius, 0.0f, slices, std::max(1u, stacks / 2));
}

ShapeMesh makeCapsuleMesh(float radius, float halfLength, uint32_t slices, uint32_t stacksPerCap) {
    return makeStretchedSphere(radius, halfLength, slices, stacksPerCap);
}

ShapeMesh makeBoxMesh(glm::vec3 halfExtents) {
    const glm::vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    ShapeMesh mesh;
    addBoxFace(mesh, x, y, z, halfExtents);
    addBoxFace(mesh, -x, z, y, halfExtents);
    addBoxFace(mesh, y, z, x, halfExtents);
    addBoxFace(mesh, -y, x, z, halfExtents);
    addBoxFace(mesh, z, x, y, halfExtents);
    addBoxFace(mesh, -z, y, x, halfExtents);
    return mesh;
}

ShapeMesh makeGroundMesh(float halfSize) {
    ShapeMesh mesh;
    addBoxFace(mesh, glm::vec3(0, 1, 0), glm::vec3(0, 0, 1), glm::vec3(1, 0, 0), glm::vec3(halfSize, 0, halfSize));
    return mesh;
}

ShapeMesh makeSurfaceMesh(const ColliderSurface& surface, float inset) {
    // Face normals (length = twice the area) and the smooth vertex normals.
    const std::size_t triangleCount = surface.triangles.size() / 3;
    std::vector<glm::vec3> faceNormals(triangleCount);
    std::vector<glm::vec3> smooth(surface.positions.size(), glm::vec3(0.0f));
    std::vector<std::vector<uint32_t>> trianglesOf(surface.positions.size());
    for (std::size_t t = 0; t < triangleCount; ++t) {
        const uint32_t* v = &surface.triangles[3 * t];
        const glm::vec3 a = surface.positions[v[0]];
        faceNormals[t] = glm::cross(surface.positions[v[1]] - a, surface.positions[v[2]] - a);
        for (int c = 0; c < 3; ++c) {
            smooth[v[c]] += faceNormals[t];
            trianglesOf[v[c]].push_back(static_cast<uint32_t>(t));
        }
    }
    auto unit = [](glm::vec3 n) {
        const float length = glm::length(n);
        return length > 0.0f ? n / length : glm::vec3(0.0f, 1.0f, 0.0f);
    };
    // Each corner is shaded with the area-weighted normal of the triangles
    // around its vertex that turn less than kCreaseDegrees from its own: a
    // curved surface stays smooth, an edge between faces (a box's, a
    // T-handle's) stays sharp. The inset moves along the smooth normal, so
    // the drawn surface stays closed. Corners with the same vertex and
    // normal share one vertex.
    constexpr float kCreaseDegrees = 40.0f;
    const float creaseCos = std::cos(glm::radians(kCreaseDegrees));
    ShapeMesh mesh;
    std::vector<std::vector<std::pair<glm::vec3, uint32_t>>> emitted(surface.positions.size());
    for (std::size_t t = 0; t < triangleCount; ++t) {
        const glm::vec3 own = unit(faceNormals[t]);
        for (int c = 0; c < 3; ++c) {
            const uint32_t v = surface.triangles[3 * t + c];
            glm::vec3 sum(0.0f);
            for (uint32_t other : trianglesOf[v])
                if (glm::dot(unit(faceNormals[other]), own) >= creaseCos) sum += faceNormals[other];
            const glm::vec3 n = unit(sum);
            uint32_t index = UINT32_MAX;
            for (const auto& [normal, id] : emitted[v])
                if (glm::dot(normal, n) > 0.99999f) index = id;
            if (index == UINT32_MAX) {
                index = static_cast<uint32_t>(mesh.positions.size());
                addVertex(mesh, surface.positions[v] - inset * unit(smooth[v]), n);
                emitted[v].emplace_back(n, index);
            }
            mesh.indices.push_back(index);
        }
    }
    return mesh;
}

ShapeMesh makeColliderMesh(const gpu::Collider& collider, const ColliderSurface& surface) {
    const glm::vec3 size(collider.size);
    switch (collider.type) {
        case gpu::kColliderMesh: return makeSurfaceMesh(surface, kDrawInset);
        case gpu::kColliderSphere: return makeSphereMesh(std::max(size.x - kDrawInset, 0.0f));
        case gpu::kColliderBox: return makeBoxMesh(glm::max(size - kDrawInset, glm::vec3(0.0f)));
        case gpu::kColliderCapsule: return makeCapsuleMesh(std::max(size.x - kDrawInset, 0.0f), size.y);
        default: {
            ShapeMesh ground = makeGroundMesh(kGroundHalfSize);
            for (glm::vec4& p : ground.positions) p.y -= kDrawInset;
            return ground;
        }
    }
}

glm::mat4 colliderModelMatrix(const gpu::Collider& collider) {
    const glm::vec4 q = collider.rotation;  // (x, y, z, w)
    const glm::quat rotation = glm::normalize(glm::quat(q.w, q.x, q.y, q.z));
    return glm::translate(glm::mat4(1.0f), glm::vec3(collider.position)) * glm::mat4_cast(rotation);
}

}  // namespace vksim
