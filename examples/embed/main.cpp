// vksim_embed: vksim inside an application's own renderer. The program owns
// its Vulkan device (app_device.h), hands it to vksim
// (VulkanContext(const AdoptedDevice&)), steps a vksim::World in its own
// frame loop (frame_loop.h) and draws the cloth with its own pipeline
// (cloth_pass.h) into an offscreen image (frame_image.h), straight from
// World::positions() and World::triangleIndices(). Prints one summary line:
// frames, covered pixels and the state-hash of the positions, which equals
// `vksim SCENE --headless --frames N --hash` for the same scene.
#include <cmath>
#include <cstring>
#include <iostream>
#include <span>
#include <vector>

#include <fmt/format.h>
#include <glm/gtc/matrix_transform.hpp>
#include <stb_image_write.h>

#include "app_device.h"
#include "cloth_pass.h"
#include "diagnostics/state_hash.h"
#include "frame_image.h"
#include "frame_loop.h"
#include "gpu_memory.h"
#include "options.h"
#include "scene_source.h"
#include "vk/context.h"
#include "world/world.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitValidationMessages = 3;  // as `vksim --validate`

// The scene's own camera (scene.camera), as an orbit around its target.
glm::mat4 viewProjection(const vksim::CameraDesc& camera, VkExtent2D extent) {
    const float yaw = glm::radians(camera.yawDegrees);
    const float pitch = glm::radians(camera.pitchDegrees);
    const glm::vec3 offset(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    const glm::mat4 view = glm::lookAt(camera.target + camera.distance * offset, camera.target, glm::vec3(0, 1, 0));
    glm::mat4 projection = glm::perspective(glm::radians(camera.fovDegrees),
                                            float(extent.width) / float(extent.height), 0.05f, 100.0f);
    projection[1][1] *= -1.0f;  // Vulkan's clip-space Y points down
    return projection * view;
}

uint64_t coveredPixels(const uint8_t* rgba, VkExtent2D extent) {
    uint64_t covered = 0;
    for (uint64_t i = 0; i < uint64_t{extent.width} * extent.height; ++i) covered += rgba[i * 4 + 3] != 0;
    return covered;
}

int run(const Options& options) {
    const vksim::Scene scene = loadSceneSource(options.scene);
    const VkExtent2D extent{options.width, options.height};
    AppDevice app(options.validate);
    std::string summary;
    {
        // vksim on the application's device: it creates only its command pool.
        const vksim::VulkanContext ctx(app.adopted());
        vksim::World world(ctx, scene, kFramesInFlight);
        // Nothing here shows per-pass GPU times: time only whole frames.
        world.setPassTimings(false);
        FrameImage image(app, extent);
        ClothPass pass(app.device(), FrameImage::kColorFormat, FrameImage::kDepthFormat);
        HostBuffer positions(app, VkDeviceSize{world.particleCount()} * sizeof(glm::vec4));
        const glm::vec3 color = scene.cloths.empty() ? glm::vec3(0.8f) : scene.cloths.front().color;

        stepFrames(app, world, options.frames, [&](VkCommandBuffer cmd) {
            // vksim's compute writes before this frame's reads: vertex and
            // index input for the draw, transfer for the positions read-back.
            vksim::World::recordReadBarrier(
                cmd,
                VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT | VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT |
                    VK_PIPELINE_STAGE_2_COPY_BIT,
                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_2_INDEX_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
            const VkBufferCopy region{0, 0, positions.size()};
            vkCmdCopyBuffer(cmd, world.positions().handle(), positions.handle(), 1, &region);
            image.recordBeginRendering(cmd);
            pass.record(cmd, world, viewProjection(scene.camera, extent), color, extent);
            image.recordEndRenderingAndCopy(cmd);
            recordTransferToHostBarrier(cmd);
        });

        const std::span<const glm::vec4> state(static_cast<const glm::vec4*>(positions.data()),
                                               world.particleCount());
        if (!stbi_write_png(options.image.c_str(), int(extent.width), int(extent.height), 4, image.pixels(),
                            int(extent.width) * 4))
            throw AppError("cannot write the image '" + options.image + "'");
        summary = fmt::format("vksim_embed: {} frames of '{}' ({} particles, {} triangles) on {}: "
                              "covered {} of {} pixels, state-hash: {}, image {}",
                              options.frames, scene.name, world.particleCount(), world.triangleCount(), app.name(),
                              coveredPixels(image.pixels(), extent), uint64_t{extent.width} * extent.height,
                              vksim::formatHash(vksim::hashPositions(state)), options.image);
    }
    std::cout << summary << "\n";
    if (app.validationMessages() > 0) {
        std::cerr << "vksim_embed: validation reported " << app.validationMessages() << " message(s)\n";
        return kExitValidationMessages;
    }
    return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parseOptions(argc, argv);
        if (options.help) {
            std::cout << usage();
            return kExitOk;
        }
        return run(options);
    } catch (const std::exception& e) {
        std::cerr << "vksim_embed: " << e.what() << "\n";
        return kExitFailure;
    }
}
