#pragma once
// What the PBD workgroup solve (docs/physics.md §1, "Small objects in one
// workgroup"; shaders/pbd/solve_in_workgroup.glsl) runs: one workgroup per
// PBD object, and per object the phases of one
// Gauss-Seidel iteration in the order the per-colour path projects them
// (each family's colours, then its overflow group), each cut down to the
// object's own constraints. Built on the CPU from the model; uploaded once.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shared/sim_types.h"

namespace vksim {

struct SimModel;

struct WorkgroupPlan {
    std::vector<gpu::WorkgroupObject> objects;  // one per PBD object, in particle order
    std::vector<gpu::WorkgroupPhase> phases;    // each object's, one after another
};

// The particles whose positions fit in `sharedMemoryBytes` of shared memory
// (12 bytes each: the solve keeps xyz there and reads inverse masses from
// the particle store).
uint32_t workgroupParticleCapacity(uint32_t sharedMemoryBytes);

// The plan for the model's PBD objects. Throws std::logic_error if a colour's
// constraints are not grouped by object (the model builder's stable colour
// sort keeps them so).
WorkgroupPlan buildWorkgroupPlan(const SimModel& model);

// The particles' worth of shared memory shape matching's scratch takes in a
// workgroup of `workgroupSize` invocations (a vec4 each, after the positions).
uint32_t shapeMatchScratchParticles(uint32_t workgroupSize);

// Why the model's PBD objects cannot be solved one per workgroup with
// `capacity` particles each, `scratchParticles` of them taken by shape
// matching's scratch in an object that has it (the first object over it,
// named), or nothing when they can.
std::optional<std::string> workgroupMisfit(const SimModel& model, uint32_t capacity, uint32_t scratchParticles = 0);

}  // namespace vksim
