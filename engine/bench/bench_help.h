#pragma once
// The text `vksim bench --help` ends with: the suite, what is measured and
// where the byte models live. Apart from bench_command.h so that the command
// line (app/command_line.h) needs no Vulkan.
#include <string>

namespace vksim {

std::string benchHelpFooter();

}  // namespace vksim
