#include "solvers/model_builder.h"

#include <stdexcept>

#include <fmt/format.h>

#include "contacts/contact_model.h"
#include "contacts/starting_overlaps.h"
#include "geometry/triangle_mesh.h"
#include "io/quoted_input.h"
#include "geometry/shared_math.h"
#include "model/collider_builder.h"
#include "model/frame_attachments.h"
#include "model/object_builder.h"
#include "solvers/pbd/pbd_model_builder.h"
#include "solvers/pd/pd_model_builder.h"
#include "solvers/pd/pd_system.h"
#include "solvers/springs/spring_model_builder.h"
#include "solvers/springs/spring_system.h"
#include "solvers/vbd/vbd_model_builder.h"
#include "solvers/vbd/vbd_system.h"

namespace vksim {
namespace {

// Runs `append` for the object at `source` ("/objects/2") of `scene`; what it
// refuses is reported as "<scene file>: <source>: <problem>", the form of the
// loader's errors (a scene built in code has neither, and keeps the bare problem).
template <typename Append>
void forObject(const Scene& scene, const std::string& source, Append&& append) {
    try {
        append();
    } catch (const std::invalid_argument& error) {
        std::string where = scene.path.empty() ? std::string() : scene.path + ": ";
        if (!source.empty()) where += source + ": ";
        if (where.empty()) throw;
        throw std::invalid_argument(where + error.what());
    }
}

// The object just appended: its batch copy, and its own gravity where the
// copies vary it (scene/scene_batch.h; ObjectRange::copy and gravity).
template <typename Object>
void fromCopy(SimModel& model, const Object& object) {
    model.objects.back().gravity = object.gravity;
    model.objects.back().copy = object.batchCopy;
}

}  // namespace

SimModel buildModel(const Scene& scene, ModelDiagnostics* diagnostics) {
    if (scene.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument(fmt::format("scene '{}': {} colliders, at most {} are supported",
                                                clipInput(scene.name), scene.colliders.size(), gpu::kMaxColliders));
    SimModel model;
    ModelDiagnostics found;
    const auto& cloths = scene.cloths;
    appendPbdMaterials(model.pbd, cloths);
    // Each solver's particles, one range after another: PBD, projective
    // dynamics, mass-spring, vertex block descent.
    model.pbd.firstParticle = model.particleCount();
    for (uint32_t object = 0; object < cloths.size(); ++object)
        if (cloths[object].method == SolverMethod::Pbd)
            forObject(scene, cloths[object].source,
                      [&] {
                          appendPbdCloth(model, model.pbd, cloths[object], object, found);
                          fromCopy(model, cloths[object]);
                      });
    // The XPBD solids after the PBD cloths (docs/physics.md §16, "XPBD for solids").
    for (uint32_t object = 0; object < scene.solids.size(); ++object)
        if (scene.solids[object].method == SolidMethod::Xpbd)
            forObject(scene, scene.solids[object].source,
                      [&] {
                          appendXpbdSolid(model, model.pbd, scene.solids[object], object);
                          fromCopy(model, scene.solids[object]);
                      });
    model.pbd.particleCount = model.particleCount() - model.pbd.firstParticle;

    model.pd.firstParticle = model.particleCount();
    for (uint32_t object = 0; object < cloths.size(); ++object)
        if (cloths[object].method == SolverMethod::Pd)
            forObject(scene, cloths[object].source,
                      [&] {
                          appendPdCloth(model, model.pd, cloths[object], object, found);
                          fromCopy(model, cloths[object]);
                      });
    for (uint32_t object = 0; object < scene.solids.size(); ++object)
        if (scene.solids[object].method == SolidMethod::Pd)
            forObject(scene, scene.solids[object].source,
                      [&] {
                          appendPdSolid(model, model.pd, scene.solids[object], object);
                          fromCopy(model, scene.solids[object]);
                      });
    model.pd.particleCount = model.particleCount() - model.pd.firstParticle;
    if (!model.pd.empty()) buildPdSystem(model.pd, model.positions);

    model.springs.firstParticle = model.particleCount();
    for (uint32_t object = 0; object < cloths.size(); ++object)
        if (cloths[object].method == SolverMethod::Springs)
            forObject(scene, cloths[object].source,
                      [&] {
                          appendSpringCloth(model, model.springs, cloths[object], object, found);
                          fromCopy(model, cloths[object]);
                      });
    model.springs.particleCount = model.particleCount() - model.springs.firstParticle;
    if (!model.springs.empty()) buildSpringSystem(model.springs);

    model.vbd.firstParticle = model.particleCount();
    for (uint32_t object = 0; object < scene.solids.size(); ++object)
        if (scene.solids[object].method == SolidMethod::Vbd)
            forObject(scene, scene.solids[object].source,
                      [&] {
                          appendVbdSolid(model, model.vbd, scene.solids[object], object);
                          fromCopy(model, scene.solids[object]);
                      });
    model.vbd.particleCount = model.particleCount() - model.vbd.firstParticle;
    if (!model.vbd.empty()) buildVbdSystem(model.vbd);

    colourPbdConstraints(model.pbd, scene.solver.pbd.colouring);

    for (const ColliderDesc& desc : scene.colliders) model.colliders.push_back(toCollider(desc));
    attachMeshColliders(scene.colliders, model);
    buildKeyframeTracks(scene.colliders, model);
    // Its messages name the body's JSON path themselves.
    forObject(scene, "", [&] { model.rigid = buildRigidModel(scene.bodies); });
    attachMeshBodies(scene.bodies, model.rigid, model.meshSdfGrids);
    model.bodyCount = model.rigid.bodyCount();
    // The attachments' frames as the world starts: the scene's colliders,
    // then each body's shape at its initial pose (rigid/body_collider.glsl).
    std::vector<gpu::Collider> rows = model.colliders;
    for (uint32_t b = 0; b < model.rigid.bodyCount(); ++b) {
        const gpu::RigidBodyState& state = model.rigid.states[b];
        gpu::Collider row = model.rigid.shapes[b];
        const glm::dvec3 origin = glm::dvec3(glm::vec3(state.position)) +
                                  ref::quatRotate(glm::dvec4(state.rotation), glm::dvec3(glm::vec3(row.position)));
        row.position = glm::vec4(glm::vec3(origin), row.position.w);
        row.rotation = state.rotation;
        rows.push_back(row);
    }
    appendFrameAttachments(scene, rows, model);

    VertexTriangles adjacency = vertexTriangleAdjacency(model.triangles, model.particleCount());
    model.adjacencyOffsets = std::move(adjacency.offsets);
    model.adjacentTriangles = std::move(adjacency.triangles);

    if (diagnostics) {
        // Only where someone will hear of it: the contact model is built
        // once more here, and the GPU stage builds its own.
        const StartingOverlaps overlaps = findStartingOverlaps(buildContactModel(model, {}));
        found.startingOverlaps = overlaps.pairs;
        if (overlaps.pairs > 0) {
            found.overlapA = model.objects[overlaps.objectA].name;
            found.overlapB = model.objects[overlaps.objectB].name;
            found.overlapDistance = overlaps.distance;
            found.overlapContactDistance = overlaps.contactDistance;
        }
        *diagnostics = found;
    }
    return model;
}

}  // namespace vksim
