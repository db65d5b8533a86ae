#include "solvers/wind_reference.h"

#include "geometry/shared_math.h"

namespace vksim {

std::vector<glm::dvec3> windAccelerationsReference(const SharedModel& model, std::span<const glm::vec4> x,
                                                   std::span<const glm::vec4> v, const AirSettings& air, double t) {
    const size_t n = model.particleCount();
    auto d3 = [](const glm::vec4& value) { return glm::dvec3(value.x, value.y, value.z); };
    std::vector<glm::dvec2> aero(n, glm::dvec2(0.0));
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            aero[i] = glm::dvec2(object.aero.drag, object.aero.lift);
    std::vector<glm::dvec3> u(n, glm::dvec3(0.0));
    for (size_t i = 0; i < n; ++i)
        if (aero[i].x > 0.0 || aero[i].y > 0.0)
            u[i] = ref::windAirVelocity(d3(x[i]), t, glm::dvec3(air.wind), air.gusts.strength,
                                        air.gusts.scale, air.gusts.period, air.gusts.seed);
    std::vector<glm::dvec3> accelerations(n, glm::dvec3(0.0));
    for (size_t i = 0; i < n; ++i) {
        const double inverseMass = x[i].w;
        if (inverseMass <= 0.0 || (aero[i].x <= 0.0 && aero[i].y <= 0.0)) continue;
        glm::dvec3 force(0.0);
        for (uint32_t k = model.adjacencyOffsets[i]; k < model.adjacencyOffsets[i + 1]; ++k) {
            const uint32_t tri = model.adjacentTriangles[k];
            const uint32_t a = model.triangles[3 * tri], b = model.triangles[3 * tri + 1];
            const uint32_t c = model.triangles[3 * tri + 2];
            const glm::dvec3 normal = glm::cross(d3(x[b]) - d3(x[a]), d3(x[c]) - d3(x[a]));
            const glm::dvec3 air3 = (u[a] + u[b] + u[c]) / 3.0;
            const glm::dvec3 cloth = (d3(v[a]) + d3(v[b]) + d3(v[c])) / 3.0;
            force += ref::windTriangleForce(normal, air3 - cloth, air.density, aero[i].x, aero[i].y);
        }
        accelerations[i] = inverseMass * force / 3.0;
    }
    return accelerations;
}

}  // namespace vksim
