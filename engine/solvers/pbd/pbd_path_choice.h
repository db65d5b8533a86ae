#pragma once
// How "auto" picks PBD's dispatch path (SolverSettings::pbd.path,
// docs/physics.md §1), from what the model and the device allow. The
// rules follow the measurements in docs/benchmarks.md, "H100: PBD cloth on
// three paths" and "lavapipe: PBD cloth on three paths".
#include <cstdint>

#include "scene/scene.h"

namespace vksim {

// What the choice weighs.
struct PbdPathFacts {
    bool cpuDevice = false;
    bool workgroupFits = false;          // every PBD object fits one workgroup (WorkgroupPath::misfit)
    // Some PBD object has contacts, which the workgroup path projects
    // between objects only after its solve (WorkgroupPath), the other paths
    // in every iteration.
    bool contacts = false;
    bool clustersFit = false;            // the driver can hold the clusters (ClusterPath::misfit)
    bool clustersSplitAnObject = false;  // the first sweep cuts some object in more than one cluster
    uint32_t largestObjectClusters = 0;  // the first sweep's clusters in the largest object
};

// On a GPU, "auto" takes the clusters over one workgroup for an object
// cut into this many clusters or more: one workgroup's frame grows with
// the object, the clusters' does not (docs/benchmarks.md, "H100: PBD cloth
// on three paths").
inline constexpr uint32_t kGpuClustersOverOneWorkgroup = 10;

// `requested` unless it is PbdPath::Auto. "auto": the clusters where they
// cut some object in more than one, or no workgroup path fits or there are
// contacts (then they hold whole objects), and the driver can hold them, on
// a CPU driver always (a workgroup runs on one core there), on a GPU where
// the largest object is cut into kGpuClustersOverOneWorkgroup clusters or
// more or does not fit one workgroup or there are contacts; else one
// workgroup per object where every object fits and there are no contacts;
// else the colours. With contacts "auto" leaves the workgroup path to a path
// that projects every pair in every iteration.
PbdPath choosePbdPath(PbdPath requested, const PbdPathFacts& facts);

}  // namespace vksim
