#pragma once
// The file types of vksim's output options, by extension: checked on the
// command line (app/command_line.h) before anything runs, so a typo costs no
// simulation. The writers (timing_output.h, bench_report.h, pose_output.h) pick the format
// from the same extension.
#include <string>

#include "io/file_names.h"

namespace vksim {

// --timings FILE: .json or .csv.
inline bool isSupportedTimingsPath(const std::string& path) {
    const std::string ext = fileExtension(path);
    return ext == ".json" || ext == ".csv";
}

// `vksim bench --out FILE`: .json or .csv.
inline bool isSupportedBenchPath(const std::string& path) {
    const std::string ext = fileExtension(path);
    return ext == ".json" || ext == ".csv";
}

// --poses FILE: .csv or .json.
inline bool isSupportedPosesPath(const std::string& path) {
    const std::string ext = fileExtension(path);
    return ext == ".csv" || ext == ".json";
}

}  // namespace vksim
