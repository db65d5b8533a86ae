#pragma once
// How a run ends, headless or windowed: what a stop signal says and exits
// with, the state hash, and the validation layer's count as the exit status.
#include <cstdint>
#include <optional>

namespace vksim {

class VulkanContext;
class World;
struct RunOptions;

// After the last frame. Writes --save-state's file (WriteError), also when a
// signal stopped the run. When a signal stopped the run: says so and returns
// its exit status (no hash of a cut-short run). Else prints the state hash
// if asked and returns nothing.
std::optional<int> endOfFrames(const RunOptions& options, const World& world, uint64_t framesRun,
                               std::optional<uint64_t> framesAsked);

// kExitOk, or kExitValidationMessages with one line counting the messages.
int validationExitStatus(const VulkanContext& ctx);

}  // namespace vksim
