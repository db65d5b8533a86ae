#pragma once
// What the command line asked for (parsed in main.cpp with CLI11).
#include <cstdint>
#include <optional>
#include <string>

namespace vksim {

struct RunOptions {
    std::string scenePath;        // default: scenes/cloth_sphere.json
    bool headless = false;
    std::optional<uint32_t> frames;  // headless default 300; windowed: until closed
    bool validate = false;        // Khronos validation + sync validation; any message -> exit 1
    std::string device;           // --device INDEX|NAME-SUBSTRING
    std::string timingsFile;      // --timings FILE.json|FILE.csv
    bool printHash = false;       // --hash
    bool quiet = false;           // no timing table on stdout
};

// Exit statuses.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;            // bad input, no device, simulation error
inline constexpr int kExitUsage = 2;              // the command line itself is wrong
inline constexpr int kExitValidationMessages = 3;  // run completed but the validation layer reported

}  // namespace vksim
