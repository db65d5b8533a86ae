#include "solvers/pbd/colour_steps.h"

#include <algorithm>

#include <fmt/format.h>

namespace vksim {

ColourRange ColourStep::range(const ColourGroups& groups, uint32_t family) const {
    if (!families[family]) return {};
    if (serial) return groups.overflow;
    return colour < groups.colours.size() ? groups.colours[colour] : ColourRange{};
}

std::vector<ColourStep> colourSteps(const FamilyGroups& groups, PbdColouring colouring) {
    std::vector<ColourStep> steps;
    if (colouring == PbdColouring::PerFamily) {
        for (uint32_t f = 0; f < kPbdFamilies; ++f) {
            ColourStep step;
            step.families[f] = true;
            for (uint32_t c = 0; c < groups[f]->colours.size(); ++c) {
                if (groups[f]->colours[c].count == 0) continue;
                step.colour = c;
                step.name = fmt::format("{} colour {}", kPbdFamilyNames[f], c);
                steps.push_back(step);
            }
            if (groups[f]->overflow.count == 0) continue;
            step.colour = 0;
            step.serial = true;
            step.name = fmt::format("{} overflow", kPbdFamilyNames[f]);
            steps.push_back(step);
        }
        return steps;
    }
    size_t colours = 0;
    for (const ColourGroups* g : groups) colours = std::max(colours, g->colours.size());
    for (uint32_t c = 0; c < colours; ++c) {
        ColourStep step;
        step.colour = c;
        step.name = fmt::format("{} colour {}", kSharedColourFamily, c);
        for (uint32_t f = 0; f < kPbdFamilies; ++f)
            step.families[f] = c < groups[f]->colours.size() && groups[f]->colours[c].count > 0;
        if (std::find(step.families.begin(), step.families.end(), true) != step.families.end()) steps.push_back(step);
    }
    ColourStep overflow;
    overflow.serial = true;
    overflow.name = fmt::format("{} overflow", kSharedColourFamily);
    for (uint32_t f = 0; f < kPbdFamilies; ++f) overflow.families[f] = groups[f]->overflow.count > 0;
    if (std::find(overflow.families.begin(), overflow.families.end(), true) != overflow.families.end())
        steps.push_back(overflow);
    return steps;
}

std::vector<ColourStep> colourSteps(const PbdModelView& model) {
    return colourSteps({&model.pbd.distanceGroups, &model.pbd.bendingGroups, &model.pbd.attachmentGroups,
                        &model.pbd.tetrahedronGroups},
                       model.pbd.colouring);
}

}  // namespace vksim
