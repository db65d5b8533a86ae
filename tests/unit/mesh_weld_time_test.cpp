// Welding time grows linearly with the vertices (the "hardening" issue):
// the vertices of UV spheres of 64 rings and 250 to 16,000 segments (16k to
// 1M vertices, none to join: the loader's cost on a mesh written with shared
// vertices), and the same spheres as triangle soups (every triangle its own
// three vertices, as STL-derived OBJ files have them: six copies of each
// vertex to join). The time per vertex is printed for docs/physics.md §1,
// the best of three runs per size, and never asserted (the machine running
// the tests may be loaded): what is checked is the weld's work, its distance
// tests per vertex, which must not grow with the mesh.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../common/mesh_fixtures.h"
#include "bench/bench_stats.h"
#include "io/mesh_weld.h"

namespace vksim::test {
namespace {

constexpr uint32_t kRings = 64;

struct WeldRun {
    double seconds = 1e30;  // the best of three
    double comparisonsPerVertex = 0.0;
};

// Welds `points` three times with the default tolerance.
WeldRun weld(const std::vector<glm::dvec3>& points, std::size_t expectedKept) {
    WeldRun run;
    for (int k = 0; k < 3; ++k) {
        const auto start = std::chrono::steady_clock::now();
        const WeldedVertices welded = weldVertices(points, defaultWeldTolerance(points));
        run.seconds = std::min(run.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        run.comparisonsPerVertex = static_cast<double>(welded.comparisons) / static_cast<double>(points.size());
        EXPECT_EQ(welded.positions.size(), expectedKept);
    }
    return run;
}

std::vector<glm::dvec3> soupOf(const UvSphere& sphere) {
    std::vector<glm::dvec3> soup;
    soup.reserve(3 * sphere.triangles.size());
    for (const glm::uvec3& t : sphere.triangles)
        for (int corner = 0; corner < 3; ++corner) soup.push_back(sphere.positions[t[corner]]);
    return soup;
}

TEST(MeshWeldTime, GrowsLinearlyWithTheVertices) {
    std::vector<double> sphereVertices, sphereSeconds, soupVertices, soupSeconds, sphereWork, soupWork;
    std::printf("[ weld     ] UV spheres, %u rings: welding time per input vertex, best of 3\n", kRings);
    std::printf("[ weld     ] %8s %10s %12s %10s %12s\n", "segments", "vertices", "us/vertex", "soup", "us/vertex");
    for (uint32_t segments : {250u, 1000u, 4000u, 16000u}) {
        const UvSphere sphere = makeUvSphere(0.5, segments, kRings);
        const WeldRun sphereRun = weld(sphere.positions, sphere.positions.size());
        const double seconds = sphereRun.seconds;
        sphereVertices.push_back(static_cast<double>(sphere.positions.size()));
        sphereSeconds.push_back(seconds);
        sphereWork.push_back(sphereRun.comparisonsPerVertex);
        std::printf("[ weld     ] %8u %10zu %12.3f", segments, sphere.positions.size(),
                    seconds / static_cast<double>(sphere.positions.size()) * 1e6);
        if (segments <= 4000) {  // the largest soup would be 12M vertices
            const std::vector<glm::dvec3> soup = soupOf(sphere);
            const WeldRun soupRun = weld(soup, sphere.positions.size());
            const double soupTime = soupRun.seconds;
            soupVertices.push_back(static_cast<double>(soup.size()));
            soupSeconds.push_back(soupTime);
            soupWork.push_back(soupRun.comparisonsPerVertex);
            std::printf(" %10zu %12.3f", soup.size(), soupTime / static_cast<double>(soup.size()) * 1e6);
        }
        std::printf("\n");
    }
    const double sphereSlope = fitLogLog(sphereVertices, sphereSeconds).slope;
    const double soupSlope = fitLogLog(soupVertices, soupSeconds).slope;
    std::printf("[ weld     ] growth exponents (log-log slope against vertices): %.2f, soup %.2f (1 = linear)\n",
                sphereSlope, soupSlope);
    // Linear is 1, and measured 1.07 and 1.12 on an idle machine, where the
    // arrays outgrow the caches; the hash map of cells measured 1.36 and
    // 1.20. Under CI load the same code measured 1.22 and 1.34: speed belongs
    // to measurements, not assertions. The work is counted instead: a
    // vertex of a sphere finds no kept vertex within reach (the tolerance
    // is far below the spacing), one of a soup its kept copy at the first
    // test (measured: 0 and 5/6 at every size, the first of each vertex's six
    // copies being kept untested); a grid that put more in a cell as the mesh
    // grew, or a weld that compared with more than the cells around, would
    // show here.
    for (std::size_t k = 0; k < sphereWork.size(); ++k) {
        const std::string soup = k < soupWork.size() ? fmt::format(", soup {:.3f}", soupWork[k]) : "";
        fmt::print("[ weld     ] {:.0f} vertices: {:.3f} distance tests per vertex{}\n", sphereVertices[k],
                   sphereWork[k], soup);
        EXPECT_LE(sphereWork[k], 1.0);
        if (k < soupWork.size()) {
            EXPECT_LE(soupWork[k], 1.0);
        }
    }
}

}  // namespace
}  // namespace vksim::test
