#pragma once
// Which rigid body a ray hits (the viewer's mouse; World::pickBody): the
// nearest crossing of the ray with a body's surface (the triangles its
// contact points form, RigidModel::surfaces) at the body's current pose.
// On the CPU, in double, by the ray-triangle test the GPU pick uses
// (math/ray_triangle.glsl, shared math): a few hundred
// triangles a body, once per click.
#include <optional>
#include <span>

#include "shaders/rigid/rigid_types.h"
#include "solvers/rigid/rigid_model.h"
#include "state/interaction.h"

namespace vksim {

// `states` holds every body's current pose (RigidSolver::readStates). The
// ray's direction need not be unit length; its hits count from its origin
// forward. Throws std::invalid_argument for a non-finite ray or a zero direction.
std::optional<BodyPickHit> pickBody(const RigidModel& model, std::span<const gpu::RigidBodyState> states,
                                    const Ray& ray);

}  // namespace vksim
