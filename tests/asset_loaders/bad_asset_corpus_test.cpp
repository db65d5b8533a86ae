// Every file of the bad-input corpus in tests/meshes/ is rejected with one
// line naming the file, the line and the element (tests/meshes/expected_errors.txt).
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_error.h"
#include "io/tetgen_io.h"
#include "io/triangle_surface.h"

namespace vksim::test {
namespace {

struct BadCase {
    std::string files;
    std::string expected;
};

std::vector<BadCase> readCorpus() {
    std::ifstream in(meshCorpus("expected_errors.txt"));
    std::vector<BadCase> cases;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        cases.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return cases;
}

// Loads what `files` names the way the engine would; returns the error.
std::string errorOf(const std::string& files) {
    try {
        if (const auto plus = files.find('+'); plus != std::string::npos) {
            loadTetGen(meshCorpus(files.substr(0, plus)), meshCorpus(files.substr(plus + 1)));
        } else if (files.rfind("closed:", 0) == 0) {
            requireClosedSurface(loadTriangleSurface(meshCorpus(files.substr(7))), "a mesh collider");
        } else if (files.rfind("cloth:", 0) == 0) {
            requireManifoldEdges(loadTriangleSurface(meshCorpus(files.substr(6))), "a cloth");
        } else {
            loadTriangleSurface(meshCorpus(files));
        }
    } catch (const AssetError& error) {
        return error.what();
    }
    return "(no error)";
}

TEST(BadAssetCorpus, EveryFileIsRejectedWithItsOneLineError) {
    const std::vector<BadCase> cases = readCorpus();
    ASSERT_GE(cases.size(), 25u);
    for (const BadCase& c : cases) {
        const std::string error = errorOf(c.files);
        std::cout << "[bad asset] " << c.files << " -> " << error << "\n";
        EXPECT_NE(error.find(c.expected), std::string::npos) << c.files << ": got " << error;
        EXPECT_EQ(error.find('\n'), std::string::npos) << "not one line: " << error;
    }
}

}  // namespace
}  // namespace vksim::test
