#pragma once
// The per-colour path (PbdPath::PerColour, docs/physics.md §1): each
// iteration one dispatch per colour step of the model's colouring
// (ColourSweep), then shape matching and the collision constraints. Every
// model fits it.
#include "solvers/pbd/pbd_dispatch_path.h"

namespace vksim {

class ColourSweep;
class PbdConstraints;
class PbdIterationStages;

class PerColourPath final : public PbdDispatchPath {
public:
    PerColourPath(const PbdConstraints& constraints, const ColourSweep& colours, PbdIterationStages& stages)
        : constraints_(constraints), colours_(colours), stages_(stages) {}

    // Its passes are the colour steps, which the cluster path's coloured
    // sweep shares (the solver declares them).
    void declarePasses(StepPlan& plan) override { (void)plan; }
    const std::optional<std::string>& misfit() const override { return fits_; }
    std::string describe() const override { return ""; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;

private:
    const PbdConstraints& constraints_;
    const ColourSweep& colours_;
    PbdIterationStages& stages_;
    const std::optional<std::string> fits_;
};

}  // namespace vksim
