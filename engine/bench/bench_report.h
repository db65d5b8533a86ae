#pragma once
// `vksim bench` output: a table for people (stdout) and a file for tools
// (--out: CSV with '#' comment lines for the device and calibration, or JSON).
#include <string>

#include "bench/bench_results.h"

namespace vksim {

std::string formatBenchTable(const BenchReport& report);

// Writes `report` as JSON (.json) or CSV (.csv) through writeWholeFile
// (io/write_file.h: replaced whole or not at all). Throws WriteError naming
// the file when it cannot be written.
void writeBenchFile(const std::string& path, const BenchReport& report);

}  // namespace vksim
