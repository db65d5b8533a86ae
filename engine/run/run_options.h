#pragma once
// What the command line asked for (parsed with CLI11 by app/command_line.h).
#include <cstdint>
#include <optional>
#include <string>

#include "io/mesh_view.h"
#include "render/display_mode.h"

namespace vksim {

enum class PresentMode { Fifo, Mailbox, Immediate };

struct RunOptions {
    std::string scenePath;        // default: scenes/cloth_sphere.json
    bool headless = false;
    std::optional<uint32_t> frames;  // headless default 300; windowed: until closed
    bool validate = false;        // Khronos validation + sync validation; any message -> exit 1
    std::string device;           // --device INDEX|NAME-SUBSTRING
    std::string timingsFile;      // --timings FILE.json|FILE.csv
    bool printHash = false;       // --hash
    bool listPasses = false;      // --list-passes
    bool quiet = false;           // no timing table on stdout (nor progress bar on stderr)
    std::string exportDir;        // --export DIR: each deformable object's mesh, per exported frame
    MeshFormat exportFormat = MeshFormat::Obj;  // --export-format obj|ply
    uint32_t exportEvery = 1;     // --export-every K: frames 0, K, 2K, ...
    std::string traceFile;        // --trace FILE.json: Chrome trace of every pass run
    std::string posesFile;        // --poses FILE.csv|FILE.json: every body's pose and velocity per frame
    std::string screenshotFile;   // --screenshot FILE.png: the last frame as shown
    std::string loadStateFile;    // --load-state FILE: restored before the first frame
    std::string saveStateFile;    // --save-state FILE: written after the last frame
    uint32_t width = 1280;        // --size WxH: window, and headless screenshot, in pixels
    uint32_t height = 720;
    PresentMode presentMode = PresentMode::Fifo;  // --present-mode
    bool overlay = true;          // --no-overlay: the ImGui overlay starts hidden
    DisplaySettings display;      // --display MODE, --hide-colliders, --show-contacts
    bool showConvergence = false;  // --show-convergence: the overlay's
                                   // Convergence panel starts open
};

// Exit statuses.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;            // bad input, no device, simulation error
inline constexpr int kExitUsage = 2;              // the command line itself is wrong
inline constexpr int kExitValidationMessages = 3;  // run completed but the validation layer reported
// A run stopped by SIGINT or SIGTERM exits with 128 + the signal (130, 143):
// stoppedExitStatus() in stop_signal.h.

}  // namespace vksim
