#include "solvers/pbd/pbd_path_choice.h"

namespace vksim {

PbdPath choosePbdPath(PbdPath requested, const PbdPathFacts& facts) {
    if (requested != PbdPath::Auto) return requested;
    const bool clustersPay =
        facts.cpuDevice || !facts.workgroupFits || facts.largestObjectClusters >= kGpuClustersOverOneWorkgroup;
    // Where no workgroup path can run (contacts, bodies), the clusters also
    // hold whole objects: fewer dispatches than the colours.
    if ((facts.clustersSplitAnObject || !facts.workgroupFits) && facts.clustersFit && clustersPay)
        return PbdPath::Clusters;
    return facts.workgroupFits ? PbdPath::Workgroup : PbdPath::PerColour;
}

}  // namespace vksim
