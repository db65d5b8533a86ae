#pragma once
// Position based dynamics' part of the model (docs/physics.md §1-3, §13):
// its particles' range, its constraint families sorted by colour, the
// materials they point at and the shape-matching groups. Built by
// pbd_model_builder.h; the PBD solver uploads it once, and its CPU reference
// (pbd_reference.h) steps it in double precision.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "model/graph_colouring.h"
#include "model/shared_model.h"
#include "scene/scene.h"
#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/elastic_types.h"
#include "shaders/shared/sim_types.h"

namespace vksim {

// Each cloth owns one ConstraintMaterial row per family, at
// materialIndex(cloth, family), so stiffness can be edited per object and
// family without touching the constraint arrays. Every cloth of the scene
// has its rows, whatever its solver, so the index is the cloth's in the scene.
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

struct PbdModel {
    // PBD steps particles [firstParticle, firstParticle + particleCount) of
    // the shared model: its objects come first.
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;

    // Topology (uploaded once), each family sorted by colour, its overflow group last.
    std::vector<gpu::ConstraintMaterial> materials;
    // Per cloth material row: the strain its stretch constraints tear at
    // (docs/physics.md §1, "Tearing"), 0 where they do not; rows past its
    // end (the solids') do not tear either.
    std::vector<float> tearStrains;
    // The tearing cloths that split vertices, with their spare particles
    // (docs/physics.md §1, "Tearing"; pbd_splitting.h), in particle order.
    std::vector<gpu::SplitCloth> splitCloths;
    std::vector<gpu::DistanceConstraint> distance;
    ColourGroups distanceGroups;
    std::vector<gpu::BendingConstraint> bending;
    ColourGroups bendingGroups;
    std::vector<gpu::AttachmentConstraint> attachments;
    ColourGroups attachmentGroups;
    // The tetrahedra of "method": "xpbd" solids (docs/physics.md §16, "XPBD for solids"), and
    // one elastic material row per such solid, which their elasticRow
    // indexes (edited live apart from the cloths' rows: PbdSolidMaterialEdit).
    std::vector<gpu::TetrahedronConstraint> tetrahedra;
    ColourGroups tetrahedronGroups;
    std::vector<gpu::ElasticMaterialRow> elasticMaterials;
    // Per row of elasticMaterials: the scene's solid it belongs to.
    std::vector<uint32_t> elasticMaterialSolids;
    // PerFamily: each family's groups are its own colours. AcrossFamilies:
    // one colouring of every constraint, so each family's `colours` has one
    // range per shared colour (empty where it has none of it), and colour c
    // of every family is one step of the sweep (colour_steps.h).
    PbdColouring colouring = PbdColouring::PerFamily;

    // Shape matching (docs/physics.md §13): one group per PBD object that has
    // it, and per particle of a group its rest offset from the group's rest
    // centre of mass (xyz) and its mass (w; a pinned particle's too).
    std::vector<gpu::ShapeMatchGroup> shapeMatchGroups;
    std::vector<glm::vec4> shapeMatchRest;

    bool empty() const { return particleCount == 0; }
};

// What PBD's solver, paths, plans and CPU reference read of a built
// model: the part every solver shares and PBD's own. The whole model
// (solvers/sim_model.h) converts to it, so this folder never names the
// other solvers' sub-models.
struct PbdModelView {
    const SharedModel& shared;
    const PbdModel& pbd;
    PbdModelView(const SharedModel& sharedPart, const PbdModel& own) : shared(sharedPart), pbd(own) {}
    template <class WholeModel>
    PbdModelView(const WholeModel& model) : shared(model), pbd(model.pbd) {}  // implicit: a SimModel is one
};

}  // namespace vksim
