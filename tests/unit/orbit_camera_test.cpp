// The viewer camera's frame-the-scene (F) and picking rays: the framed box's
// bounding sphere fits the view, and the ray through a pixel goes through what
// the projection puts at that pixel.
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>
#include <gtest/gtest.h>

#include "render/orbit_camera.h"

namespace vksim {
namespace {

glm::vec2 projectToPixel(const CameraView& view, VkExtent2D extent, glm::vec3 p) {
    const glm::vec4 clip = view.viewProjection * glm::vec4(p, 1.0f);
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    return {(ndc.x * 0.5f + 0.5f) * float(extent.width), (ndc.y * 0.5f + 0.5f) * float(extent.height)};
}

TEST(OrbitCamera, FrameFitsTheBoundingSphere) {
    CameraDesc desc;
    desc.fovDegrees = 45.0f;
    OrbitCamera camera(desc);
    const glm::vec3 lo(-1.0f, 0.0f, -2.0f), hi(3.0f, 1.0f, 0.0f);
    camera.frame(lo, hi);
    const glm::vec3 centre = 0.5f * (lo + hi);
    EXPECT_NEAR(glm::length(camera.target() - centre), 0.0f, 1e-6f);
    const float radius = 0.5f * glm::length(hi - lo);
    const float distance = glm::length(camera.eye() - centre);
    // The sphere seen under half the field of view, with 10 % margin.
    EXPECT_NEAR(radius / distance, std::sin(glm::radians(22.5f)) / 1.1f, 1e-5f);
    // Every corner of the box projects inside a landscape view.
    const VkExtent2D extent{1280, 720};
    const CameraView view = camera.cameraView(extent);
    for (int corner = 0; corner < 8; ++corner) {
        const glm::vec3 p(corner & 1 ? hi.x : lo.x, corner & 2 ? hi.y : lo.y, corner & 4 ? hi.z : lo.z);
        const glm::vec2 pixel = projectToPixel(view, extent, p);
        EXPECT_GE(pixel.x, 0.0f);
        EXPECT_LE(pixel.x, float(extent.width));
        EXPECT_GE(pixel.y, 0.0f);
        EXPECT_LE(pixel.y, float(extent.height));
    }
}

TEST(OrbitCamera, RayThroughAPixelHitsWhatProjectsThere) {
    OrbitCamera camera(CameraDesc{});
    const VkExtent2D extent{800, 600};
    const CameraView view = camera.cameraView(extent);
    const glm::vec3 point(0.3f, 0.8f, -0.2f);
    const glm::vec2 pixel = projectToPixel(view, extent, point);
    glm::vec3 origin, direction;
    camera.rayThrough(pixel, extent, origin, direction);
    EXPECT_NEAR(glm::length(direction), 1.0f, 1e-5f);
    // Distance from the point to the ray.
    const glm::vec3 toPoint = point - origin;
    const float off = glm::length(toPoint - glm::dot(toPoint, direction) * direction);
    EXPECT_LT(off, 1e-4f);
    EXPECT_GT(glm::dot(toPoint, direction), 0.0f);
}

}  // namespace
}  // namespace vksim
