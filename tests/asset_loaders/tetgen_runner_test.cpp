// Tetrahedralisation by the tetgen program (tetgen_runner.h): the error
// when it is missing, a real run on the cube and on the gingerbread man, and
// the cache next to the mesh. Runs that need the program are skipped,
// visibly, where it is not installed. What happens while it runs (the lines
// that say so, the time limit, a stop signal) is checked with a stand-in
// program, a shell script that sleeps.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <sstream>
#include <string>

#include <sys/stat.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_error.h"
#include "io/asset_file.h"
#include "io/child_process.h"
#include "io/tetgen_io.h"
#include "io/tetgen_runner.h"
#include "io/triangle_surface.h"

namespace vksim::test {
namespace {

bool tetgenInstalled() { return std::system("command -v tetgen > /dev/null 2>&1") == 0; }

double totalVolume(const TetMesh& mesh) {
    double volume = 0.0;
    for (const glm::uvec4& t : mesh.tets)
        volume += tetVolume(mesh.positions[t.x], mesh.positions[t.y], mesh.positions[t.z], mesh.positions[t.w]);
    return volume;
}

TEST(TetGenRunner, SwitchesFromOptions) {
    TetGenOptions options;
    EXPECT_EQ(tetgenSwitches(options), "pzQ");
    options.radiusEdgeRatio = 1.4;
    options.minDihedralDegrees = 12;
    options.maxVolume = 0.001;
    EXPECT_EQ(tetgenSwitches(options), "pzQq1.4/12a0.001");
}

TEST(TetGenRunner, MissingProgramIsOneClearLine) {
    const TriangleSurface cube = loadTriangleSurface(meshCorpus("cube_quads.obj"));
    TetGenOptions options;
    options.program = "vksim-no-such-tetgen";
    try {
        runTetGen(cube, options);
        FAIL() << "expected an AssetError";
    } catch (const AssetError& error) {
        const std::string message = error.what();
        std::cout << "[tetgen] " << message << "\n";
        EXPECT_NE(message.find("cube_quads.obj: vksim-no-such-tetgen: program not found in PATH; install it (Debian: "
                               "apt-get install tetgen)"),
                  std::string::npos);
    }
}

TEST(TetGenRunner, OpenSurfaceIsRefusedBeforeRunning) {
    const TriangleSurface open = loadTriangleSurface(meshCorpus("open_cube.obj"));
    EXPECT_THROW(runTetGen(open, {}), AssetError);
}

TEST(TetGenRunner, FillsTheCubeAndCachesTheResult) {
    if (!tetgenInstalled()) GTEST_SKIP() << "tetgen is not installed";
    ScratchFolder folder;
    const std::filesystem::path obj = folder / "cube.obj";
    std::filesystem::copy_file(meshCorpus("cube_quads.obj"), obj);
    const TriangleSurface cube = loadTriangleSurface(obj);
    TetGenOptions options;
    options.radiusEdgeRatio = 1.5;
    options.maxVolume = 0.01;

    const CachedTetMesh first = loadOrTetrahedralize(cube, obj, options);
    std::cout << "[tetgen] " << describeTetGenRun(obj.string(), first, options) << "\n";
    EXPECT_FALSE(first.fromCache);
    EXPECT_NEAR(totalVolume(*first.mesh), 1.0, 1e-12);
    EXPECT_GE(first.mesh->tets.size(), 100u);  // a volume bound of 0.01 needs at least 100
    EXPECT_TRUE(std::filesystem::exists(first.nodeFile));

    const CachedTetMesh second = loadOrTetrahedralize(cube, obj, options);
    std::cout << "[tetgen] " << describeTetGenRun(obj.string(), second, options) << "\n";
    EXPECT_TRUE(second.fromCache);
    EXPECT_EQ(second.mesh->positions, first.mesh->positions);
    EXPECT_EQ(second.mesh->tets, first.mesh->tets);

    // Other options use another cache file; an edited mesh invalidates.
    options.maxVolume = 0.05;
    EXPECT_NE(loadOrTetrahedralize(cube, obj, options).nodeFile, first.nodeFile);
    options.maxVolume = 0.01;
    writeTextFile(obj, readAssetFile(obj).bytes + "# edited\n");
    const TriangleSurface edited = loadTriangleSurface(obj);
    const CachedTetMesh third = loadOrTetrahedralize(edited, obj, options);
    EXPECT_FALSE(third.fromCache);
    EXPECT_NE(third.cacheNote.find("another version of the mesh"), std::string::npos) << third.cacheNote;
}

TEST(TetGenRunner, FillsTheGingerbreadMan) {
    if (!tetgenInstalled()) GTEST_SKIP() << "tetgen is not installed";
    const TriangleSurface man =
        loadTriangleSurface(std::filesystem::path(VKSIM_SOURCE_DIR) / "assets" / "gingerbread.obj");
    TetGenOptions options;
    options.radiusEdgeRatio = 2.0;
    const TetMesh mesh = runTetGen(man, options);
    std::cout << "[tetgen] " << describeTetMesh("gingerbread.obj", mesh) << "\n";
    // The tetrahedra fill the volume the surface encloses (up to the rounding
    // of the points -q adds on its faces).
    EXPECT_NEAR(totalVolume(mesh), man.stats.signedVolume, 1e-6 * man.stats.signedVolume);
    EXPECT_NO_THROW(validateTets(mesh.positions, mesh.tets, "gingerbread"));
}

// A stand-in for tetgen: a shell script running `body`.
std::filesystem::path standIn(const ScratchFolder& folder, const std::string& body) {
    const std::filesystem::path script = folder / "fake-tetgen";
    writeTextFile(script, "#!/bin/sh\n" + body + "\n");
    ::chmod(script.c_str(), 0755);
    return script;
}

std::size_t countOf(const std::string& text, const std::string& part) {
    std::size_t count = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
    return count;
}

TEST(TetGenRunner, SaysThatItRunsAndStopsAtTheLimit) {
    ScratchFolder folder;
    const TriangleSurface cube = loadTriangleSurface(meshCorpus("cube_quads.obj"));
    TetGenOptions options;
    options.program = standIn(folder, "exec sleep 30").string();
    options.timeoutSeconds = 1.0;
    options.progressSeconds = 0.25;
    std::ostringstream said;
    options.progress = &said;
    const auto start = std::chrono::steady_clock::now();
    try {
        runTetGen(cube, options);
        FAIL() << "expected an AssetError";
    } catch (const AssetError& error) {
        const std::string message = error.what();
        std::cout << "[tetgen] " << message << "\n";
        EXPECT_NE(message.find("cube_quads.obj: " + options.program + " did not finish within its limit of 1 s"),
                  std::string::npos);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[tetgen] stopped after " << seconds << " s; it said:\n" << said.str();
    // Killed at the limit, not after the 30 s the program would take (the
    // bound leaves a loaded machine 9 s of slack).
    EXPECT_LT(seconds, 10.0);
    const std::string meshing = options.program + ": meshing " + cube.file + " (";
    EXPECT_TRUE(said.str().starts_with(meshing + "limit 1 s)\n")) << said.str();
    // Then a line every 0.25 s for the second it ran, with the seconds so far.
    EXPECT_GE(countOf(said.str(), meshing), 3u) << said.str();
    EXPECT_GE(countOf(said.str(), " s, limit 1 s)\n"), 2u) << said.str();
}

volatile std::sig_atomic_t recordedSignal = 0;
void recordSignal(int signal) { recordedSignal = signal; }

// The stand-in sends vksim (this test) SIGTERM once it runs, as a user
// would, then sleeps: the wait must end it, reap it, remove its folder and
// throw StoppedBySignal, then put back the handler that was there before.
void expectStopEndsTheChild(const std::string& previous) {
    ScratchFolder folder;
    const TriangleSurface cube = loadTriangleSurface(meshCorpus("cube_quads.obj"));
    TetGenOptions options;
    options.program = standIn(folder, "echo $$ > '" + (folder / "pid").string() + "'; dirname \"$2\" > '" +
                                          (folder / "folder").string() + "'; kill -TERM $PPID; exec sleep 30")
                          .string();
    std::ostringstream said;
    options.progress = &said;
    try {
        runTetGen(cube, options);
        FAIL() << "expected StoppedBySignal";
    } catch (const StoppedBySignal& stop) {
        std::cout << "[tetgen] " << previous << " handler before: " << stop.what() << "\n";
        EXPECT_EQ(stop.signal(), SIGTERM);
        EXPECT_NE(std::string(stop.what()).find(options.program + " meshing " + cube.file + " was ended after"),
                  std::string::npos);
    }
    const pid_t child = std::stoi(readAssetFile(folder / "pid").bytes);
    std::string temporary = readAssetFile(folder / "folder").bytes;
    temporary.pop_back();  // the newline
    EXPECT_TRUE(temporary.find("vksim-tetgen-") != std::string::npos) << temporary;
    // Gone, not even a zombie: it was reaped.
    const int alive = ::kill(child, 0), error = errno;
    EXPECT_EQ(alive, -1) << "tetgen stand-in " << child << " still exists";
    EXPECT_EQ(error, ESRCH);
    EXPECT_FALSE(std::filesystem::exists(temporary)) << temporary;
}

TEST(TetGenRunner, StopSignalEndsTheChildAndRemovesItsFolder) {
    struct sigaction current {};
    ASSERT_EQ(sigaction(SIGTERM, nullptr, &current), 0);
    ASSERT_EQ(current.sa_handler, SIG_DFL);
    expectStopEndsTheChild("default");
    ASSERT_EQ(sigaction(SIGTERM, nullptr, &current), 0);
    EXPECT_EQ(current.sa_handler, SIG_DFL);

    // A handler of the embedder's (or run/stop_signal.h's) is put back and
    // given the signal.
    struct sigaction own {};
    own.sa_handler = &recordSignal;
    sigemptyset(&own.sa_mask);
    ASSERT_EQ(sigaction(SIGTERM, &own, nullptr), 0);
    recordedSignal = 0;
    expectStopEndsTheChild("a function");
    EXPECT_EQ(recordedSignal, SIGTERM);
    ASSERT_EQ(sigaction(SIGTERM, nullptr, &current), 0);
    EXPECT_EQ(current.sa_handler, &recordSignal);
    std::signal(SIGTERM, SIG_DFL);
}

}  // namespace
}  // namespace vksim::test
