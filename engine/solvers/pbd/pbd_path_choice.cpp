#include "solvers/pbd/pbd_path_choice.h"

namespace vksim {

PbdPath choosePbdPath(PbdPath requested, const PbdPathFacts& facts) {
    if (requested != PbdPath::Auto) return requested;
    const bool clustersPay =
        facts.cpuDevice || !facts.workgroupFits || facts.largestObjectClusters >= kGpuClustersOverOneWorkgroup;
    if (facts.clustersSplitAnObject && facts.clustersFit && clustersPay) return PbdPath::Clusters;
    return facts.workgroupFits ? PbdPath::Workgroup : PbdPath::PerColour;
}

}  // namespace vksim
