#include "step/step_plan.h"

#include <stdexcept>

#include <fmt/format.h>

#include "vk/gpu_timer.h"

namespace vksim {

std::string_view stageKindName(StageKind kind) {
    switch (kind) {
        case StageKind::Predict: return "predict";
        case StageKind::CollideGenerate: return "collide-generate";
        case StageKind::Solve: return "solve";
        case StageKind::CollideProject: return "collide-project";
        case StageKind::UpdateVelocity: return "update-velocity";
        case StageKind::ContactVelocity: return "contact-velocity";
        case StageKind::Normals: return "normals";
        case StageKind::FiniteCheck: return "finite-check";
        case StageKind::Diagnostic: return "diagnostic";
    }
    return "?";
}

uint32_t StepPlan::declare(std::string name, StageKind kind, std::string owner) {
    for (const PassDeclaration& pass : passes_)
        if (pass.name == name) throw std::logic_error(fmt::format("step plan: pass '{}' declared twice", name));
    passes_.push_back({std::move(name), kind, std::move(owner)});
    return static_cast<uint32_t>(passes_.size() - 1);
}

void StepPlan::registerPasses(GpuTimer& timer) const {
    if (timer.passCount() != 0) throw std::logic_error("step plan: the timer already has passes");
    for (const PassDeclaration& pass : passes_) timer.registerPass(pass.name);
}

std::string StepPlan::describe() const {
    std::string out;
    for (const PassDeclaration& pass : passes_)
        out += fmt::format("{:<17} {:<6} {}\n", stageKindName(pass.kind), pass.owner, pass.name);
    return out;
}

}  // namespace vksim
