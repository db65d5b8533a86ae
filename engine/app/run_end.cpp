#include "app/run_end.h"

#include <iostream>

#include <fmt/format.h>

#include "app/state_files.h"
#include "contacts/contact_stats.h"
#include "diagnostics/state_hash.h"
#include "run/run_options.h"
#include "run/stop_signal.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/pbd_tearing.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim {

std::optional<int> endOfFrames(const RunOptions& options, const World& world, uint64_t framesRun,
                               std::optional<uint64_t> framesAsked) {
    // A run stopped by a signal stopped at a frame boundary: its state is
    // as good a place to go on from as the last frame asked for.
    if (!options.saveStateFile.empty()) saveStateFile(world, options.saveStateFile);
    if (const int signal = stopSignal()) {  // the outputs hold the frames run; no hash of a cut-short run
        std::cerr << stoppedMessage(signal, framesRun, framesAsked) << "\n";
        return stoppedExitStatus(signal);
    }
    if (const ContactStage* contacts = world.contacts()) {
        // An overflow is said even in a quiet run: contacts were dropped.
        const gpu::ContactStats stats = contacts->readStats();
        const bool dropped = stats.overflowSubsteps > 0 || stats.triangleOverflowSubsteps > 0 ||
                             stats.oversizedTriangles > 0 || stats.oversizedEdges > 0;
        if (!options.quiet || dropped)
            for (const std::string& line : describeContactStats(stats))
                (dropped ? std::cerr : std::cout) << line << "\n";
    }
    if (!options.quiet && world.model().pbd.particleCount > 0)
        if (const PbdTearing* tearing = world.solver<PbdSolver>().tearing()) std::cout << tearing->describe() << "\n";
    if (options.printHash) std::cout << "state-hash: " << formatHash(world.stateHash()) << "\n";
    return std::nullopt;
}

int validationExitStatus(const VulkanContext& ctx) {
    if (ctx.validationCounts().total() == 0) return kExitOk;
    std::cerr << fmt::format("vksim: validation reported {} error(s) and {} warning(s)\n",
                             ctx.validationCounts().errors.load(), ctx.validationCounts().warnings.load());
    return kExitValidationMessages;
}

}  // namespace vksim
