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

// What the copies cannot share yet: bodies (they would touch), and
// settings under which one estimate over the whole system steers every
// particle's solve (the copies would move one another). Contacts are each
// copy's own: a copy is a contact group (ObjectRange::copy,
// contacts/contact_model.h).
void refuseUnbatchable(const Scene& scene, const std::filesystem::path& source) {
    if (!scene.bodies.empty()) refuseBatch(source, "/bodies: a batch cannot hold rigid bodies yet");
    // XPBD and vertex block descent solids batch: a tetrahedron's constraints
    // or a vertex's step read only its own copy's particles, so copies never
    // couple. Projective dynamics solids share one global system.
    bool pd = false, springs = false;
    for (const SolidObject& solid : scene.solids) pd = pd || solid.method == SolidMethod::Pd;
    for (const ClothObject& cloth : scene.cloths) {
        pd = pd || cloth.method == SolverMethod::Pd;
        springs = springs || cloth.method == SolverMethod::Springs;
    }
    const PdSettings& s = scene.solver.pd;
    if (pd && (s.relaxation == 0.0f || (s.chebyshev && s.spectralRadius == 0.0f)))
        refuseBatch(source, "/solver/pd: \"relaxation\" and, with \"chebyshev\", \"spectralRadius\" must be "
                            "numbers: \"auto\" estimates them from the whole system's spectrum, which would couple "
                            "the copies");
    if (springs && scene.solver.springs.integrator == SpringIntegrator::ImplicitEuler)
        refuseBatch(source, "/solver/springs/integrator: implicit Euler's Jacobi weights and line search are the "
                            "whole system's, which would couple the copies; use \"vbd\" or an explicit integrator");
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
    return batch;
}

void appendCopy(SceneBatch& batch, Scene one, uint32_t copy) {
    for (ClothObject& cloth : one.cloths) {
        cloth.name = batchObjectName(cloth.name, copy);
        cloth.batchCopy = copy;
        batch.scene.cloths.push_back(std::move(cloth));
    }
    for (SolidObject& solid : one.solids) {
        solid.name = batchObjectName(solid.name, copy);
        solid.batchCopy = copy;
        batch.scene.solids.push_back(std::move(solid));
    }
}

SceneBatch replicateScene(const Scene& scene, uint32_t count) {
    checkBatchCount(count, scene.path);
    refuseUnbatchable(scene, scene.path);
    SceneBatch batch = emptyBatch(scene, count);
    for (uint32_t copy = 0; copy < count; ++copy) appendCopy(batch, scene, copy);
    return batch;
}

std::string batchObjectName(std::string_view name, uint32_t copy) { return fmt::format("{}#{}", name, copy); }

}  // namespace vksim
