#include "model/frame_attachments.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "io/quoted_input.h"

namespace vksim {

void appendFrameAttachments(const Scene& scene, std::span<const gpu::Collider> rows, SharedModel& model) {
    const auto sceneColliders = static_cast<uint32_t>(scene.colliders.size());
    for (const ClothObject& cloth : scene.cloths) {
        if (cloth.attachments.empty()) continue;
        const auto object = std::find_if(model.objects.begin(), model.objects.end(),
                                         [&](const ObjectRange& o) { return o.name == cloth.name; });
        if (object == model.objects.end())
            throw std::logic_error(fmt::format("cloth '{}' is not in the model", clipInput(cloth.name)));
        for (const ClothAttachment& attachment : cloth.attachments) {
            const uint32_t row =
                attachment.target == AttachmentTarget::Body ? sceneColliders + attachment.index : attachment.index;
            if (row >= rows.size())
                throw std::logic_error(fmt::format("{}: collider row {} of {}", attachment.source, row, rows.size()));
            const gpu::Collider& frame = rows[row];
            const glm::dvec4 rotation = glm::normalize(glm::dvec4(frame.rotation));
            for (uint32_t vertex : attachment.vertices) {
                const uint32_t particle = object->firstParticle + vertex;
                const glm::dvec3 x(glm::vec3(model.positions[particle]));
                const glm::dvec3 local = ref::quatRotateInverse(rotation, x - glm::dvec3(glm::vec3(frame.position)));
                model.frameAttachments.push_back({glm::vec4(glm::vec3(local), attachment.maxDistance), particle, row,
                                                  attachment.stiffness, 0});
            }
        }
    }
    std::sort(model.frameAttachments.begin(), model.frameAttachments.end(),
              [](const gpu::FrameAttachment& a, const gpu::FrameAttachment& b) { return a.particle < b.particle; });
}

}  // namespace vksim
