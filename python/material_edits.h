#pragma once
// vksim.World.set_material: an object's material values by name, applied
// through the engine's live edits (World::edit with a PbdMaterialEdit,
// SpringParamsEdit or PdMaterialEdit), the path the viewer's sliders take.
#include <string>
#include <utility>
#include <vector>

namespace vksim {

class World;

// Applies `edits` (key, value) to the object named `name`, all or none:
// every key is checked before the first edit. The keys, per kind of object
// (docs/python.md):
//   PBD cloth: stretch, bending, attachment (the stiffness in [0, 1], or
//              the compliance [m/N] of an "xpbd" family);
//   mass-spring cloth: stretch, shear, bending [N/m], drag [kg/s],
//              compressionScale, slack;
//   PD cloth: stretch, strain, bending, attachment (stiffness);
//   PD solid: strain, volume, attachment (stiffness).
// Throws std::invalid_argument, one line starting "vksim.World.set_material: ",
// for an unknown object or key, or a value the edit refuses.
void applyMaterialEdits(World& world, const std::string& name,
                        const std::vector<std::pair<std::string, float>>& edits);

}  // namespace vksim
