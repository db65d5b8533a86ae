// vksim command line: load a scene, run it in a window or headless, report
// per-pass GPU timings. Every failure a user can cause ends in one line on
// stderr and a non-zero exit status.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/command_line_values.h"
#include "app/headless_app.h"
#include "app/run_options.h"
#include "app/timing_output.h"
#include "app/windowed_app.h"
#include "bench/bench_command.h"
#include "bench/bench_report.h"
#include "scene/scene_loader.h"
#include "vk/context.h"
#include "vk/vk_check.h"
#include "world/world.h"

namespace {

std::string defaultScenePath() {
    // Next to the working directory first (a checkout), then the source tree.
    const std::filesystem::path local = "scenes/cloth_sphere.json";
    if (std::filesystem::exists(local)) return local.string();
    return (std::filesystem::path(VKSIM_SOURCE_DIR) / local).string();
}

int listDevices() {
    const std::vector<vksim::DeviceInfo> devices = vksim::VulkanContext::listDevices();
    if (devices.empty()) {
        std::cout << "no Vulkan devices found\n";
        return vksim::kExitFailure;
    }
    for (const vksim::DeviceInfo& d : devices)
        std::cout << fmt::format("{}: {} [{}] Vulkan {}, driver {} -- {}\n", d.index, d.name, d.type, d.apiVersion,
                                 d.driver, d.usable ? "usable" : "not usable: " + d.rejection);
    return vksim::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
    vksim::RunOptions options;
    bool listOnly = false;
    uint32_t frames = 0;

    CLI::App cli{"vksim: real-time physics simulation on Vulkan compute"};
    // Flags take no value: "--headless=1" is refused, not read as a number.
    cli.option_defaults()->disable_flag_override();
    // Numbers are checked as text (command_line_values.h): CLI11's Range
    // would wrap or misreport some of them.
    auto integerIn = [](uint64_t min, uint64_t max) {
        return [min, max](const std::string& text) { return vksim::checkBoundedInteger(text, min, max); };
    };
    cli.add_option("scene", options.scenePath, "Scene file (JSON); default scenes/cloth_sphere.json")
        ->check(vksim::checkNotEmpty);
    cli.add_flag("--headless", options.headless, "Run without a window and print per-pass GPU timings");
    cli.add_option("--frames", frames, "Frames to simulate (headless default 300; windowed: until closed)")
        ->check(integerIn(1, 100000000));
    cli.add_flag("--validate", options.validate,
                 "Enable Khronos validation with synchronization validation; any message makes the exit status 3");
    cli.add_flag("--list-devices", listOnly, "List Vulkan devices and whether vksim can use them");
    cli.add_option("--device", options.device, "Device to use: index from --list-devices or a name substring")
        ->check(vksim::checkDeviceSelector);
    cli.add_option("--timings", options.timingsFile, "Write per-pass timings to FILE (.json or .csv)")
        ->check([](const std::string& path) {
            return vksim::isSupportedTimingsPath(path) ? std::string() : "expected a file name ending in .json or .csv";
        });
    cli.add_flag("--hash", options.printHash, "Print 'state-hash: <16 hex digits>' of all positions at the end");
    cli.add_flag("--list-passes", options.listPasses,
                 "Print the scene's step plan (stage kind, owner, pass name; step order) and exit; implies --headless");
    cli.add_flag("--quiet", options.quiet, "Do not print the model summary, the timing table or the progress bar");
    CLI::Option* exportOption =
        cli.add_option("--export", options.exportDir,
                       "Write each deformable object's mesh per frame to DIR/<object>_<frame:05d>.obj|.ply "
                       "(frame: the 0-based simulation frame index; DIR is created)")
            ->check(vksim::checkNotEmpty);
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
        ->check([](const std::string& path) {
            return std::filesystem::path(path).extension() == ".json" ? std::string()
                                                                      : "expected a file name ending in .json";
        });

    cli.add_option("--screenshot", options.screenshotFile,
                   "After the last frame (--frames N; default 300) save what the window shows to FILE.png; with "
                   "--headless the same image is rendered offscreen")
        ->check([](const std::string& path) {
            return std::filesystem::path(path).extension() == ".png" ? std::string()
                                                                     : "expected a file name ending in .png";
        });
    std::string size;
    cli.add_option("--size", size, "Window (and headless screenshot) size in pixels, WxH; default 1280x720")
        ->check(vksim::checkPixelSize);
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

    vksim::BenchOptions bench;
    CLI::App* benchCommand = cli.add_subcommand(
        "bench", "Run the benchmark suite headless: per-pass GPU time, throughput, bandwidth, scaling");
    benchCommand->add_option("--filter", bench.filter, "Only the scenes whose name contains NAME");
    benchCommand->add_option("--sizes", bench.sizes, "Sizes to run, comma-separated (e.g. 64,128,256); "
                                                     "default: each scene's list for this device")
        ->delimiter(',')
        ->check(integerIn(2, 4096));
    benchCommand->add_option("--frames", bench.frames, "Measured frames per size")
        ->capture_default_str()
        ->check(integerIn(1, 1000000));
    benchCommand->add_option("--warmup", bench.warmup, "Frames run before measuring, per size")
        ->capture_default_str()
        ->check(integerIn(0, 1000000));
    benchCommand->add_option("--out", bench.outFile, "Also write the results to FILE (.csv or .json)")
        ->check([](const std::string& path) {
            return vksim::isSupportedBenchPath(path) ? std::string() : "expected a file name ending in .json or .csv";
        });
    benchCommand->add_option("--device", bench.device, "Device to use: index from --list-devices or a name substring")
        ->check(vksim::checkDeviceSelector);
    benchCommand->add_flag("--validate", bench.validate,
                           "Enable Khronos validation with synchronization validation; any message makes the exit "
                           "status 3 (slows the run: not for measuring)");
    benchCommand->add_flag("--quiet", bench.quiet, "No progress bar on stderr");
    benchCommand->add_flag("--springs-convergence", bench.springsConvergence,
                           "Instead of the suite: GPU time for Newton and vertex block descent to reach the same "
                           "implicit Euler objective on one substep of cloth-springs (size: the first of --sizes)");
    benchCommand->footer(vksim::benchHelpFooter());

    try {
        cli.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "vksim: " << e.what() << " (see --help)\n";
        return vksim::kExitUsage;
    }
    if (cli.count("--frames")) options.frames = frames;
    options.exportFormat = exportFormat == "ply" ? vksim::MeshFormat::Ply : vksim::MeshFormat::Obj;
    if (const auto pixels = vksim::parsePixelSize(size)) {  // checked above when given
        options.width = pixels->width;
        options.height = pixels->height;
    }
    for (char& c : presentMode) c = char(std::tolower(static_cast<unsigned char>(c)));
    options.presentMode = presentMode == "mailbox"     ? vksim::PresentMode::Mailbox
                          : presentMode == "immediate" ? vksim::PresentMode::Immediate
                                                       : vksim::PresentMode::Fifo;
    options.overlay = !noOverlay;
    options.display.colliders = !hideColliders;
    for (char& c : display) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (size_t i = 0; i < vksim::kDisplayModeNames.size(); ++i) {
        std::string name = vksim::kDisplayModeNames[i];
        std::replace(name.begin(), name.end(), ' ', '-');
        if (name == display) options.display.mode = vksim::DisplayMode(i);
    }

    try {
        if (*benchCommand) return vksim::runBenchCommand(bench);
        if (listOnly) return listDevices();
        if (options.scenePath.empty()) options.scenePath = defaultScenePath();
        // A screenshot that could not be written is known now, not after the run.
        if (!options.screenshotFile.empty()) {
            const std::filesystem::path folder = std::filesystem::path(options.screenshotFile).parent_path();
            if (!folder.empty() && !std::filesystem::is_directory(folder)) {
                std::cerr << fmt::format("vksim: cannot write the screenshot '{}': no folder '{}'\n",
                                         options.screenshotFile, folder.string());
                return vksim::kExitFailure;
            }
        }
        const vksim::Scene scene = vksim::loadScene(options.scenePath);
        // Mesh statistics, SDF grids baked or read from their cache.
        if (!options.quiet)
            for (const std::string& line : scene.assetLog) std::cout << line << "\n";
        return options.headless || options.listPasses ? vksim::runHeadless(options, scene) : vksim::runWindowed(options, scene);
    } catch (const vksim::SceneError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const vksim::NonFiniteError& e) {  // the viewer's; headless runs report their own
        std::cerr << "vksim: " << options.scenePath << ": " << e.what() << "\n";
    } catch (const vksim::DeviceError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const vksim::VulkanError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const std::bad_alloc&) {  // its what() is just "std::bad_alloc"; nothing here may allocate
        std::fputs("vksim: out of host memory (std::bad_alloc)\n", stderr);
    } catch (const std::exception& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    }
    return vksim::kExitFailure;
}
