#include "solvers/rigid/rigid_path_choice.h"

namespace vksim {

RigidPath chooseRigidPath(RigidPath requested, uint32_t bodyCount, bool cpuDevice) {
    switch (requested) {
        case RigidPath::OneWorkgroup: return RigidPath::OneWorkgroup;
        case RigidPath::PerSubstep: return bodyCount == 1 ? RigidPath::OneWorkgroup : RigidPath::PerSubstep;
        case RigidPath::Auto:
            return bodyCount <= (cpuDevice ? kRigidOneWorkgroupBodiesCpu : kRigidOneWorkgroupBodiesGpu)
                       ? RigidPath::OneWorkgroup
                       : RigidPath::PerSubstep;
    }
    return RigidPath::PerSubstep;
}

}  // namespace vksim
