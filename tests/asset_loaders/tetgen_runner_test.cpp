// Tetrahedralisation by the tetgen program (tetgen_runner.h): the error
// when it is missing, a real run on the cube and on the gingerbread man, and
// the cache next to the mesh. Runs that need the program are skipped,
// visibly, where it is not installed.
#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_error.h"
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

}  // namespace
}  // namespace vksim::test
