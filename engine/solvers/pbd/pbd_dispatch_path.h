#pragma once
// One way of dispatching PBD's solve (SolverSettings::pbd.path, docs/physics.md
// §1): each path is a class behind this interface, reading the constraints
// from PbdConstraints; PbdSolver owns them all and hands each frame to the
// one choosePbdPath() picks (solvers/pbd/pbd_path_choice.h).
//
// A path records either one solve per substep, between the shared stages
// (recordSolve: the per-colour and cluster paths), or whole frames with the
// shared stages inside its own kernels (recordFrame: the workgroup path;
// Solver::recordsWholeFrames).
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "solvers/solver.h"

namespace vksim {

// What PBD's pass names start with, and what the non-finite replay calls a
// value of its working positions (the store's p).
inline constexpr std::string_view kPbdPassPrefix = "pbd: ";
inline constexpr std::string_view kPbdWorkingName = ParticleStore::kPredictedName;

class PbdDispatchPath {
public:
    virtual ~PbdDispatchPath() = default;

    // Declares the passes only this path records (the solver declares
    // them all, in the plan's order: PbdSolver::declarePasses).
    virtual void declarePasses(StepPlan& plan) = 0;
    // Why it cannot run this model on this device, or nothing when it can.
    virtual const std::optional<std::string>& misfit() const = 0;
    // What a run's summary says after the path's name: its workgroups or
    // clusters ("" where there is nothing to add).
    virtual std::string describe() const = 0;

    // Whether it records whole frames rather than one solve per substep.
    virtual bool recordsWholeFrames() const { return false; }
    // Whether its iterations project the contacts between PBD particles
    // (Solver::projectsContactsInSolve); the stepper projects those it
    // does not after the solve.
    virtual bool projectsContactsInSolve() const { return true; }
    // One substep's solve; returns the buffer of the solved positions.
    virtual const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) {
        (void)rec;
        (void)sub;
        throw std::logic_error("this PBD path records whole frames");
    }
    // A whole frame (`particles`: what the shared stages would be given).
    virtual void recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) {
        (void)rec;
        (void)frame;
        (void)particles;
        throw std::logic_error("this PBD path records one solve per substep");
    }
};

}  // namespace vksim
