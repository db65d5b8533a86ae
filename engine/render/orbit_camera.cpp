#include "render/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace vksim {
namespace {

constexpr float kDegreesPerPixel = 0.3f;
constexpr float kZoomPerStep = 0.9f;  // distance factor per wheel notch
constexpr float kMinDistance = 0.05f;
constexpr float kMaxDistance = 500.0f;
// Just short of straight up/down, where the view's up vector would be undefined.
constexpr float kMaxPitchDegrees = 89.0f;
constexpr float kNear = 0.02f;
constexpr float kFar = 500.0f;
const glm::vec3 kWorldUp(0.0f, 1.0f, 0.0f);

}  // namespace

OrbitCamera::OrbitCamera(const CameraDesc& home) : home_(home), current_(home) {}

void OrbitCamera::apply(const CameraInput& input, float viewportHeight) {
    if (input.reset) reset();
    // Dragging right turns the scene right (the camera moves left around it);
    // dragging down tilts the camera up over the target.
    current_.yawDegrees -= input.rotatePixels.x * kDegreesPerPixel;
    current_.pitchDegrees = std::clamp(current_.pitchDegrees + input.rotatePixels.y * kDegreesPerPixel,
                                       -kMaxPitchDegrees, kMaxPitchDegrees);
    current_.distance =
        std::clamp(current_.distance * std::pow(kZoomPerStep, input.zoomSteps), kMinDistance, kMaxDistance);

    if (input.panPixels != glm::vec2(0.0f) && viewportHeight > 0.0f) {
        // World size of one pixel at the target's depth, so the target follows the cursor.
        const float metresPerPixel =
            2.0f * current_.distance * std::tan(glm::radians(current_.fovDegrees) * 0.5f) / viewportHeight;
        const glm::vec3 forward = glm::normalize(current_.target - eye());
        const glm::vec3 right = glm::normalize(glm::cross(forward, kWorldUp));
        const glm::vec3 up = glm::cross(right, forward);
        current_.target += (-input.panPixels.x * right + input.panPixels.y * up) * metresPerPixel;
    }
}

glm::vec3 OrbitCamera::eye() const {
    const float yaw = glm::radians(current_.yawDegrees);
    const float pitch = glm::radians(current_.pitchDegrees);
    const glm::vec3 offset(std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw));
    return current_.target + current_.distance * offset;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), current_.target, kWorldUp); }

glm::mat4 OrbitCamera::projection(float aspect) const {
    glm::mat4 projection = glm::perspective(glm::radians(current_.fovDegrees), aspect, kNear, kFar);
    projection[1][1] *= -1.0f;  // GL-style clip space has Y up; Vulkan's points down
    return projection;
}

void OrbitCamera::frame(glm::vec3 lo, glm::vec3 hi) {
    const float radius = std::max(0.5f * glm::length(hi - lo), kMinDistance);
    current_.target = 0.5f * (lo + hi);
    // The sphere touches the view cone's sides: distance = r / sin(fov / 2),
    // with a little margin; the narrower of the two fields of view counts,
    // and the vertical one is it for landscape windows.
    current_.distance =
        std::clamp(1.1f * radius / std::sin(glm::radians(current_.fovDegrees) * 0.5f), kMinDistance, kMaxDistance);
}

void OrbitCamera::rayThrough(glm::vec2 pixel, VkExtent2D extent, glm::vec3& origin, glm::vec3& direction) const {
    const CameraView view = cameraView(extent);
    const glm::mat4 inverse = glm::inverse(view.viewProjection);
    const glm::vec2 ndc(2.0f * pixel.x / float(extent.width) - 1.0f, 2.0f * pixel.y / float(extent.height) - 1.0f);
    const glm::vec4 nearPoint = inverse * glm::vec4(ndc, 0.0f, 1.0f);
    const glm::vec4 farPoint = inverse * glm::vec4(ndc, 1.0f, 1.0f);
    origin = glm::vec3(nearPoint) / nearPoint.w;
    direction = glm::normalize(glm::vec3(farPoint) / farPoint.w - origin);
}

CameraView OrbitCamera::cameraView(VkExtent2D extent) const {
    const float aspect = extent.height > 0 ? float(extent.width) / float(extent.height) : 1.0f;
    return {projection(aspect) * view(), eye()};
}

}  // namespace vksim
