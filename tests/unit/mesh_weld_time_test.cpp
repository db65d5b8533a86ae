// Welding time grows linearly with the vertices (the "hardening" issue):
// the vertices of UV spheres of 64 rings and 250 to 16,000 segments (16k to
// 1M vertices, none to join: the loader's cost on a mesh written with shared
// vertices), and the same spheres as triangle soups (every triangle its own
// three vertices, as STL-derived OBJ files have them: six copies of each
// vertex to join). The time per vertex is printed for docs/physics.md §1;
// the best of three runs per size; its growth exponent is only checked
// against a quadratic weld, as the machine running the tests may be loaded.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "../common/mesh_fixtures.h"
#include "bench/bench_stats.h"
#include "io/mesh_weld.h"

namespace vksim::test {
namespace {

constexpr uint32_t kRings = 64;

// Best of three: seconds to weld `points` with the default tolerance.
double weldSeconds(const std::vector<glm::dvec3>& points, std::size_t expectedKept) {
    double best = 1e30;
    for (int run = 0; run < 3; ++run) {
        const auto start = std::chrono::steady_clock::now();
        const WeldedVertices welded = weldVertices(points, defaultWeldTolerance(points));
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        EXPECT_EQ(welded.positions.size(), expectedKept);
    }
    return best;
}

std::vector<glm::dvec3> soupOf(const UvSphere& sphere) {
    std::vector<glm::dvec3> soup;
    soup.reserve(3 * sphere.triangles.size());
    for (const glm::uvec3& t : sphere.triangles)
        for (int corner = 0; corner < 3; ++corner) soup.push_back(sphere.positions[t[corner]]);
    return soup;
}

TEST(MeshWeldTime, GrowsLinearlyWithTheVertices) {
    std::vector<double> sphereVertices, sphereSeconds, soupVertices, soupSeconds;
    std::printf("[ weld     ] UV spheres, %u rings: welding time per input vertex, best of 3\n", kRings);
    std::printf("[ weld     ] %8s %10s %12s %10s %12s\n", "segments", "vertices", "us/vertex", "soup", "us/vertex");
    for (uint32_t segments : {250u, 1000u, 4000u, 16000u}) {
        const UvSphere sphere = makeUvSphere(0.5, segments, kRings);
        const double seconds = weldSeconds(sphere.positions, sphere.positions.size());
        sphereVertices.push_back(static_cast<double>(sphere.positions.size()));
        sphereSeconds.push_back(seconds);
        std::printf("[ weld     ] %8u %10zu %12.3f", segments, sphere.positions.size(),
                    seconds / static_cast<double>(sphere.positions.size()) * 1e6);
        if (segments <= 4000) {  // the largest soup would be 12M vertices
            const std::vector<glm::dvec3> soup = soupOf(sphere);
            const double soupTime = weldSeconds(soup, sphere.positions.size());
            soupVertices.push_back(static_cast<double>(soup.size()));
            soupSeconds.push_back(soupTime);
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
    // 1.20 (its table fell out of the caches, 27 lookups a vertex). Under CI
    // load the same code measured 1.22 and 1.34, so a timed test cannot tell
    // those apart (speed belongs to measurements, not assertions): the bound
    // only catches a quadratic weld (2), whatever the load.
    EXPECT_LT(sphereSlope, 1.6);
    EXPECT_LT(soupSlope, 1.6);
}

}  // namespace
}  // namespace vksim::test
