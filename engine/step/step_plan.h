#pragma once
// The step plan: every GPU pass a world can record, declared once, in step
// order, with its stage kind and its owner (a solver, or the world). Pass
// names in timings, traces and the overlay, the timer's size, the pass list
// `vksim --list-passes` prints and the labels of the non-finite replay all
// come from here, so adding a pass means declaring it in one place and
// recording it through a StepRecorder.
//
// The stage kinds name what a pass does in a substep, as Box2D v3 names its
// solver stages: the shared particle stages (Predict, CollideGenerate,
// CollideProject, UpdateVelocity, ContactVelocity) are one set of kernels
// run over each solver's particle range; Solve is a solver's own work;
// Normals and FiniteCheck run once per frame; Diagnostic passes (residuals,
// energies, the mouse drag) run only when asked for.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vksim {

class GpuTimer;

enum class StageKind : uint8_t {
    Predict,
    CollideGenerate,
    Solve,
    CollideProject,
    UpdateVelocity,
    ContactVelocity,
    Normals,
    FiniteCheck,
    Diagnostic,
};

// "predict", "collide-generate", ... (the --list-passes column).
std::string_view stageKindName(StageKind kind);

struct PassDeclaration {
    std::string name;   // unique, e.g. "stretch colour 3", "pd: gather rhs"
    StageKind kind;
    std::string owner;  // "pbd", "pd", "world"
};

class StepPlan {
public:
    // Declares a pass; the id it returns is its GpuTimer pass id once
    // registerPasses() has run. Throws std::logic_error for a repeated name.
    uint32_t declare(std::string name, StageKind kind, std::string owner);

    const std::vector<PassDeclaration>& passes() const { return passes_; }
    const std::string& name(uint32_t pass) const { return passes_.at(pass).name; }

    // Registers every declared pass with `timer`, which must have none yet,
    // so that timer pass ids are plan ids.
    void registerPasses(GpuTimer& timer) const;

    // One line per pass: "<kind> <owner> <name>", in step order.
    std::string describe() const;

private:
    std::vector<PassDeclaration> passes_;
};

}  // namespace vksim
