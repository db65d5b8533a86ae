#include "app/run_outputs.h"

#include <map>
#include <string>
#include <vector>

#include "app/frame_exporter.h"
#include "app/pose_output.h"
#include "app/trace_output.h"
#include "run/progress_bar.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim {
namespace {

// The JSON pointer of each model object's scene object, found by its name
// (names are unique among the objects), for messages about it.
std::vector<std::string> objectSources(const World& sim) {
    std::map<std::string, std::string> byName;
    for (const ClothObject& cloth : sim.scene().cloths) byName[cloth.name] = cloth.source;
    for (const SolidObject& solid : sim.scene().solids) byName[solid.name] = solid.source;
    std::vector<std::string> sources;
    for (const ObjectRange& object : sim.model().objects) sources.push_back(byName[object.name]);
    return sources;
}

}  // namespace

RunOutputs::RunOutputs(const VulkanContext& ctx, World& sim, const RunOptions& options, uint32_t frameSlots,
                       std::optional<uint64_t> progressFrames) {
    if (!options.exportDir.empty()) {
        // Frame numbers go on from a loaded state's (--load-state).
        std::optional<uint64_t> frames = progressFrames ? progressFrames : std::optional<uint64_t>(options.frames);
        if (frames) *frames += sim.framesRecorded();
        ExportSettings settings{options.exportDir, options.exportFormat, options.exportEvery, frames,
                                sim.scene().path, objectSources(sim)};
        exporter_ = std::make_unique<FrameExporter>(ctx, sim, std::move(settings), frameSlots);
        observers_.push_back(exporter_.get());
    }
    if (!options.traceFile.empty()) {
        trace_ = std::make_unique<TraceWriter>(options.traceFile, sim.timer(), ctx.deviceInfo());
        observers_.push_back(trace_.get());
    }
    if (!options.posesFile.empty()) {
        poses_ = std::make_unique<PoseWriter>(ctx, sim, options.posesFile, frameSlots);
        observers_.push_back(poses_.get());
    }
    if (progressFrames && progressBarWanted(options.quiet)) {
        progress_ = std::make_unique<ProgressBar>(sim.scene().name, *progressFrames);
        observers_.push_back(progress_.get());
    }
}

RunOutputs::~RunOutputs() = default;

void RunOutputs::finish() {
    if (progress_) {
        std::erase(observers_, progress_.get());
        progress_.reset();
    }
    if (trace_) trace_->finish();
    if (poses_) poses_->finish();
}

}  // namespace vksim
