#pragma once
// `vksim bench`: the command-line front of the benchmark (bench_runner.h).
#include <string>

#include "bench/bench_runner.h"

namespace vksim {

// Creates the device, runs the suite, prints the table on stdout and writes
// options.outFile. Returns an exit status (run_options.h): a filter that
// matches nothing is a usage error; validation messages give status 3.
int runBenchCommand(const BenchOptions& options);

}  // namespace vksim
