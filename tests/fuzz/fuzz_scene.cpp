// Fuzz target: scene files (scene_loader.h), JSON text through validation
// and the mesh files it refers to. Bad input must end in a SceneError of one
// line; anything else escaping is a finding.
//
// The scene is read as if it were <scratch>/scenes/fuzz.json, where the
// scratch folder (one per process, removed at exit) holds copies of the
// shipped meshes in assets/ and of tests/meshes/ in meshes/: the paths that
// the shipped scenes and tests/bad_scenes/ use ("../assets/torus.obj",
// "../meshes/cube.node") then load real meshes, and the SDF and tetgen
// caches that loading writes land in the scratch folder, never in the
// checkout. The tetgen program is hidden (PATH is emptied): a child process
// per input would dominate the run, and tetgen's output is fuzz_tetgen's.
//
// Inputs asking for more signed-distance samples than kMaxFuzzSdfSamples in
// all (the sum of resolution^3 over the mesh colliders, one grid at 64) are
// skipped: a valid scene may ask for 16M samples (resolution 256), or for
// several grids, and baking them takes seconds by design. Under the
// sanitizers on a loaded 2-core machine a scene with two grids at 64 ran
// into libFuzzer's 10 s timeout (a false finding). The scene loader's checks
// of "resolution" are the same at any value, and fuzz_obj bakes fuzzed
// meshes.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <unistd.h>

#include "fuzz_checks.h"
#include "scene/scene_loader.h"

namespace {

namespace fs = std::filesystem;

constexpr double kMaxFuzzSdfSamples = 64.0 * 64.0 * 64.0;

// The signed-distance samples the input asks for: resolution^3 summed over
// every "resolution" key that holds a number (only mesh colliders have a
// scalar resolution). Text nlohmann cannot parse asks for none: the scene
// loader refuses it.
double sdfSamplesAskedFor(const nlohmann::json& value) {
    double samples = 0.0;
    if (value.is_array()) {
        for (const nlohmann::json& item : value) samples += sdfSamplesAskedFor(item);
    } else if (value.is_object()) {
        for (const auto& [key, item] : value.items()) {
            if (key == "resolution" && item.is_number()) {
                const double resolution = std::abs(item.get<double>());
                samples += resolution * resolution * resolution;
            }
            samples += sdfSamplesAskedFor(item);
        }
    }
    return samples;
}

class ScratchScenes {
public:
    ScratchScenes() {
        std::string pattern = (fs::temp_directory_path() / "vksim-fuzz-scene-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch folder");
        root_ = pattern;
        fs::create_directory(root_ / "scenes");
        copyFiles(fs::path(VKSIM_SOURCE_DIR) / "assets", root_ / "assets", ".obj");
        copyFiles(fs::path(VKSIM_SOURCE_DIR) / "tests" / "meshes", root_ / "meshes", "");
        ::setenv("PATH", "", 1);
    }
    ~ScratchScenes() {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }
    ScratchScenes(const ScratchScenes&) = delete;
    ScratchScenes& operator=(const ScratchScenes&) = delete;

    fs::path sceneFile() const { return root_ / "scenes" / "fuzz.json"; }

private:
    static void copyFiles(const fs::path& from, const fs::path& to, const std::string& extension) {
        fs::create_directory(to);
        for (const fs::directory_entry& entry : fs::directory_iterator(from))
            if (entry.is_regular_file() && (extension.empty() || entry.path().extension() == extension))
                fs::copy_file(entry.path(), to / entry.path().filename());
    }

    fs::path root_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const ScratchScenes scratch;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const double samples =
        sdfSamplesAskedFor(nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true));
    if (!(samples <= kMaxFuzzSdfSamples)) return 0;
    try {
        vksim::parseScene(text, scratch.sceneFile());
    } catch (const vksim::SceneError& error) {
        vksim::fuzz::requireOneLine(error.what());
    }
    return 0;
}
