#include "model/shared_model.h"

#include <stdexcept>

#include <fmt/format.h>

namespace vksim {

glm::vec4 ownGravity(const ObjectRange& object) {
    if (!object.gravity) return glm::vec4(0.0f);
    // As Stepper::particlePush rounds 2 |g| before it multiplies by h.
    return glm::vec4(*object.gravity, 2.0f * glm::length(*object.gravity));
}

std::vector<glm::vec4> particleGravities(const SharedModel& model) {
    size_t own = 0;
    for (const ObjectRange& object : model.objects) own += object.gravity.has_value() ? 1 : 0;
    if (own == 0) return {};
    if (own != model.objects.size())
        throw std::invalid_argument(fmt::format("{} of {} objects have their own gravity: all or none must",
                                                own, model.objects.size()));
    std::vector<glm::vec4> gravities(model.particleCount());
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            gravities.at(i) = ownGravity(object);
    return gravities;
}

std::vector<uint32_t> objectSurface(const ObjectRange& object, std::span<const uint32_t> triangles) {
    std::vector<uint32_t> local;
    local.reserve(3 * size_t(object.triangleCount));
    for (uint32_t t = object.firstTriangle; t < object.firstTriangle + object.triangleCount; ++t) {
        const uint32_t* corners = &triangles[3 * size_t(t)];
        if (corners[0] == corners[1] && corners[1] == corners[2]) continue;  // dropped by tearing
        for (uint32_t c = 0; c < 3; ++c) {
            if (corners[c] < object.firstParticle || corners[c] >= object.firstParticle + object.particleCount)
                throw std::logic_error(fmt::format("object '{}': a triangle uses particle {} outside its range",
                                                   object.name, corners[c]));
            local.push_back(corners[c] - object.firstParticle);
        }
    }
    return local;
}

}  // namespace vksim
