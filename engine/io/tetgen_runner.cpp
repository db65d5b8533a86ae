#include "io/tetgen_runner.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "io/asset_error.h"
#include "io/asset_file.h"
#include "io/cache_file.h"
#include "io/child_process.h"
#include "io/fnv1a.h"
#include "io/quoted_input.h"
#include "io/tetgen_io.h"

namespace vksim {
namespace {

// A private folder for one run, removed with everything in it.
class TemporaryFolder {
public:
    TemporaryFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "vksim-tetgen-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw AssetError(fmt::format("cannot create a temporary folder for tetgen: {}", std::strerror(errno)));
        path_ = pattern;
    }
    ~TemporaryFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

std::string formatOff(const TriangleSurface& surface) {
    std::string text = fmt::format("OFF\n{} {} 0\n", surface.positions.size(), surface.triangles.size() / 3);
    for (const glm::dvec3& p : surface.positions) text += fmt::format("{:.17g} {:.17g} {:.17g}\n", p.x, p.y, p.z);
    for (std::size_t t = 0; t < surface.triangles.size(); t += 3)
        text += fmt::format("3 {} {} {}\n", surface.triangles[t], surface.triangles[t + 1], surface.triangles[t + 2]);
    return text;
}

// The last non-empty line the program printed, for the error message.
std::string lastLine(const std::filesystem::path& log) {
    std::string text;
    try {
        text = readAssetFile(log).bytes;
    } catch (const AssetError&) {
        return {};
    }
    std::istringstream lines(text);
    std::string line, last;
    while (std::getline(lines, line))
        if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
    if (!last.empty() && last.back() == '\r') last.pop_back();
    return last.size() > 200 ? last.substr(0, 200) + "..." : last;
}

// Runs `argv` (the tetgen program on a surface), saying so on
// options.progress; returns the wait status of a run that ended by itself.
int runProgram(const std::vector<std::string>& argv, const std::filesystem::path& log, const TetGenOptions& options,
               const std::string& meshName) {
    std::ostream& out = options.progress ? *options.progress : std::cerr;
    const auto say = [&](double seconds) {
        const std::string elapsed = seconds > 0.0 ? fmt::format("{:.0f} s, ", seconds) : std::string();
        out << fmt::format("{}: meshing {} ({}limit {:g} s)\n", argv[0], meshName, elapsed, options.timeoutSeconds)
            << std::flush;
    };
    const ChildProgram program{argv, log, options.timeoutSeconds, options.progressSeconds, say};
    const ChildOutcome outcome = runChildProcess(program, fmt::format("{} meshing {}", argv[0], meshName));
    if (outcome.spawnError == ENOENT)
        throw AssetError(fmt::format("{}: {}: program not found in PATH; install it (Debian: apt-get install tetgen) "
                                     "or give the tetrahedra as \"node\" and \"ele\" files",
                                     meshName, argv[0]));
    if (outcome.spawnError != 0)
        throw AssetError(fmt::format("{}: cannot run {}: {}", meshName, argv[0], std::strerror(outcome.spawnError)));
    if (outcome.waitError != 0)
        throw AssetError(fmt::format("{}: waiting for {}: {}", meshName, argv[0], std::strerror(outcome.waitError)));
    if (outcome.timedOut)
        throw AssetError(fmt::format("{}: {} did not finish within its limit of {:g} s (stopped); relax the quality "
                                     "options",
                                     meshName, argv[0], options.timeoutSeconds));
    return outcome.waitStatus;
}

// What the cache header records; the modification time is informative and
// not compared (a checkout that only touches the file keeps the cache).
std::string cacheHeader(const TriangleSurface& surface, const TetGenOptions& options, bool withTime) {
    std::string header = fmt::format("vksim tetgen cache v1: source-size {} source-fnv1a {:016x} weld-tolerance {:a} "
                                     "switches {}",
                                     surface.source.size, surface.source.hash, surface.weldTolerance,
                                     tetgenSwitches(options));
    if (withTime) header += fmt::format(" source-mtime-ns {}", surface.source.modifiedNs);
    return header;
}

// The first line of a cache file without "# " and without its time.
std::string recordedHeader(std::string_view text) {
    std::string_view line = text.substr(0, text.find('\n'));
    if (line.substr(0, 2) != "# ") return {};
    line.remove_prefix(2);
    return std::string(line.substr(0, line.find(" source-mtime-ns ")));
}

}  // namespace

std::string tetgenSwitches(const TetGenOptions& options) {
    std::string switches = "pzQ";
    if (options.radiusEdgeRatio) {
        switches += fmt::format("q{:g}", *options.radiusEdgeRatio);
        if (options.minDihedralDegrees) switches += fmt::format("/{:g}", *options.minDihedralDegrees);
    }
    if (options.maxVolume) switches += fmt::format("a{:g}", *options.maxVolume);
    return switches;
}

TetMesh runTetGen(const TriangleSurface& surface, const TetGenOptions& options) {
    requireClosedSurface(surface, "tetgen");
    const TemporaryFolder folder;
    const std::filesystem::path input = folder.path() / "surface.off";
    if (auto failed = writeCacheFile(input, formatOff(surface)))
        throw AssetError(fmt::format("{}: cannot write tetgen's input {}: {}", surface.file, input.string(), *failed));
    const std::filesystem::path log = folder.path() / "tetgen.log";
    const std::string switches = "-" + tetgenSwitches(options);
    const int status = runProgram({options.program, switches, input.string()}, log, options, surface.file);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        const std::string how = WIFSIGNALED(status)
                                    ? fmt::format("was killed by signal {} ({})", WTERMSIG(status),
                                                  ::strsignal(WTERMSIG(status)))
                                    : fmt::format("exited with status {}", WEXITSTATUS(status));
        const std::string said = lastLine(log);
        throw AssetError(fmt::format("{}: {} {} {}{}", surface.file, options.program, switches, how,
                                     said.empty() ? "" : fmt::format(" (its last words: \"{}\")", said)));
    }
    try {
        return loadTetGen(folder.path() / "surface.1.node", folder.path() / "surface.1.ele");
    } catch (const AssetError& error) {
        throw AssetError(fmt::format("{}: {} {} wrote an unusable mesh: {}", surface.file, options.program, switches,
                                     error.what()));
    }
}

CachedTetMesh loadOrTetrahedralize(const TriangleSurface& surface, const std::filesystem::path& meshFile,
                                   const TetGenOptions& options) {
    const uint64_t key = fnv1a64(fmt::format("{} {:a}", tetgenSwitches(options), surface.weldTolerance));
    CachedTetMesh result;
    const std::string stem = meshFile.string() + fmt::format(".tet-{:08x}", static_cast<uint32_t>(key));
    result.nodeFile = stem + ".node";
    result.eleFile = stem + ".ele";
    const std::string expected = cacheHeader(surface, options, false);

    std::error_code error;
    if (std::filesystem::exists(result.nodeFile, error) && std::filesystem::exists(result.eleFile, error)) {
        try {
            const AssetFile node = readAssetFile(result.nodeFile), ele = readAssetFile(result.eleFile);
            if (recordedHeader(node.bytes) == expected && recordedHeader(ele.bytes) == expected) {
                result.mesh = std::make_shared<const TetMesh>(
                    parseTetGen(node.bytes, clipInput(result.nodeFile.string()), ele.bytes,
                                clipInput(result.eleFile.string())));
                result.fromCache = true;
                return result;
            }
            result.cacheNote = "cache not used: made from another version of the mesh or with other options";
        } catch (const AssetError& unusable) {
            result.cacheNote = fmt::format("cache not used: {}", unusable.what());
        }
    }

    const auto start = std::chrono::steady_clock::now();
    auto mesh = std::make_shared<const TetMesh>(runTetGen(surface, options));
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.mesh = mesh;
    const std::string header = cacheHeader(surface, options, true);
    // The .node file is written last: a cache whose .ele is newer than its
    // .node has matching headers only when both were written completely.
    auto failed = writeCacheFile(result.eleFile, formatTetGenEle(*mesh, header));
    if (!failed) failed = writeCacheFile(result.nodeFile, formatTetGenNode(*mesh, header));
    if (failed)
        result.cacheNote += fmt::format("{}cache not written: {}", result.cacheNote.empty() ? "" : "; ", *failed);
    return result;
}

std::string describeTetGenRun(const std::string& meshFile, const CachedTetMesh& cached, const TetGenOptions& options) {
    std::string text = fmt::format("{}: tetgen -{} ", meshFile, tetgenSwitches(options));
    if (cached.fromCache) {
        text += fmt::format("loaded from cache {}", clipInput(cached.nodeFile.string()));
    } else {
        text += fmt::format("ran in {:.2f} s", cached.seconds);
        if (cached.cacheNote.find("not written") == std::string::npos)
            text += fmt::format(", cached in {}", clipInput(cached.nodeFile.string()));
        if (!cached.cacheNote.empty()) text += fmt::format(" ({})", cached.cacheNote);
    }
    return text + "; " + describeTetMesh("tetrahedra", *cached.mesh);
}

}  // namespace vksim
