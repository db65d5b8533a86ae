#pragma once
// The benchmark suite: scenes built in code (no files to drift), each run at
// a list of sizes: PBD cloth, projective dynamics cloth, mass-spring cloth
// (implicit Euler), a projective dynamics tetrahedral solid and a pile of
// rigid bodies. To add one, append a BenchScene to the list in
// bench_scenes.cpp, and a row for each pass family it brings to the byte
// models in pass_traffic.cpp.
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "scene/scene.h"

namespace vksim {

struct BenchScene {
    std::string_view name;         // what `vksim bench --filter` matches (a substring)
    std::string_view description;  // one line
    std::string_view sizeMeaning;  // what a size is, e.g. "vertices per side"
    std::vector<uint32_t> defaultSizes;  // increasing
    uint32_t cpuMaxDefaultSize;          // on a CPU device (lavapipe) the defaults stop here
    Scene (*build)(uint32_t size);
    uint64_t (*particleCount)(uint32_t size);
    // A batch scene (scene/scene_batch.h): the copies a size holds, for the
    // per-copy cost; null for the others.
    uint32_t (*copies)(uint32_t size) = nullptr;
};

std::span<const BenchScene> benchScenes();

}  // namespace vksim
