#pragma once
// A scene with its solver's dispatch path chosen: how the GPU tests run one
// scene on every path and compare them.
#include "scene/scene.h"

namespace vksim::test {

inline Scene onPath(Scene scene, PbdPath path) {
    scene.solver.pbd.path = path;
    return scene;
}

inline Scene onPath(Scene scene, PdJacobiPath path) {
    scene.solver.pd.jacobiPath = path;
    return scene;
}

}  // namespace vksim::test
