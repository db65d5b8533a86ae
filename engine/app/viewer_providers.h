#pragma once
// Connects the overlay's simulation panels and the mouse to the World
// the viewer runs: the convergence plots (residuals and energies), Ctrl + left
// drag of particles, and the sliders of constraint families (PBD and PD),
// mass-spring cloths (integrator, iterations, stiffnesses, bending model,
// drag, locking remedies) and colliders (friction, restitution, position,
// rotation, size). Every call goes through
// viewer.simulation(), because a reset or a scene change replaces it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ui/overlay_data.h"

namespace vksim {

class Viewer;

class ViewerProviders : public PickController {
public:
    explicit ViewerProviders(Viewer& viewer) : viewer_(viewer) {}

    // What Viewer::setProviders takes; valid while this object lives.
    OverlayProviders providers();

    bool beginPick(const Ray& ray) override;
    void dragTo(const Ray& ray) override;
    void release() override;

private:
    std::vector<LiveParameter> parameters();

    Viewer& viewer_;
    std::optional<uint32_t> particle_;
    std::optional<BodyDrag> body_;  // the grabbed body and its point (the target is set per frame)
    float depth_ = 0.0f;        // distance along the pick ray to the picked point: the drag plane
    glm::vec3 grabOffset_{0.0f};  // picked point minus the ray's point at depth_
};

}  // namespace vksim
