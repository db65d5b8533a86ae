#include "diagnostics/body_pick.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "geometry/shared_math.h"

namespace vksim {

namespace {

bool finite(glm::dvec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

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
        const glm::dvec4 body(states[b].rotation), shapeRotation(model.shapes[b].rotation);
        const glm::dvec3 shapePosition(glm::vec3(model.shapes[b].position));
        const glm::dvec3 o =
            ref::quatRotateInverse(shapeRotation, ref::quatRotateInverse(body, origin - c) - shapePosition);
        const glm::dvec3 dir = ref::quatRotateInverse(shapeRotation, ref::quatRotateInverse(body, d));
        const RigidSurface& surface = model.surfaces[b];
        for (size_t k = 0; k + 2 < surface.triangles.size(); k += 3) {
            const double t = ref::rayTriangleHit(o, dir, glm::dvec3(surface.positions[surface.triangles[k]]),
                                                 glm::dvec3(surface.positions[surface.triangles[k + 1]]),
                                                 glm::dvec3(surface.positions[surface.triangles[k + 2]]));
            if (!(t > 0.0) || t >= nearestT) continue;
            nearestT = t;
            const glm::dvec3 point = origin + t * d;
            nearest = BodyPickHit{b, static_cast<float>(t), glm::vec3(point),
                                  glm::vec3(ref::quatRotateInverse(body, point - c))};
        }
    }
    return nearest;
}

}  // namespace vksim
