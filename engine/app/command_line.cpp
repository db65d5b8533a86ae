#include "app/command_line.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <ostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "app/command_line_values.h"
#include "app/output_file_types.h"
#include "bench/bench_help.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

std::string lowerCase(std::string text) {
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

// CLI11 quotes arguments whole in its messages ("--display: VALUE not in
// {...}", "The following argument was not expected: VALUE"): each long one
// is shown in brief there (io/quoted_input.h), and so is the value of a long
// "--option=value".
std::string shortenArguments(std::string message, int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        const std::size_t equals = argument.find('=');
        for (const std::string_view part :
             {argument, equals == std::string_view::npos ? std::string_view() : argument.substr(equals + 1)}) {
            if (part.size() <= kMaxQuotedBytes) continue;
            const std::string shown = quoteArgument(part);
            for (std::size_t at = message.find(part); at != std::string::npos;
                 at = message.find(part, at + shown.size()))
                message.replace(at, part.size(), shown);
        }
    }
    return message;
}

}  // namespace

ParsedCommandLine parseCommandLine(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    ParsedCommandLine parsed;
    RunOptions& options = parsed.options.run;
    uint32_t frames = 0;

    CLI::App cli{"vksim: real-time physics simulation on Vulkan compute"};
    // Flags take no value: "--headless=1" is refused, not read as a number.
    cli.option_defaults()->disable_flag_override();
    // Numbers are checked as text (command_line_values.h): CLI11's Range
    // would wrap or misreport some of them.
    auto integerIn = [](uint64_t min, uint64_t max) {
        return [min, max](const std::string& text) { return checkBoundedInteger(text, min, max); };
    };
    cli.add_option("scene", options.scenePath, "Scene file (JSON); default scenes/cloth_sphere.json")
        ->check(checkPath);
    cli.add_flag("--headless", options.headless, "Run without a window and print per-pass GPU timings");
    cli.add_option("--frames", frames, "Frames to simulate (headless default 300; windowed: until closed)")
        ->check(integerIn(1, kMaxCommandLineFrames));
    cli.add_flag("--validate", options.validate,
                 "Enable Khronos validation with synchronization validation; any message makes the exit status 3");
    cli.add_flag("--list-devices", parsed.options.listDevices, "List Vulkan devices and whether vksim can use them");
    cli.add_option("--device", options.device, "Device to use: index from --list-devices or a name substring")
        ->check(checkDeviceSelector);
    cli.add_option("--timings", options.timingsFile, "Write per-pass timings to FILE (.json or .csv)")
        ->check(checkPath)
        ->check([](const std::string& path) {
            return isSupportedTimingsPath(path) ? std::string() : "expected a file name ending in .json or .csv";
        });
    cli.add_flag("--hash", options.printHash, "Print 'state-hash: <16 hex digits>' of all positions and body poses at the end");
    cli.add_flag("--list-passes", options.listPasses,
                 "Print the scene's step plan (stage kind, owner, pass name; step order) and exit; implies --headless");
    cli.add_flag("--quiet", options.quiet, "Do not print the model summary, the timing table or the progress bar");
    CLI::Option* exportOption =
        cli.add_option("--export", options.exportDir,
                       "Write each deformable object's and rigid body's surface per frame to "
                       "DIR/<name>_<frame:05d>.obj|.ply "
                       "(frame: the 0-based simulation frame index; DIR is created)")
            ->check(checkPath);
    std::string exportFormat = "obj";
    cli.add_option("--export-format", exportFormat, "Mesh files: obj (text, vertex normals; default) or ply "
                                                    "(binary little-endian)")
        ->check(CLI::IsMember({"obj", "ply"}, CLI::ignore_case))
        ->needs(exportOption);
    cli.add_option("--export-every", options.exportEvery, "Export frames 0, K, 2K, ... (default 1: every frame)")
        ->check(integerIn(1, 100000000))
        ->needs(exportOption);
    cli.add_option("--trace", options.traceFile,
                   "Write a Chrome trace (open in Perfetto or chrome://tracing) of every pass run of every frame "
                   "to FILE.json")
        ->check(checkPath)
        ->check([](const std::string& path) {
            return std::filesystem::path(path).extension() == ".json" ? std::string()
                                                                      : "expected a file name ending in .json";
        });
    cli.add_option("--poses", options.posesFile,
                   "Write every rigid body's pose and velocity at the end of every frame to FILE (.csv or .json): "
                   "frame,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz")
        ->check(checkPath)
        ->check([](const std::string& path) {
            return isSupportedPosesPath(path) ? std::string() : "expected a file name ending in .csv or .json";
        });

    cli.add_option("--screenshot", options.screenshotFile,
                   "After the last frame (--frames N; default 300) save what the window shows to FILE.png; with "
                   "--headless the same image is rendered offscreen")
        ->check(checkPath)
        ->check([](const std::string& path) {
            return std::filesystem::path(path).extension() == ".png" ? std::string()
                                                                     : "expected a file name ending in .png";
        });
    cli.add_option("--load-state", options.loadStateFile,
                   "Before the first frame, restore the state FILE holds (written by --save-state for the same "
                   "objects); the frames continue from its frame")
        ->check(checkPath);
    cli.add_option("--save-state", options.saveStateFile,
                   "After the last frame (or a stop by a signal), write the simulation's state to FILE: every "
                   "particle, body and solver iterate, bit for bit")
        ->check(checkPath);
    std::string size;
    cli.add_option("--size", size, "Window (and headless screenshot) size in pixels, WxH; default 1280x720")
        ->check(checkPixelSize);
    std::string presentMode = "fifo";
    cli.add_option("--present-mode", presentMode,
                   "Window presentation: fifo (vsync, default), mailbox (vsync, no waiting) or immediate (no vsync); "
                   "falls back to fifo with a notice when the surface lacks it")
        ->check(CLI::IsMember({"fifo", "mailbox", "immediate"}, CLI::ignore_case));
    bool noOverlay = false;
    cli.add_flag("--no-overlay", noOverlay, "Start with the overlay hidden (F1 or Tab toggles it)");

    std::string display = "shaded";
    cli.add_option("--display", display,
                   "Display mode: shaded (default), wireframe, particles, graph-colour (constraint colouring) or "
                   "strain (stretch ratio); keys 1-5 and M in the window")
        ->check(CLI::IsMember({"shaded", "wireframe", "particles", "graph-colour", "strain"}, CLI::ignore_case));
    bool hideColliders = false;
    cli.add_flag("--hide-colliders", hideColliders, "Do not draw the colliders (C in the window)");
    bool showContacts = false;
    cli.add_flag("--show-contacts", showContacts,
                 "Draw the contact pairs between objects as lines, in their colours (K in the window)");
    bool showWind = false;
    cli.add_flag("--show-wind", showWind,
                 "Draw the wind field: the air's velocity at every particle that feels it, as lines");

    bool showAnchors = false;
    cli.add_flag("--show-anchors", showAnchors,
                 "Draw the tethers and attachments: a line from every held particle to its anchor");

    bool showConvergence = false;
    cli.add_flag("--show-convergence", showConvergence,
                 "Start with the overlay's Convergence panel open (residuals "
                 "per iteration, energies per frame)");

    BenchOptions& bench = parsed.options.benchOptions;
    CLI::App* benchCommand = cli.add_subcommand(
        "bench", "Run the benchmark suite headless: per-pass GPU time, throughput, bandwidth, scaling");
    benchCommand->add_option("--filter", bench.filter, "Only the scenes whose name contains NAME");
    // One value, split here: CLI11's own splitting drops empty entries, and
    // "--sizes ,, --quiet" then took "--quiet" for the sizes.
    std::string sizes;
    benchCommand->add_option("--sizes", sizes, "Sizes to run, comma-separated (e.g. 64,128,256); "
                                               "default: each scene's list for this device")
        ->check([](const std::string& text) { return checkIntegerList(text, 1, 4096); });
    benchCommand->add_option("--frames", bench.frames, "Measured frames per size")
        ->capture_default_str()
        ->check(integerIn(1, 1000000));
    benchCommand->add_option("--warmup", bench.warmup, "Frames run before measuring, per size")
        ->capture_default_str()
        ->check(integerIn(0, 1000000));
    benchCommand->add_option("--out", bench.outFile, "Also write the results to FILE (.csv or .json)")
        ->check(checkPath)
        ->check([](const std::string& path) {
            return isSupportedBenchPath(path) ? std::string() : "expected a file name ending in .json or .csv";
        });
    benchCommand->add_option("--device", bench.device, "Device to use: index from --list-devices or a name substring")
        ->check(checkDeviceSelector);
    benchCommand->add_flag("--validate", bench.validate,
                           "Enable Khronos validation with synchronization validation; any message makes the exit "
                           "status 3 (slows the run: not for measuring)");
    benchCommand->add_flag("--quiet", bench.quiet, "No progress bar on stderr");
    benchCommand->add_flag("--springs-convergence", bench.springsConvergence,
                           "Instead of the suite: GPU time for Newton and vertex block descent to reach the same "
                           "implicit Euler objective on one substep of cloth-springs (size: the first of --sizes)");
    benchCommand->add_flag("--solids-convergence", bench.solidsConvergence,
                           "Instead of the suite: GPU time for XPBD, vertex block descent and projective dynamics "
                           "to reach the same implicit Euler objective on one substep of a Neo-Hookean block (cells "
                           "per side: the first of --sizes)")
        ->excludes("--springs-convergence");
    benchCommand->footer(benchHelpFooter());

    try {
        cli.parse(argc, argv);
    } catch (const CLI::Success& e) {
        parsed.exitStatus = cli.exit(e, out, err);
        return parsed;
    } catch (const CLI::ParseError& e) {
        // CLI11 names a flag given a value ("--headless=1") without its
        // dashes: "headless was given a disallowed flag override".
        const std::string message = shortenArguments(e.what(), argc, argv);
        const std::string_view what = message, override = " was given a disallowed flag override";
        if (what.ends_with(override))
            err << "vksim: --" << what.substr(0, what.size() - override.size())
                << " is a flag and takes no value (see --help)\n";
        else
            err << "vksim: " << what << " (see --help)\n";
        parsed.exitStatus = kExitUsage;
        return parsed;
    }
    parsed.options.bench = bool(*benchCommand);
    if (const auto list = parseIntegerList(sizes, 1, 4096)) bench.sizes = *list;  // checked above when given
    if (cli.count("--frames")) options.frames = frames;
    options.exportFormat = exportFormat == "ply" ? MeshFormat::Ply : MeshFormat::Obj;
    if (const auto pixels = parsePixelSize(size)) {  // checked above when given
        options.width = pixels->width;
        options.height = pixels->height;
    }
    presentMode = lowerCase(presentMode);
    options.presentMode = presentMode == "mailbox"     ? PresentMode::Mailbox
                          : presentMode == "immediate" ? PresentMode::Immediate
                                                       : PresentMode::Fifo;
    options.overlay = !noOverlay;
    options.display.colliders = !hideColliders;
    options.display.contacts = showContacts;
    options.display.wind = showWind;
    options.display.anchors = showAnchors;
    options.showConvergence = showConvergence;
    display = lowerCase(display);
    for (size_t i = 0; i < kDisplayModeNames.size(); ++i) {
        std::string name = kDisplayModeNames[i];
        std::replace(name.begin(), name.end(), ' ', '-');
        if (name == display) options.display.mode = DisplayMode(i);
    }
    return parsed;
}

}  // namespace vksim
