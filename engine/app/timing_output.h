#pragma once
// Per-pass GPU timings for people (a table) and for tools (--timings FILE:
// JSON or CSV by extension).
#include <string>

#include "vk/gpu_timer.h"

namespace vksim {

// Fixed-width table: pass, runs per frame, median and max ms per frame, % of step.
std::string formatTimingTable(const TimingReport& report);

// Writes `report` to `path` as JSON (.json) or CSV (.csv) through
// writeWholeFile (io/write_file.h: replaced whole or not at all). Throws
// WriteError naming the file when it cannot be written.
void writeTimingsFile(const std::string& path, const TimingReport& report);

}  // namespace vksim
