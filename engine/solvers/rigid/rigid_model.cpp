#include "solvers/rigid/rigid_model.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/collider_bounds.h"
#include "geometry/shared_math.h"
#include "geometry/signed_distance_grid.h"
#include "io/quoted_input.h"
#include "scene/body_mass.h"

namespace vksim {
namespace {

glm::vec4 column(const glm::dmat3& m, int c) { return glm::vec4(glm::vec3(m[c]), 0.0f); }

}  // namespace

RigidModel buildRigidModel(const std::vector<BodyDesc>& descs) {
    RigidModel model;
    for (const BodyDesc& desc : descs) {
        BodyMass mass;
        try {
            mass = bodyMass(desc);
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(fmt::format("{}: {}", desc.source, e.what()));
        }
        const BodySurface outline = bodyShapeSurface(desc);
        const glm::dmat3 inverseInertia = glm::inverse(mass.inertia);

        gpu::RigidBody body{};
        body.inertia0 = column(mass.inertia, 0);
        body.inertia1 = column(mass.inertia, 1);
        body.inertia2 = column(mass.inertia, 2);
        body.inverseInertia0 = column(inverseInertia, 0);
        body.inverseInertia1 = column(inverseInertia, 1);
        body.inverseInertia2 = column(inverseInertia, 2);
        body.inverseMass = static_cast<float>(1.0 / mass.mass);
        body.firstPoint = static_cast<uint32_t>(model.points.size());
        body.pointCount = static_cast<uint32_t>(outline.positions.size());
        body.friction = desc.friction;
        body.staticFriction = desc.staticFriction.value_or(desc.friction);
        body.restitution = desc.restitution;

        // Re-centred: the body frame's origin is the centre of mass, so the
        // shape's vertices shift by -centre and the state's position is where
        // the scene's rotation and position put the centre.
        RigidSurface surface;
        double radius = 0.0;
        for (const glm::dvec3& p : outline.positions) {
            const glm::vec3 r(p - mass.centre);
            model.points.emplace_back(r, 0.0f);
            surface.positions.emplace_back(p);
            radius = std::max(radius, glm::length(p - mass.centre));
        }
        surface.triangles = outline.triangles;
        // The farthest point of a polyhedron from any centre is a vertex, and
        // so it is for the primitives: box corners, and sphere and capsule
        // vertices lie on the true surface, whose farthest points (any
        // point of a sphere, a capsule's poles) are vertices too.
        body.boundingRadius = static_cast<float>(radius);

        gpu::Collider shape{};
        shape.rotation = glm::vec4(0.0f, 0.0f, 0.0f, 1.0f);
        shape.friction = desc.friction;
        shape.restitution = desc.restitution;
        switch (desc.shape) {
            case BodyShape::Box:
                shape.type = gpu::kColliderBox;
                shape.size = glm::vec4(desc.halfExtents, 0.0f);
                break;
            case BodyShape::Sphere:
                shape.type = gpu::kColliderSphere;
                shape.size = glm::vec4(desc.radius, 0.0f, 0.0f, 0.0f);
                break;
            case BodyShape::Capsule:
                shape.type = gpu::kColliderCapsule;
                shape.size = glm::vec4(desc.radius, desc.halfLength, 0.0f, 0.0f);
                break;
            case BodyShape::Mesh:
                shape.type = gpu::kColliderMesh;
                shape.size = glm::vec4(0.0f, desc.meshScale, 0.0f, 0.0f);
                break;
        }
        shape.size.w = body.staticFriction;  // mu_s (gpu::Collider::size)
        shape.position = glm::vec4(glm::vec3(-mass.centre), -1.0f);  // w: unbounded until attachMeshBodies sets the bound
        // w: the body's batch copy, whose particles alone meet its collider (rigid/body_collider.glsl).
        shape.angularVelocity = glm::vec4(0.0f, 0.0f, 0.0f, static_cast<float>(desc.batchCopy));

        const glm::dvec4 q = glm::normalize(glm::dvec4(desc.rotation));
        gpu::RigidBodyState state{};
        state.position = glm::vec4(glm::vec3(glm::dvec3(desc.position) + ref::quatRotate(q, mass.centre)), 0.0f);
        state.rotation = glm::vec4(q);
        state.linearVelocity = glm::vec4(desc.velocity, 0.0f);
        state.angularVelocity = glm::vec4(desc.angularVelocity, 0.0f);

        model.bodies.push_back(body);
        model.states.push_back(state);
        model.surfaces.push_back(std::move(surface));
        model.shapes.push_back(shape);
        model.names.push_back(desc.name);
        model.colours.push_back(desc.color);
        model.masses.push_back(mass.mass);
        model.inertias.push_back(mass.inertia);
    }
    std::vector<uint32_t> copies;
    for (const BodyDesc& desc : descs) {
        copies.push_back(desc.batchCopy);
        model.copyCount = std::max(model.copyCount, desc.batchCopy + 1);
    }
    scheduleCopiesBodyPairs(copies, model.pairs, model.roundStarts);
    return model;
}

void scheduleCopiesBodyPairs(const std::vector<uint32_t>& copyOfBody, std::vector<glm::uvec2>& pairs,
                             std::vector<uint32_t>& roundStarts) {
    // Each copy's rounds, as a world of its bodies alone has them.
    std::vector<std::vector<std::vector<glm::uvec2>>> rounds;  // [round][copy] pairs
    std::set<uint32_t> scheduled;
    for (size_t first = 0; first < copyOfBody.size();) {
        size_t end = first + 1;
        while (end < copyOfBody.size() && copyOfBody[end] == copyOfBody[first]) ++end;
        if (!scheduled.insert(copyOfBody[first]).second)
            throw std::logic_error("scheduleCopiesBodyPairs: a copy's bodies must be listed together");
        std::vector<glm::uvec2> own;
        std::vector<uint32_t> ownStarts;
        scheduleBodyPairs(static_cast<uint32_t>(end - first), own, ownStarts);
        const glm::uvec2 offset(static_cast<uint32_t>(first));
        for (size_t r = 0; r + 1 < ownStarts.size(); ++r) {
            if (rounds.size() <= r) rounds.emplace_back();
            rounds[r].emplace_back();
            for (uint32_t k = ownStarts[r]; k < ownStarts[r + 1]; ++k) rounds[r].back().push_back(own[k] + offset);
        }
        first = end;
    }
    pairs.clear();
    roundStarts.clear();
    if (rounds.empty()) return;
    for (const auto& round : rounds) {
        roundStarts.push_back(static_cast<uint32_t>(pairs.size()));
        for (const auto& run : round) pairs.insert(pairs.end(), run.begin(), run.end());
    }
    roundStarts.push_back(static_cast<uint32_t>(pairs.size()));
}

void scheduleBodyPairs(uint32_t count, std::vector<glm::uvec2>& pairs, std::vector<uint32_t>& roundStarts) {
    pairs.clear();
    roundStarts.clear();
    if (count < 2) return;
    // Circle method: seat n (even) players at a table with player n-1 fixed;
    // each round pairs seat k with seat n-1-k, then the others rotate by one.
    // A seat numbered `count` (odd counts) is a bye.
    const uint32_t n = count + (count % 2);
    std::vector<uint32_t> seats(n);
    for (uint32_t i = 0; i < n; ++i) seats[i] = i;
    for (uint32_t round = 0; round + 1 < n; ++round) {
        roundStarts.push_back(static_cast<uint32_t>(pairs.size()));
        for (uint32_t k = 0; k < n / 2; ++k) {
            const uint32_t a = seats[k], b = seats[n - 1 - k];
            if (a < count && b < count) pairs.emplace_back(std::min(a, b), std::max(a, b));
        }
        std::rotate(seats.begin(), seats.begin() + (n - 2), seats.begin() + (n - 1));
    }
    roundStarts.push_back(static_cast<uint32_t>(pairs.size()));
}

void attachMeshBodies(const std::vector<BodyDesc>& bodies, RigidModel& rigid, std::vector<float>& meshSdfGrids) {
    if (rigid.bodyCount() != bodies.size())
        throw std::logic_error("attachMeshBodies: one body per description expected");
    std::map<const SignedDistanceGrid*, uint32_t> offsets;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        if (bodies[b].shape != BodyShape::Mesh) continue;
        if (!bodies[b].meshSdf)
            throw std::invalid_argument(
                fmt::format("body '{}': mesh body without its grid", clipInput(bodies[b].name)));
        auto [slot, added] = offsets.try_emplace(bodies[b].meshSdf.get(), 0u);
        if (added) slot->second = appendGridToBuffer(*bodies[b].meshSdf, meshSdfGrids);
        rigid.shapes[b].size.x = static_cast<float>(slot->second);
    }
    setColliderBounds(rigid.shapes, meshSdfGrids);
}


}  // namespace vksim
