// PD's gamma and rho reach the GPU (pd/jacobi.comp), so the Jacobi spectrum
// estimate of the PD global step must not change by a single bit when its
// implementation moves (engine/linear/jacobi_spectrum.h): the values below
// are the doubles estimateJacobiSpectrum returned before the move, printed
// with "{:a}". Bit equality holds for the same compiler and flags; a
// different toolchain may round the Lanczos sums differently and then needs
// new values, checked against the scene hashes in tests/pd_cli_tests.cmake.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "pd_scenes.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/pd/pd_system.h"

namespace vksim {
namespace {

struct Golden {
    std::string name;
    Scene scene;
    double h;
    double muMin;
    double muMax;
};

std::vector<Golden> goldenScenes() {
    const std::string dir = std::string(VKSIM_SOURCE_DIR) + "/scenes/";
    return {
        {"bar 4x2x2, h 1/60", test::pdBarScene({4, 2, 2}), 1.0 / 60.0,
         0x1.d6927d85ae774p-6, 0x1.f8a5b609e946dp+0},
        {"bar 6x2x2, h 1/240", test::pdBarScene(), 1.0 / 240.0,
         0x1.67412bc64ec17p-3, 0x1.d317da8736297p+0},
        {"cloth 8x8, h 1/60", test::pdClothScene({8, 8}), 1.0 / 60.0,
         0x1.a0a6754efbe18p-7, 0x1.7e140aa898166p+0},
        {"ball, h 1/60", test::pdBallScene(0.3f, {0.0f, 1.0f, 0.0f}), 1.0 / 60.0,
         0x1.1c7edb37747c4p-11, 0x1.2f05dfcfee845p+1},
        {"pd_gingerbread.json, h 1/120", loadScene(dir + "pd_gingerbread.json"), 1.0 / 120.0,
         0x1.ef9dfb944b70ap-11, 0x1.248a720e584e4p+1},
        {"pd_vs_pbd_cloth.json, h 1/120", loadScene(dir + "pd_vs_pbd_cloth.json"), 1.0 / 120.0,
         0x1.db8050012f238p-11, 0x1.834caf6d1795bp+0},
    };
}

TEST(PdSpectrumGolden, EstimateIsBitIdenticalToBeforeTheMove) {
    for (const Golden& g : goldenScenes()) {
        const SimModel model = buildModel(g.scene);
        const JacobiSpectrum s = estimateJacobiSpectrum(model.pd, g.h);
        std::cout << fmt::format("[pd spectrum] {}: mu in [{:a}, {:a}] (recorded [{:a}, {:a}])\n", g.name, s.muMin,
                                 s.muMax, g.muMin, g.muMax);
        EXPECT_EQ(s.muMin, g.muMin) << g.name;
        EXPECT_EQ(s.muMax, g.muMax) << g.name;
    }
}

}  // namespace
}  // namespace vksim
