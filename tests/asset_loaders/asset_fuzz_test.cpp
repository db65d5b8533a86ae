// Fuzz-style robustness of the loaders: every prefix of good files (a file
// cut off anywhere) and thousands of random byte edits of them must either
// load or fail with an AssetError: no other exception, no crash. The
// asset-loader tests are built with AddressSanitizer and UBSan
// (tests/asset_loaders/asset_tests.cmake), which turns a silent overrun in
// the parsers into a failure.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "../common/mesh_fixtures.h"
#include "io/asset_error.h"
#include "io/asset_file.h"
#include "io/obj_loader.h"
#include "io/tetgen_io.h"
#include "io/triangle_surface.h"

namespace vksim::test {
namespace {

struct Outcome {
    int loaded = 0;
    int rejected = 0;
};

template <typename Load>
void expectLoadsOrAssetError(const std::string& text, Load&& load, Outcome& outcome) {
    try {
        load(text);
        ++outcome.loaded;
    } catch (const AssetError& error) {
        const std::string message = error.what();
        ASSERT_EQ(message.find('\n'), std::string::npos) << message;
        ++outcome.rejected;
    } catch (const std::exception& error) {
        FAIL() << "not an AssetError: " << error.what() << "\n  input: " << text;
    }
}

// Random edits: overwrite, insert or delete a few bytes, with bytes drawn
// from the file's own alphabet, digits, separators and junk.
std::string mutate(const std::string& text, std::mt19937& rng) {
    static const std::string alphabet = "0123456789 \t\n\r/-+.eEvfna#\x01\xff";
    std::string edited = text;
    std::uniform_int_distribution<int> edits(1, 4), kind(0, 2);
    for (int e = edits(rng); e > 0 && !edited.empty(); --e) {
        const std::size_t at = std::uniform_int_distribution<std::size_t>(0, edited.size() - 1)(rng);
        const char c = alphabet[std::uniform_int_distribution<std::size_t>(0, alphabet.size() - 1)(rng)];
        switch (kind(rng)) {
            case 0: edited[at] = c; break;
            case 1: edited.insert(edited.begin() + static_cast<std::ptrdiff_t>(at), c); break;
            default: edited.erase(at, 1); break;
        }
    }
    return edited;
}

template <typename Load>
void fuzz(const std::string& name, const std::string& good, Load&& load) {
    Outcome cut, edited;
    for (std::size_t length = 0; length <= good.size(); ++length)
        expectLoadsOrAssetError(good.substr(0, length), load, cut);
    std::mt19937 rng(2024);
    for (int i = 0; i < 3000; ++i) expectLoadsOrAssetError(mutate(good, rng), load, edited);
    std::cout << fmt::format("[fuzz] {}: {} prefixes ({} load, {} rejected); 3000 random edits ({} load, {} "
                             "rejected)\n",
                             name, good.size() + 1, cut.loaded, cut.rejected, edited.loaded, edited.rejected);
    EXPECT_GT(cut.rejected, 0);
    EXPECT_GT(edited.rejected, 0);
}

TEST(AssetFuzz, ObjPrefixesAndEdits) {
    for (const char* name : {"cube_quads.obj", "tetrahedron.obj"}) {
        const std::string good = readAssetFile(meshCorpus(name)).bytes;
        fuzz(name, good, [&](const std::string& text) {
            const TriangleSurface surface = makeTriangleSurface(parseObj(text, name), name);
            if (surface.stats.closed()) requireClosedSurface(surface, "a test");
        });
    }
}

TEST(AssetFuzz, TetGenPrefixesAndEdits) {
    const std::string node = readAssetFile(meshCorpus("cube.node")).bytes;
    const std::string ele = readAssetFile(meshCorpus("cube.ele")).bytes;
    fuzz("cube.node", node, [&](const std::string& text) { parseTetGen(text, "cube.node", ele, "cube.ele"); });
    fuzz("cube.ele", ele, [&](const std::string& text) { parseTetGen(node, "cube.node", text, "cube.ele"); });
}

}  // namespace
}  // namespace vksim::test
