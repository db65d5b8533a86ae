#include "contact_measures.h"

#include <algorithm>
#include <limits>

#include <iostream>

#include <fmt/format.h>

#include "geometry/triangle_intersection.h"

namespace vksim::test {

ClothObject contactCloth(const std::string& name, uint32_t side, float spacing, glm::vec3 position, float thickness) {
    ClothObject cloth;
    cloth.name = name;
    cloth.grid.resolution = {side, side};
    cloth.grid.size = glm::vec2(spacing * float(side - 1));
    cloth.position = position;
    cloth.mass = 0.05f;
    cloth.contacts = {.enabled = true, .thickness = thickness, .self = false, .friction = 0.3f};
    return cloth;
}

SolverSettings contactSettings(ContactSolve solve) {
    SolverSettings settings;
    settings.substeps = 4;
    settings.pbd.iterations = 8;
    settings.pbd.path = PbdPath::PerColour;
    settings.contactSolve = solve;
    return settings;
}

double closestAcrossObjects(const SimModel& model, const std::vector<glm::vec4>& x) {
    double closest = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < model.objects.size(); ++a)
        for (size_t b = a + 1; b < model.objects.size(); ++b) {
            const ObjectRange &oa = model.objects[a], &ob = model.objects[b];
            for (uint32_t i = oa.firstParticle; i < oa.firstParticle + oa.particleCount; ++i)
                for (uint32_t j = ob.firstParticle; j < ob.firstParticle + ob.particleCount; ++j)
                    closest = std::min(closest, glm::length(glm::dvec3(glm::vec3(x[i])) - glm::dvec3(glm::vec3(x[j]))));
        }
    return closest;
}

uint64_t intersectingTriangles(const SimModel& model, const std::vector<glm::vec4>& x) {
    std::vector<glm::dvec3> p;
    for (const glm::vec4& v : x) p.emplace_back(glm::vec3(v));
    std::vector<glm::uvec3> triangles;
    std::vector<uint32_t> objects;
    for (uint32_t o = 0; o < model.objects.size(); ++o)
        for (uint32_t t = 0; t < model.objects[o].triangleCount; ++t) {
            const uint32_t first = 3 * (model.objects[o].firstTriangle + t);
            triangles.emplace_back(model.triangles[first], model.triangles[first + 1], model.triangles[first + 2]);
            objects.push_back(o);
        }
    return countSurfaceIntersections(p, triangles, objects).intersecting;
}

double followReference(GpuRun& gpu, ReferenceSimulation& cpu, const SolverSettings& settings, uint32_t frames,
                       const std::string& label) {
    double worst = 0.0;
    for (uint32_t frame = 1; frame <= frames; ++frame) {
        gpu.frames(1);
        cpu.step(settings);
        const double most = largestDistance(gpu.positions(), cpu.positions());
        if (frame % 5 == 0)
            std::cout << fmt::format("{}, frame {}: largest difference {:.3e} m\n", label, frame, most);
        worst = std::max(worst, most);
    }
    return worst;
}

Momenta momenta(const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v) {
    Momenta m;
    for (size_t i = 0; i < x.size(); ++i) {
        if (x[i].w == 0.0f) continue;
        const double mass = 1.0 / double(x[i].w);
        const glm::dvec3 p = mass * glm::dvec3(glm::vec3(v[i]));
        m.linear += p;
        m.angular += glm::cross(glm::dvec3(glm::vec3(x[i])), p);
        m.kinetic += 0.5 * glm::dot(p, glm::dvec3(glm::vec3(v[i])));
    }
    return m;
}

}  // namespace vksim::test
