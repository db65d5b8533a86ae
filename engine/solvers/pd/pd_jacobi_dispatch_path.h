#pragma once
// One way to dispatch the Jacobi iterations of a PD global step
// (docs/physics.md §5): every path runs the same iteration on the same
// rows with the same weights and gives the same bits, in its own passes.
// PdSolver holds one of each, chooses one per frame (pd_jacobi_path_choice.h)
// and records the chosen one; the plan declares the passes of all.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "scene/scene.h"
#include "shaders/pd/pd_types.h"
#include "solvers/pd/pd_constraints.h"
#include "step/step_plan.h"
#include "step/step_recorder.h"
#include "vk/buffer.h"

namespace vksim {

// What a Jacobi iteration reads and writes: the iterates q^{k-1}, q^k,
// q^{k+1} in rotation (indexed by global particle), the particles'
// positions and velocities (the mass and the pinned flag), the system's
// rows and off-diagonal entries, each row's copy and each copy's Jacobi
// weights (of the constraints) and the gathered right-hand side.
struct PdJacobiBuffers {
    std::array<const GpuBuffer*, 3> q{};
    const GpuBuffer* positions = nullptr;
    const GpuBuffer* velocities = nullptr;
    const PdConstraints* constraints = nullptr;
    const GpuBuffer* rhs = nullptr;
    std::string_view workingName;  // how the non-finite replay calls an iterate
};

// One global step's iterations.
struct PdJacobiStep {
    gpu::PdParticlePush particles{};  // iteration set per iteration by the path
    uint32_t iterations = 0;          // J
    uint32_t first = 0;               // the q buffer holding q^0; q^J is in (first + J) % 3
    StepPosition at;
};

class PdJacobiDispatchPath {
public:
    virtual ~PdJacobiDispatchPath() = default;

    // Its name in the scene format ("jacobiPath") and a line on what it does.
    virtual std::string_view name() const = 0;
    virtual std::string_view describe() const = 0;
    virtual void declarePasses(StepPlan& plan) = 0;
    // Why it cannot run a frame with `settings`, if it cannot.
    virtual std::optional<std::string> misfit(const SolverSettings& settings) const {
        (void)settings;
        return std::nullopt;
    }
    virtual void record(StepRecorder& rec, const PdJacobiStep& step) = 0;
};

}  // namespace vksim
