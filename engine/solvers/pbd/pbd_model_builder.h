#pragma once
// Scene -> PbdModel (pbd_model.h): the cloths with "method": "pbd". Stretch =
// structural + shear edges, bending = isometric bending across every
// interior edge, attachments hold pinned vertices where pinsAsAttachments;
// rest lengths and bending weights come from the positions as uploaded
// (object_builder.h). Disabled families produce no constraints. Then the
// families are coloured and sorted by colour (graph_colouring.h).
#include <cstdint>
#include <vector>

#include "model/object_builder.h"
#include "model/shared_model.h"
#include "scene/scene.h"
#include "solvers/pbd/pbd_model.h"

namespace vksim {

// One material row per family of every cloth of the scene, at
// materialIndex(cloth index, family), whatever the cloth's solver.
void appendPbdMaterials(PbdModel& pbd, const std::vector<ClothObject>& cloths);

// Cloth `object` of the scene: its particles and triangles into `model`, its
// constraints and shape-matching group into `pbd`.
void appendPbdCloth(SharedModel& model, PbdModel& pbd, const ClothObject& cloth, uint32_t object,
                    ModelDiagnostics& diagnostics);

// Solid `solid` of the scene ("method": "xpbd", with a material): its
// particles (pins hard) and surface triangles into `model`, its tetrahedra,
// elastic material row and, with "volumeConstraint", a PBD material row for
// the volume constraints into `pbd` (docs/physics.md §16, "XPBD for solids").
void appendXpbdSolid(SharedModel& model, PbdModel& pbd, const SolidObject& solid, uint32_t index);

// Colours every family and sorts it by colour, each family on its own or all
// together (`colouring`).
void colourPbdConstraints(PbdModel& pbd, PbdColouring colouring);

}  // namespace vksim
