// Fuzz target: vksim's command-line parser (app/command_line.h). The input
// is split on NUL bytes and newlines into the arguments after the program
// name. Parsing must end in options, --help text or a usage error (status 2
// and one line "vksim: ... (see --help)"); no exception may escape. Options
// that parse must be within what their checks promise, since the run uses
// them unchecked: a value that slipped past a check is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "app/command_line.h"
#include "app/command_line_values.h"
#include "app/output_file_types.h"
#include "fuzz_checks.h"

namespace {

using vksim::fuzz::fail;

void requireIn(std::string_view what, uint64_t value, uint64_t min, uint64_t max) {
    if (value < min || value > max) fail("parsed option out of its range", fmt::format("{} = {}", what, value));
}

void checkOptions(const vksim::CommandLine& parsed) {
    const vksim::RunOptions& run = parsed.run;
    if (run.frames) requireIn("--frames", *run.frames, 1, 100000000);
    requireIn("--export-every", run.exportEvery, 1, 100000000);
    requireIn("--size width", run.width, vksim::kMinPixels, vksim::kMaxPixels);
    requireIn("--size height", run.height, vksim::kMinPixels, vksim::kMaxPixels);
    if (!run.device.empty() && !vksim::checkDeviceSelector(run.device).empty())
        fail("parsed --device that its check refuses", run.device);
    if (!run.timingsFile.empty() && !vksim::isSupportedTimingsPath(run.timingsFile))
        fail("parsed --timings of an unsupported type", run.timingsFile);
    if (!run.posesFile.empty() && !vksim::isSupportedPosesPath(run.posesFile))
        fail("parsed --poses of an unsupported type", run.posesFile);
    if (run.exportFormat == vksim::MeshFormat::Ply && run.exportDir.empty())
        fail("--export-format without --export", "ply");
    const vksim::BenchOptions& bench = parsed.benchOptions;
    // 1 is a size: batch-cloth's one copy; a cloth scene refuses it as the
    // scene loader refuses a 1x1 cloth, in one line.
    for (uint32_t size : bench.sizes) requireIn("bench --sizes", size, 1, 4096);
    requireIn("bench --frames", bench.frames, 1, 1000000);
    requireIn("bench --warmup", bench.warmup, 0, 1000000);
    if (!bench.outFile.empty() && !vksim::isSupportedBenchPath(bench.outFile))
        fail("parsed bench --out of an unsupported type", bench.outFile);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> args{"vksim"};
    std::size_t start = 0;
    while (start <= input.size()) {
        const std::size_t end = std::min(input.find('\0', start), input.find('\n', start));
        args.emplace_back(input.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) break;
        start = end + 1;
    }
    if (input.empty()) args.pop_back();  // no input: no arguments
    std::vector<const char*> argv;
    for (const std::string& arg : args) argv.push_back(arg.c_str());

    std::ostringstream out, err;
    const vksim::ParsedCommandLine parsed = vksim::parseCommandLine(int(argv.size()), argv.data(), out, err);
    if (!parsed.exitStatus) {
        checkOptions(parsed.options);
    } else if (*parsed.exitStatus == vksim::kExitUsage) {
        const std::string message = err.str();
        if (message.rfind("vksim: ", 0) != 0 || message.find('\n') != message.size() - 1)
            fail("usage error is not one line starting with 'vksim: '", message);
    } else if (*parsed.exitStatus != vksim::kExitOk || out.str().empty()) {
        fail("neither options, help nor a usage error", fmt::format("status {}", *parsed.exitStatus));
    }
    return 0;
}
