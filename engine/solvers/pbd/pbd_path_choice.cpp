#include "solvers/pbd/pbd_path_choice.h"

namespace vksim {

PbdPath choosePbdPath(PbdPath requested, const PbdPathFacts& facts) {
    if (requested != PbdPath::Auto) return requested;
    // The workgroup path projects the contacts between objects only after
    // its solve; the others project them in every iteration, which holds
    // objects apart better (docs/physics.md §14, "Contacts in the workgroup
    // path").
    const bool workgroup = facts.workgroupFits && !facts.contacts;
    const bool clustersPay =
        facts.cpuDevice || !workgroup || facts.largestObjectClusters >= kGpuClustersOverOneWorkgroup;
    // Where the workgroup path cannot or should not run (bodies, contacts),
    // the clusters also hold whole objects: fewer dispatches than the colours.
    if ((facts.clustersSplitAnObject || !workgroup) && facts.clustersFit && clustersPay) return PbdPath::Clusters;
    return workgroup ? PbdPath::Workgroup : PbdPath::PerColour;
}

}  // namespace vksim
