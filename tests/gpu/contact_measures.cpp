#include "contact_measures.h"

#include <algorithm>
#include <limits>

#include <iostream>

#include <fmt/format.h>

#include "geometry/shared_math.h"
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

double closestSurfaces(const SimModel& model, const std::vector<glm::vec4>& x) {
    auto at = [&](uint32_t i) { return glm::dvec3(glm::vec3(x[i])); };
    auto cornerOf = [&](const ObjectRange& object, uint32_t t, uint32_t c) {
        return model.triangles[3 * (object.firstTriangle + t) + c];
    };
    double closest = std::numeric_limits<double>::infinity();
    for (size_t a = 0; a < model.objects.size(); ++a)
        for (size_t b = 0; b < model.objects.size(); ++b) {
            if (a == b) continue;
            const ObjectRange &oa = model.objects[a], &ob = model.objects[b];
            for (uint32_t ta = 0; ta < oa.triangleCount; ++ta)
                for (uint32_t tb = 0; tb < ob.triangleCount; ++tb) {
                    // a's corners against b's triangle; a's edges against b's (each pair seen twice).
                    const glm::dvec3 q0 = at(cornerOf(ob, tb, 0)), q1 = at(cornerOf(ob, tb, 1)),
                                     q2 = at(cornerOf(ob, tb, 2));
                    for (uint32_t c = 0; c < 3; ++c) {
                        const glm::dvec3 p = at(cornerOf(oa, ta, c));
                        const glm::dvec3 weights = ref::contactClosestOnTriangle(p, q0, q1, q2);
                        closest = std::min(closest, glm::length(ref::contactTriangleOffset(weights, p, q0, q1, q2)));
                    }
                    for (uint32_t ea = 0; ea < 3; ++ea)
                        for (uint32_t eb = 0; eb < 3; ++eb) {
                            const glm::dvec3 a0 = at(cornerOf(oa, ta, ea)), a1 = at(cornerOf(oa, ta, (ea + 1) % 3));
                            const glm::dvec3 b0 = at(cornerOf(ob, tb, eb)), b1 = at(cornerOf(ob, tb, (eb + 1) % 3));
                            const glm::dvec2 st = ref::contactClosestOnSegments(a0, a1, b0, b1);
                            const glm::dvec4 w(1.0 - st.x, st.x, 1.0 - st.y, st.y);
                            closest = std::min(closest, glm::length(ref::contactEdgeOffset(w, a0, a1, b0, b1)));
                        }
                }
        }
    return closest;
}

double followReference(GpuRun& gpu, ReferenceSimulation& cpu, const SolverSettings& settings, uint32_t frames,
                       const std::string& label, uint32_t framesBefore) {
    double worst = 0.0;
    for (uint32_t frame = framesBefore + 1; frame <= framesBefore + frames; ++frame) {
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
