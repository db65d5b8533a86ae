#pragma once
// The example's command line.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

struct Options {
    std::optional<std::string> scene;  // unset: the small cloth built in code (scene_in_code)
    uint32_t frames = 60;
    std::string image = "embed.png";
    uint32_t width = 512;
    uint32_t height = 512;
    bool validate = false;
    bool help = false;
};

// A command-line mistake: one line for the user, exit 1.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Options parseOptions(int argc, char** argv);
const char* usage();
