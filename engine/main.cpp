// vksim command line: load a scene, run it in a window or headless, report
// per-pass GPU timings. Every failure a user can cause ends in one line on
// stderr and a non-zero exit status.
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "app/headless_app.h"
#include "app/run_options.h"
#include "app/timing_output.h"
#include "app/windowed_app.h"
#include "scene/scene_loader.h"
#include "vk/context.h"
#include "vk/vk_check.h"

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
    cli.add_option("scene", options.scenePath, "Scene file (JSON); default scenes/cloth_sphere.json");
    cli.add_flag("--headless", options.headless, "Run without a window and print per-pass GPU timings");
    cli.add_option("--frames", frames, "Frames to simulate (headless default 300; windowed: until closed)")
        ->check(CLI::Range(1u, 100000000u));
    cli.add_flag("--validate", options.validate,
                 "Enable Khronos validation with synchronization validation; any message makes the exit status 3");
    cli.add_flag("--list-devices", listOnly, "List Vulkan devices and whether vksim can use them");
    cli.add_option("--device", options.device, "Device to use: index from --list-devices or a name substring");
    cli.add_option("--timings", options.timingsFile, "Write per-pass timings to FILE (.json or .csv)")
        ->check([](const std::string& path) {
            return vksim::isSupportedTimingsPath(path) ? std::string() : "expected a file name ending in .json or .csv";
        });
    cli.add_flag("--hash", options.printHash, "Print 'state-hash: <16 hex digits>' of all positions at the end");
    cli.add_flag("--quiet", options.quiet, "Do not print the model summary and the timing table");

    try {
        cli.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return cli.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "vksim: " << e.what() << " (see --help)\n";
        return vksim::kExitUsage;
    }
    if (cli.count("--frames")) options.frames = frames;

    try {
        if (listOnly) return listDevices();
        if (options.scenePath.empty()) options.scenePath = defaultScenePath();
        const vksim::Scene scene = vksim::loadScene(options.scenePath);
        return options.headless ? vksim::runHeadless(options, scene) : vksim::runWindowed(options, scene);
    } catch (const vksim::SceneError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const vksim::DeviceError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const vksim::VulkanError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const std::exception& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    }
    return vksim::kExitFailure;
}
