#pragma once
// Scene -> PdModel (pd_model.h; docs/physics.md §5): "method": "pd" cloths
// (springs, triangle strain, bending, attachments) and the tetrahedral
// solids (tet_mesh.h; strain, volume, attachments; masses lumped by volume).
// Rest shapes are the positions as uploaded (float), widened to double
// (object_builder.h). Inverted or degenerate elements are errors naming the
// element. Each object's elements form weight groups (pd_materials.h);
// buildPdSystem (pd_system.h) then assembles the system once every object
// is in.
#include <cstdint>

#include "model/object_builder.h"
#include "model/shared_model.h"
#include "scene/scene.h"
#include "solvers/pd/pd_model.h"

namespace vksim {

// Cloth `index` of the scene: its particles and triangles into `model`, its
// elements into `pd`.
void appendPdCloth(SharedModel& model, PdModel& pd, const ClothObject& cloth, uint32_t index,
                   ModelDiagnostics& diagnostics);

// Solid `index` of the scene, likewise.
void appendPdSolid(SharedModel& model, PdModel& pd, const SolidObject& solid, uint32_t index);

}  // namespace vksim
