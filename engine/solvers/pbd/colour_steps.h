#pragma once
// The order of one PBD Gauss-Seidel iteration over the constraint families
// (docs/physics.md §1), written once for every path and the CPU reference:
// a list of steps, each a colour (constraints of which no two share a
// particle, so projected in parallel, one dispatch or one workgroup phase)
// or the overflow groups (walked in order by one thread).
//
// Per family (PbdColouring::PerFamily): every colour of the distance
// constraints, their overflow group, then the bending constraints' colours
// and overflow group, then the attachments'. Across families: colour c of
// every family together, for each c, then the overflow groups in family
// order. Either is one fixed order, so the result is deterministic; the
// second has fewer steps where the families' colours overlap.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/sim_types.h"
#include "solvers/pbd/pbd_model.h"

namespace vksim {

// The PBD constraint families in sweep order, indexed by gpu::kPbdFamilyDistance, ...
inline constexpr uint32_t kPbdFamilies = gpu::kPbdFamilyCount;
// Their names in pass names ("stretch colour 3").
inline constexpr std::array<const char*, kPbdFamilies> kPbdFamilyNames = {"stretch", "bending", "attachment",
                                                                           "tetrahedron"};

// The pass family of the steps of shared colours ("shared colour 3",
// "shared overflow"), as the family names prefix the others'.
inline constexpr const char* kSharedColourFamily = "shared";

// One colour ColourGroups per family, in family order.
using FamilyGroups = std::array<const ColourGroups*, kPbdFamilies>;

struct ColourStep {
    uint32_t colour = 0;                        // its index in each family's `colours` (unused when serial)
    bool serial = false;                        // the overflow groups instead of a colour
    std::array<bool, kPbdFamilies> families{};  // which families it projects
    std::string name;                           // its pass name after "pbd: ": "stretch colour 3", "shared colour 3", "bending overflow", "shared overflow"

    // What family f projects in this step, in `groups` (the model's, or
    // another split of the same colours, as the cluster plan's coloured
    // share): colours[colour] or the overflow group; empty where f is not in it.
    ColourRange range(const ColourGroups& groups, uint32_t family) const;
};

// The steps of the model's colouring, from its groups: every colour and
// overflow group that holds a constraint, in sweep order.
std::vector<ColourStep> colourSteps(const FamilyGroups& groups, PbdColouring colouring);
std::vector<ColourStep> colourSteps(const PbdModelView& model);

}  // namespace vksim
