// vksim command line: load a scene, run it in a window or headless, report
// per-pass GPU timings. Every failure a user can cause ends in one line on
// stderr and a non-zero exit status.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <new>
#include <utility>

#include <fmt/format.h>

#include "app/command_line.h"
#include "app/headless_app.h"
#include "app/windowed_app.h"
#include "bench/bench_command.h"
#include "io/child_process.h"
#include "io/quoted_input.h"
#include "run/run_options.h"
#include "run/stop_signal.h"
#include "scene/scene_loader.h"
#include "vk/context.h"
#include "vk/driver_crash.h"
#include "vk/gpu_wait.h"
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
    // A driver that crashes inside a Vulkan call (lavapipe short of memory
    // under ulimit -v) is reported in one line, exit status 1.
    vksim::reportDriverCrashes();
    // Past `ulimit -f` a write fails with EFBIG and is reported naming the
    // file, its temporary removed; by default SIGXFSZ would kill the process
    // and leave the temporary behind.
    std::signal(SIGXFSZ, SIG_IGN);
    // A wait for the GPU past kWaitReportSeconds says so on stderr.
    vksim::reportLongWaits([](const std::string& line) { std::cerr << "vksim: " << line << "\n"; });
    const vksim::ParsedCommandLine parsed = vksim::parseCommandLine(argc, argv, std::cout, std::cerr);
    if (parsed.exitStatus) return *parsed.exitStatus;
    vksim::RunOptions options = parsed.options.run;
    // The scene file as messages show it (io/quoted_input.h), made before
    // anything can run out of memory: the bad_alloc report must not allocate.
    std::string shownScene;

    try {
        if (parsed.options.bench) return vksim::runBenchCommand(parsed.options.benchOptions);
        if (parsed.options.listDevices) return listDevices();
        if (options.scenePath.empty()) options.scenePath = defaultScenePath();
        shownScene = vksim::clipInput(options.scenePath);
        // The outputs written after the run: one whose folder is missing is
        // known now, not after the frames.
        for (const auto& [what, file] : {std::pair{"the screenshot", options.screenshotFile},
                                         std::pair{"the timings", options.timingsFile}}) {
            if (file.empty()) continue;
            const std::filesystem::path folder = std::filesystem::path(file).parent_path();
            if (!folder.empty() && !std::filesystem::is_directory(folder)) {
                std::cerr << fmt::format("vksim: cannot write {} {}: no folder {}\n", what, vksim::quoteArgument(file),
                                         vksim::quoteArgument(folder.string()));
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
    } catch (const vksim::StoppedBySignal& e) {  // a helper program (tetgen) ended, its files removed
        std::cerr << vksim::stoppedWhileLoadingMessage(e.signal(), shownScene, e.what()) << "\n";
        return vksim::stoppedExitStatus(e.signal());
    } catch (const vksim::NonFiniteError& e) {  // the viewer's; headless runs report their own
        std::cerr << "vksim: " << shownScene << ": " << e.what() << "\n";
    } catch (const vksim::DeviceError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const vksim::DeviceFault& e) {
        // The driver out of host memory names the scene, as a bad_alloc does
        // (the scene is what needs the memory; tests/cli/low_memory.sh), and
        // so does the GPU time limit (the scene's frame is what took too
        // long; tests/cli/gpu_time_limit.sh). Written without allocating,
        // like the bad_alloc below.
        std::fputs("vksim: ", stderr);
        if ((e.result == VK_ERROR_OUT_OF_HOST_MEMORY || e.result == VK_TIMEOUT) && !parsed.options.bench &&
            !shownScene.empty()) {
            std::fputs(shownScene.c_str(), stderr);
            std::fputs(": ", stderr);
        }
        std::fputs(e.what(), stderr);
        std::fputs("\n", stderr);
    } catch (const vksim::VulkanError& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    } catch (const std::bad_alloc&) {  // its what() is just "std::bad_alloc"; nothing here may allocate
        std::fputs("vksim: ", stderr);
        if (!parsed.options.bench && !shownScene.empty()) {
            std::fputs(shownScene.c_str(), stderr);
            std::fputs(": ", stderr);
        }
        std::fputs("out of host memory (std::bad_alloc)\n", stderr);
    } catch (const std::exception& e) {
        std::cerr << "vksim: " << e.what() << "\n";
    }
    // A GPU that never finished was abandoned (vk/gpu_wait.h): the driver's
    // thread may still run vksim's work, so exit()'s teardown (the static
    // destructors of the driver's libraries) is skipped. The outputs were
    // closed while the exception unwound.
    if (vksim::gpuAbandoned()) {
        std::fflush(nullptr);
        std::_Exit(vksim::kExitFailure);
    }
    return vksim::kExitFailure;
}
