#pragma once
// What one frame asks of the GPU, counted when a scene loads by recording a
// frame without a command buffer (step_recorder.h), for the estimate of how
// long the frame holds the GPU (world/frame_time_limit.h). Dispatches are
// counted by the recorder itself; the work inside one dispatch that its
// invocation count does not show (a loop in one workgroup, the body pairs
// of a rigid contact round) is added by the solver that records it.
#include <cstdint>

namespace vksim {

struct FrameWork {
    uint64_t runs = 0;  // dispatches
    // Rows updated in turn by one workgroup: PD's Jacobi iterations in one
    // workgroup (jacobiIterations x particles each).
    double pdWorkgroupRows = 0;
    // Constraints projected in turn by one workgroup: PBD's workgroup path
    // (substeps x iterations x an object's constraints) and cluster sweeps
    // (a cluster's constraints per sweep).
    double pbdWorkgroupConstraints = 0;
    // Rigid body pairs solved by the per-substep path's contact rounds, one
    // workgroup per pair, spread over the device.
    double rigidPairs = 0;
    // Bodies and pairs solved in turn by the rigid one-workgroup path.
    double rigidOneWorkgroup = 0;

    FrameWork& operator+=(const FrameWork& other) {
        runs += other.runs;
        pdWorkgroupRows += other.pdWorkgroupRows;
        pbdWorkgroupConstraints += other.pbdWorkgroupConstraints;
        rigidPairs += other.rigidPairs;
        rigidOneWorkgroup += other.rigidOneWorkgroup;
        return *this;
    }
};

}  // namespace vksim
