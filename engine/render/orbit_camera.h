#pragma once
// A camera that circles a target point: yaw and pitch around it, distance
// from it, and a target that can be panned. Starts from, and resets to, the
// scene's CameraDesc. Matrices follow Vulkan conventions: clip Y points down
// and depth runs 0..1 (GLM_FORCE_DEPTH_ZERO_TO_ONE).
#include <glm/glm.hpp>

#include "render/window.h"
#include "scene/scene.h"

namespace vksim {

// What the renderer needs of a camera for one frame.
struct CameraView {
    glm::mat4 viewProjection{1.0f};
    glm::vec3 eye{0.0f};
};

class OrbitCamera {
public:
    explicit OrbitCamera(const CameraDesc& home);

    // Applies one frame of mouse/keyboard input; viewportHeight scales pixel
    // drags so that panning moves the target with the cursor.
    void apply(const CameraInput& input, float viewportHeight);
    void reset() { current_ = home_; }
    // Looks at the centre of the box [lo, hi] from where the box's bounding
    // sphere just fills the view (keeps yaw and pitch).
    void frame(glm::vec3 lo, glm::vec3 hi);
    // The world-space ray through pixel `pixel` (top-left origin) of a view of `extent` pixels.
    void rayThrough(glm::vec2 pixel, VkExtent2D extent, glm::vec3& origin, glm::vec3& direction) const;

    glm::vec3 eye() const;
    glm::vec3 target() const { return current_.target; }
    glm::mat4 view() const;
    glm::mat4 projection(float aspect) const;
    // View and projection for a target of `extent` pixels.
    CameraView cameraView(VkExtent2D extent) const;

private:
    CameraDesc home_;
    CameraDesc current_;
};

}  // namespace vksim
