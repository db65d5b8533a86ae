#include "sim/colour_steps.h"

#include <algorithm>

#include <fmt/format.h>

namespace vksim {

ColorRange ColourStep::range(const ColorGroups& groups, uint32_t family) const {
    if (!families[family]) return {};
    if (serial) return groups.overflow;
    return colour < groups.colors.size() ? groups.colors[colour] : ColorRange{};
}

std::vector<ColourStep> colourSteps(const FamilyGroups& groups, PbdColouring colouring) {
    std::vector<ColourStep> steps;
    if (colouring == PbdColouring::PerFamily) {
        for (uint32_t f = 0; f < kPbdFamilies; ++f) {
            ColourStep step;
            step.families[f] = true;
            for (uint32_t c = 0; c < groups[f]->colors.size(); ++c) {
                if (groups[f]->colors[c].count == 0) continue;
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
    for (const ColorGroups* g : groups) colours = std::max(colours, g->colors.size());
    for (uint32_t c = 0; c < colours; ++c) {
        ColourStep step;
        step.colour = c;
        step.name = fmt::format("{} colour {}", kSharedColourFamily, c);
        for (uint32_t f = 0; f < kPbdFamilies; ++f)
            step.families[f] = c < groups[f]->colors.size() && groups[f]->colors[c].count > 0;
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

std::vector<ColourStep> colourSteps(const SimModel& model) {
    return colourSteps({&model.distanceGroups, &model.bendingGroups, &model.attachmentGroups}, model.colouring);
}

}  // namespace vksim
