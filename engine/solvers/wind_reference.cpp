#include "solvers/wind_reference.h"

#include "geometry/shared_math.h"

namespace vksim {

std::vector<glm::dvec3> windAccelerationsReference(const SharedModel& model, std::span<const glm::vec4> x,
                                                   std::span<const glm::vec4> v, std::span<const uint32_t> triangles,
                                                   const AirSettings& air, double t) {
    const size_t n = model.particleCount();
    auto d3 = [](const glm::vec4& value) { return glm::dvec3(value.x, value.y, value.z); };
    std::vector<glm::dvec2> aero(n, glm::dvec2(0.0));
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            aero[i] = glm::dvec2(object.aero.drag, object.aero.lift);
    const auto feelsWind = [&](size_t i) { return aero[i].x > 0.0 || aero[i].y > 0.0; };
    std::vector<glm::dvec3> u(n, glm::dvec3(0.0));
    for (size_t i = 0; i < n; ++i)
        if (feelsWind(i))
            u[i] = ref::windAirVelocity(d3(x[i]), t, glm::dvec3(air.wind), air.gusts.strength,
                                        air.gusts.scale, air.gusts.period, air.gusts.seed);
    std::vector<glm::dvec3> forces(n, glm::dvec3(0.0));
    for (size_t k = 0; 3 * k + 2 < triangles.size(); ++k) {
        const uint32_t a = triangles[3 * k], b = triangles[3 * k + 1], c = triangles[3 * k + 2];
        if (!feelsWind(a) || a == b || b == c || a == c) continue;  // a dropped triangle has no area
        const glm::dvec3 normal = glm::cross(d3(x[b]) - d3(x[a]), d3(x[c]) - d3(x[a]));
        const glm::dvec3 air3 = (u[a] + u[b] + u[c]) / 3.0;
        const glm::dvec3 cloth = (d3(v[a]) + d3(v[b]) + d3(v[c])) / 3.0;
        const glm::dvec3 force = ref::windTriangleForce(normal, air3 - cloth, air.density, aero[a].x, aero[a].y);
        for (uint32_t corner : {a, b, c}) forces[corner] += force;
    }
    std::vector<glm::dvec3> accelerations(n, glm::dvec3(0.0));
    for (size_t i = 0; i < n; ++i)
        if (x[i].w > 0.0f && feelsWind(i)) accelerations[i] = double(x[i].w) * forces[i] / 3.0;
    return accelerations;
}

}  // namespace vksim
