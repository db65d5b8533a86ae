#include "model/mesh_colliders.h"

#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/collider_bounds.h"
#include "geometry/signed_distance_grid.h"
#include "io/triangle_surface.h"

namespace vksim {

void attachMeshColliders(const std::vector<ColliderDesc>& descs, SimModel& model) {
    if (model.colliders.size() != descs.size())
        throw std::logic_error("attachMeshColliders: one collider per description expected");
    model.meshSdfGrids.clear();
    model.colliderSurfaces.assign(descs.size(), {});
    std::map<const SignedDistanceGrid*, uint32_t> offsets;
    for (std::size_t c = 0; c < descs.size(); ++c) {
        const ColliderDesc& desc = descs[c];
        if (desc.shape != ColliderShape::Mesh) continue;
        if (!desc.meshSdf || !desc.meshSurface)
            throw std::invalid_argument(fmt::format("collider '{}': mesh collider without its mesh", desc.name));
        auto [slot, added] = offsets.try_emplace(desc.meshSdf.get(), 0u);
        if (added) slot->second = appendGridToBuffer(*desc.meshSdf, model.meshSdfGrids);
        model.colliders[c].size.x = static_cast<float>(slot->second);

        ColliderSurface& surface = model.colliderSurfaces[c];
        for (const glm::dvec3& p : desc.meshSurface->positions)
            surface.positions.push_back(glm::vec3(double(desc.meshScale) * p));
        surface.triangles = desc.meshSurface->triangles;
    }
    setColliderBounds(model.colliders, model.meshSdfGrids);
}

void attachMeshBodies(const std::vector<BodyDesc>& bodies, SimModel& model) {
    if (model.rigid.bodyCount() != bodies.size())
        throw std::logic_error("attachMeshBodies: one body per description expected");
    std::map<const SignedDistanceGrid*, uint32_t> offsets;
    for (std::size_t b = 0; b < bodies.size(); ++b) {
        if (bodies[b].shape != BodyShape::Mesh) continue;
        if (!bodies[b].meshSdf)
            throw std::invalid_argument(fmt::format("body '{}': mesh body without its grid", bodies[b].name));
        auto [slot, added] = offsets.try_emplace(bodies[b].meshSdf.get(), 0u);
        if (added) slot->second = appendGridToBuffer(*bodies[b].meshSdf, model.meshSdfGrids);
        model.rigid.shapes[b].size.x = static_cast<float>(slot->second);
    }
    setColliderBounds(model.rigid.shapes, model.meshSdfGrids);
}

}  // namespace vksim
