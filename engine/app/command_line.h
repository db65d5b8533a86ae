#pragma once
// vksim's command line (CLI11): the options, their checks and what they
// parse into, apart from running anything, so that main.cpp stays a
// dispatcher and the parser can be fuzzed on its own (tests/fuzz).
#include <iosfwd>
#include <optional>

#include "bench/bench_runner.h"
#include "run/run_options.h"

namespace vksim {

struct CommandLine {
    RunOptions run;           // scenePath empty when none was given
    bool listDevices = false;  // --list-devices
    bool bench = false;        // the `bench` subcommand, with benchOptions
    BenchOptions benchOptions;
};

// Parses argv (argv[0] is the program). Returns the options, or the exit
// status when parsing ends the run: --help (the text on `out`, status 0) or
// a usage error ("vksim: <what> (see --help)" on `err`, kExitUsage).
struct ParsedCommandLine {
    std::optional<int> exitStatus;
    CommandLine options;
};
ParsedCommandLine parseCommandLine(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace vksim
