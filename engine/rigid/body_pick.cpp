#include "rigid/body_pick.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <glm/gtc/quaternion.hpp>

namespace vksim {

namespace {

bool finite(glm::dvec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

glm::dquat toQuat(glm::vec4 q) { return glm::normalize(glm::dquat(q.w, q.x, q.y, q.z)); }

// The ray parameter where it crosses triangle (a, b, c), either side, or
// none (Möller and Trumbore 1997).
std::optional<double> crossTriangle(glm::dvec3 origin, glm::dvec3 direction, glm::dvec3 a, glm::dvec3 b,
                                    glm::dvec3 c) {
    const glm::dvec3 e1 = b - a, e2 = c - a;
    const glm::dvec3 p = glm::cross(direction, e2);
    const double det = glm::dot(e1, p);
    if (std::abs(det) < 1e-18) return std::nullopt;
    const double inverse = 1.0 / det;
    const glm::dvec3 s = origin - a;
    const double u = glm::dot(s, p) * inverse;
    if (u < 0.0 || u > 1.0) return std::nullopt;
    const glm::dvec3 q = glm::cross(s, e1);
    const double v = glm::dot(direction, q) * inverse;
    if (v < 0.0 || u + v > 1.0) return std::nullopt;
    const double t = glm::dot(e2, q) * inverse;
    if (!(t > 0.0)) return std::nullopt;
    return t;
}

}  // namespace

std::optional<BodyPickHit> pickBody(const RigidModel& model, std::span<const gpu::RigidBodyState> states,
                                    const Ray& ray) {
    const glm::dvec3 origin(ray.origin), direction(ray.direction);
    if (!finite(origin) || !finite(direction) || !(glm::length(direction) > 0.0))
        throw std::invalid_argument("pickBody: the ray needs a finite origin and a finite, non-zero direction");
    const glm::dvec3 d = glm::normalize(direction);
    std::optional<BodyPickHit> nearest;
    double nearestT = std::numeric_limits<double>::infinity();
    for (uint32_t b = 0; b < model.bodyCount() && b < states.size(); ++b) {
        // The ray in the shape's frame: world = c + R_body (p_shape + R_shape v).
        const glm::dvec3 c(glm::vec3(states[b].position));
        const glm::dquat body = toQuat(states[b].rotation);
        const gpu::Collider& shape = model.shapes[b];
        const glm::dquat shapeRotation = toQuat(shape.rotation);
        const glm::dvec3 shapePosition(glm::vec3(shape.position));
        const glm::dquat toShape = glm::inverse(body * shapeRotation);
        const glm::dvec3 o = glm::inverse(shapeRotation) * (glm::inverse(body) * (origin - c) - shapePosition);
        const glm::dvec3 dir = toShape * d;
        const RigidSurface& surface = model.surfaces[b];
        for (size_t k = 0; k + 2 < surface.triangles.size(); k += 3) {
            const std::optional<double> t =
                crossTriangle(o, dir, glm::dvec3(surface.positions[surface.triangles[k]]),
                              glm::dvec3(surface.positions[surface.triangles[k + 1]]),
                              glm::dvec3(surface.positions[surface.triangles[k + 2]]));
            if (!t || *t >= nearestT) continue;
            nearestT = *t;
            const glm::dvec3 point = origin + *t * d;
            nearest = BodyPickHit{b, static_cast<float>(*t), glm::vec3(point),
                                  glm::vec3(glm::inverse(body) * (point - c))};
        }
    }
    return nearest;
}

}  // namespace vksim
