// Loading time and memory grow linearly with the input, even where the
// valence does too (the "hardening" issue): UV-sphere cloths of 250 to 2000
// segments around, 64 rings, so the vertex count and the poles' valence both
// grow with the segments. Uncapped, the greedy colouring needed one colour
// per pole edge and grew every particle's mask to match, O(vertices x
// valence); capped at kMaxColours (graph_colouring.h) it is O(vertices).
//
// Each size runs in a child process, so that its peak memory is its own:
// load (parse and weld the OBJ), build the model (colouring included), then
// colour the stretch and bending families once more on their own. The table
// is printed for docs/physics.md §1; the memory slopes are asserted (memory
// is what a machine's load does not disturb), the times only by a generous
// bound.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "../common/mesh_fixtures.h"
#include "../common/time_bounds.h"
#include "bench/bench_stats.h"
#include "model/graph_colouring.h"
#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"

namespace vksim::test {
namespace {

constexpr uint32_t kSphereRings = 64;

struct LoadMeasurement {
    uint32_t particles = 0, distance = 0, bending = 0;
    uint32_t distanceColours = 0, distanceOverflow = 0, bendingColours = 0, bendingOverflow = 0;
    double loadSeconds = 0, buildSeconds = 0, colourSeconds = 0;
    double peakMiB = 0;  // load and build, above the process's memory before them
};

// A field of /proc/self/status in kB ("VmRSS", "VmHWM").
double statusKiB(const std::string& field) {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind(field + ":", 0) == 0) return std::stod(line.substr(field.size() + 1));
    throw std::runtime_error("no " + field + " in /proc/self/status");
}

// Resets the peak resident size (VmHWM) to the current one (proc(5), clear_refs).
void resetPeak() {
    std::ofstream("/proc/self/clear_refs") << "5";
}

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class Constraint, class ParticlesOf>
std::vector<uint32_t> particleList(const std::vector<Constraint>& constraints, ParticlesOf particlesOf) {
    std::vector<uint32_t> particles;
    for (const Constraint& c : constraints)
        for (uint32_t p : particlesOf(c)) particles.push_back(p);
    return particles;
}

// In the child: what load, build and colouring of the scene take.
LoadMeasurement measure(const std::filesystem::path& sceneFile) {
    LoadMeasurement m;
    resetPeak();
    const double before = statusKiB("VmRSS");
    auto start = std::chrono::steady_clock::now();
    const Scene scene = loadScene(sceneFile);
    m.loadSeconds = secondsSince(start);
    start = std::chrono::steady_clock::now();
    const SimModel model = buildModel(scene);
    m.buildSeconds = secondsSince(start);
    m.peakMiB = (statusKiB("VmHWM") - before) / 1024.0;

    m.particles = model.particleCount();
    m.distance = static_cast<uint32_t>(model.pbd.distance.size());
    m.bending = static_cast<uint32_t>(model.pbd.bending.size());
    m.distanceColours = static_cast<uint32_t>(model.pbd.distanceGroups.colours.size());
    m.distanceOverflow = model.pbd.distanceGroups.overflow.count;
    m.bendingColours = static_cast<uint32_t>(model.pbd.bendingGroups.colours.size());
    m.bendingOverflow = model.pbd.bendingGroups.overflow.count;

    const std::vector<uint32_t> distance =
        particleList(model.pbd.distance, [](const gpu::DistanceConstraint& c) { return std::array{c.p0, c.p1}; });
    const std::vector<uint32_t> bending = particleList(model.pbd.bending, [](const gpu::BendingConstraint& c) {
        return std::array{c.particles.x, c.particles.y, c.particles.z, c.particles.w};
    });
    start = std::chrono::steady_clock::now();
    const Colouring distanceColouring = colourConstraints(distance, 2);
    const Colouring bendingColouring = colourConstraints(bending, 4);
    m.colourSeconds = secondsSince(start);
    if (distanceColouring.overflowCount != m.distanceOverflow || bendingColouring.overflowCount != m.bendingOverflow)
        throw std::logic_error("the colouring differs from the model's");
    return m;
}

// Runs measure() in a child process and returns what it found.
LoadMeasurement measureInChild(const std::filesystem::path& sceneFile) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe");
    const pid_t child = ::fork();
    if (child < 0) throw std::runtime_error("fork");
    if (child == 0) {
        ::close(fds[0]);
        // Every block of 64 KiB or more its own mapping, returned when freed
        // (glibc would otherwise raise the threshold and reuse freed heap),
        // so that the resident size follows what is allocated.
        ::mallopt(M_MMAP_THRESHOLD, 64 * 1024);
        // And the free heap inherited from the tests that ran before given
        // back, so that reusing it shows as resident memory too.
        ::malloc_trim(0);
        int status = 0;
        try {
            const LoadMeasurement m = measure(sceneFile);
            status = ::write(fds[1], &m, sizeof m) == static_cast<ssize_t>(sizeof m) ? 0 : 1;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s\n", e.what());
            status = 1;
        }
        ::_exit(status);
    }
    ::close(fds[1]);
    LoadMeasurement m;
    const ssize_t got = ::read(fds[0], &m, sizeof m);
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (got != static_cast<ssize_t>(sizeof m) || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error("the measuring child failed");
    return m;
}

TEST(UvSphereLoading, TimeAndMemoryGrowLinearlyWithSegments) {
    ScratchFolder folder;
    std::vector<double> vertices, peak, seconds;
    std::printf("[ loading  ] UV-sphere cloths, %u rings; memory above the process's before loading\n", kSphereRings);
    std::printf("[ loading  ] %8s %9s %19s %19s %8s %8s %9s %9s\n", "segments", "particles", "stretch",
                "bending", "load s", "build s", "colour ms", "peak MiB");
    for (uint32_t segments : {250u, 500u, 1000u, 2000u}) {
        const std::string obj = fmt::format("uv_sphere_{}.obj", segments);
        writeTextFile(folder / obj, makeUvSphere(0.5, segments, kSphereRings).obj());
        const std::filesystem::path sceneFile = folder / fmt::format("uv_sphere_{}.json", segments);
        writeTextFile(sceneFile, fmt::format(R"({{ "objects": [ {{ "type": "mesh", "file": "{}" }} ] }})", obj));
        const LoadMeasurement m = measureInChild(sceneFile);
        std::printf("[ loading  ] %8u %9u %6u: %4u + %3u %6u: %4u + %3u %8.3f %8.3f %9.2f %9.1f\n", segments,
                    m.particles, m.distance, m.distanceColours, m.distanceOverflow, m.bending, m.bendingColours,
                    m.bendingOverflow, m.loadSeconds, m.buildSeconds, m.colourSeconds * 1e3, m.peakMiB);
        EXPECT_EQ(m.particles, segments * (kSphereRings - 1) + 2);
        EXPECT_EQ(m.distanceColours, kMaxColours);
        EXPECT_EQ(m.bendingColours, kMaxColours);
        // Each pole has `segments` edges, of which kMaxColours get a colour.
        EXPECT_GE(m.distanceOverflow, 2 * (segments - kMaxColours));
        vertices.push_back(m.particles);
        peak.push_back(m.peakMiB);
        seconds.push_back(m.loadSeconds + m.buildSeconds);
    }
    const LogLogFit peakFit = fitLogLog(vertices, peak), timeFit = fitLogLog(vertices, seconds);
    std::printf("[ loading  ] growth exponents (log-log slope against particles): peak memory %.2f, load + build "
                "time %.2f (1 = linear)\n",
                peakFit.slope, timeFit.slope);
    // Linear is 1 (measured 0.9: there is a fixed part); uncapped, the
    // colouring's masks made it 1.26 (12 to 164 MiB; colouring 9 ms to 3.9 s).
    EXPECT_LT(peakFit.slope, 1.15);
    EXPECT_LT(seconds.back(), 30.0 * kTimeBoundScale) << "2000 segments";
}

}  // namespace
}  // namespace vksim::test
