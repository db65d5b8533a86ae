#include "options.h"

#include <charconv>
#include <string_view>

namespace {

uint32_t parseCount(std::string_view flag, std::string_view text, uint32_t min, uint32_t max) {
    uint32_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || value < min || value > max)
        throw UsageError(std::string(flag) + " needs a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max) + ", got '" + std::string(text) + "'");
    return value;
}

}  // namespace

const char* usage() {
    return "usage: vksim_embed [--scene FILE] [--frames N] [--image FILE.png] [--size WxH] [--validate]\n"
           "  --scene FILE   a vksim scene (.json); without it, a small cloth built in code\n"
           "  --frames N     simulation frames before the picture (default 60)\n"
           "  --image FILE   the PNG to write (default embed.png)\n"
           "  --size WxH     image size in pixels (default 512x512)\n"
           "  --validate     enable VK_LAYER_KHRONOS_validation with synchronization validation;\n"
           "                 any message makes the program exit 3\n";
}

Options parseOptions(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        auto value = [&]() -> std::string_view {
            if (i + 1 >= argc) throw UsageError(std::string(arg) + " needs a value");
            return argv[++i];
        };
        if (arg == "--scene") options.scene = std::string(value());
        else if (arg == "--frames") options.frames = parseCount(arg, value(), 1, 100000);
        else if (arg == "--image") options.image = std::string(value());
        else if (arg == "--size") {
            const std::string_view size = value();
            const size_t x = size.find('x');
            if (x == std::string_view::npos) throw UsageError("--size needs WxH, got '" + std::string(size) + "'");
            options.width = parseCount("--size", size.substr(0, x), 16, 4096);
            options.height = parseCount("--size", size.substr(x + 1), 16, 4096);
        } else if (arg == "--validate") options.validate = true;
        else if (arg == "--help" || arg == "-h") options.help = true;
        else throw UsageError("unknown option '" + std::string(arg) + "' (see --help)");
    }
    return options;
}
