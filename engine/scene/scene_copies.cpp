#include "scene/scene_copies.h"

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "scene/scene_loader.h"

namespace vksim {

void refuseBatch(const std::filesystem::path& source, const std::string& problem) {
    throw SceneError(fmt::format("{}: batch: {}", clipInput(source.string()), problem));
}

void checkBatchCount(uint32_t count, const std::filesystem::path& source) {
    if (count < 1 || count > kMaxBatchCopies)
        refuseBatch(source, fmt::format("count {}: expected 1 to {} copies", count, kMaxBatchCopies));
}

// The first copy's settings, colliders and camera, and no objects yet.
SceneBatch emptyBatch(const Scene& base, uint32_t count) {
    SceneBatch batch;
    batch.count = count;
    for (const ClothObject& cloth : base.cloths) batch.objectNames.push_back(cloth.name);
    for (const SolidObject& solid : base.solids) batch.objectNames.push_back(solid.name);
    batch.scene = base;
    batch.scene.name = fmt::format("{} (batch of {})", base.name, count);
    batch.scene.cloths.clear();
    batch.scene.solids.clear();
    batch.scene.bodies.clear();
    return batch;
}

void appendCopy(SceneBatch& batch, Scene one, uint32_t copy) {
    for (ClothObject& cloth : one.cloths) {
        cloth.name = batchObjectName(cloth.name, copy);
        cloth.batchCopy = copy;
        // Attached to its copy's body, which the batch lists after the
        // earlier copies' bodies.
        for (ClothAttachment& attachment : cloth.attachments)
            if (attachment.target == AttachmentTarget::Body) {
                attachment.name = batchObjectName(attachment.name, copy);
                attachment.index += copy * static_cast<uint32_t>(one.bodies.size());
            }
        batch.scene.cloths.push_back(std::move(cloth));
    }
    for (SolidObject& solid : one.solids) {
        solid.name = batchObjectName(solid.name, copy);
        solid.batchCopy = copy;
        batch.scene.solids.push_back(std::move(solid));
    }
    for (BodyDesc& body : one.bodies) {
        body.name = batchObjectName(body.name, copy);
        body.batchCopy = copy;
        batch.scene.bodies.push_back(std::move(body));
    }
}

SceneBatch replicateScene(const Scene& scene, uint32_t count) {
    checkBatchCount(count, scene.path);
    SceneBatch batch = emptyBatch(scene, count);
    for (uint32_t copy = 0; copy < count; ++copy) appendCopy(batch, scene, copy);
    return batch;
}

std::string batchObjectName(std::string_view name, uint32_t copy) { return fmt::format("{}#{}", name, copy); }

}  // namespace vksim
