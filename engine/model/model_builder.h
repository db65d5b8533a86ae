#pragma once
// Scene -> SimModel: particles, constraints (coloured and sorted by colour),
// materials, colliders and render topology, built once per topology. The GPU
// solver uploads the result; the CPU reference solver steps it in double.
#include <cstdint>

#include "model/sim_model.h"
#include "scene/scene.h"

namespace vksim {

// Each deformable object owns one ConstraintMaterial row per family, at
// materialIndex(object, family), so stiffness can be edited per object and
// family without touching the constraint arrays.
enum class ConstraintFamily : uint32_t { Stretch = 0, Bending = 1, Attachment = 2 };
inline constexpr uint32_t kFamiliesPerObject = 3;

// The family as the scene file names it ("stretch", "bending", "attachment").
constexpr const char* familyName(ConstraintFamily family) {
    switch (family) {
        case ConstraintFamily::Stretch: return "stretch";
        case ConstraintFamily::Bending: return "bending";
        case ConstraintFamily::Attachment: return "attachment";
    }
    return "?";
}

constexpr uint32_t materialIndex(uint32_t object, ConstraintFamily family) {
    return object * kFamiliesPerObject + static_cast<uint32_t>(family);
}

// A constraint family's GPU material row (PBD stiffness or XPBD compliance).
gpu::ConstraintMaterial toMaterial(const ConstraintParams& params);

// A collider's GPU description (rotation normalised). For a mesh collider
// size.x, the offset of its grid, is left 0: buildModel sets it.
gpu::Collider toCollider(const ColliderDesc& desc);

// What the builder left out, for the user to hear about.
struct ModelDiagnostics {
    uint32_t degenerateBendingEdges = 0;  // interior edges next to a (near) zero-area triangle: no bending there
    uint32_t nonManifoldEdges = 0;        // edges of 3+ triangles: no bending across them
};

// Cloth objects become particle grids (cloth_grid.h): mass spread evenly;
// pinned vertices get inverse mass 0, or keep their mass and are held by an
// attachment to their initial position when pinsAsAttachments. Stretch =
// structural + shear edges, bending = isometric bending across every interior
// edge; rest lengths and bending weights come from the initial positions as
// uploaded (float). Disabled families produce no constraints. Objects are
// appended to the global arrays in scene order (model.objects says where),
// PBD cloths first, then the projective dynamics objects (SimModel::pd):
// "method": "pd" cloths (springs, triangle strain, bending, attachments) and
// the tetrahedral solids (tet_mesh.h; strain, volume, attachments; masses
// lumped by volume; inverted or degenerate elements are errors naming the
// element). Last come the "method": "springs" cloths (SimModel::springs,
// spring_builder.h: springs, hinges and Bergou's quadratic bending, all
// built whatever the bending model; the system of spring_system.h);
// pinsAsAttachments is an error there. Every cloth keeps its material rows, so materialIndex() takes
// the cloth's index in the scene.
// Throws std::invalid_argument for what cannot be built (see the messages).
SimModel buildModel(const Scene& scene, ModelDiagnostics* diagnostics = nullptr);

}  // namespace vksim
