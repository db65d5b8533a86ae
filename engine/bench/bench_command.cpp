#include "bench/bench_command.h"

#include <iostream>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/bench_report.h"
#include "bench/solids_convergence.h"
#include "bench/springs_convergence.h"
#include "run/run_options.h"
#include "vk/context.h"

namespace vksim {

int runBenchCommand(const BenchOptions& options) {
    ContextOptions contextOptions;
    contextOptions.validation = options.validate;
    contextOptions.deviceSelector = options.device;
    VulkanContext ctx(contextOptions);

    if (options.springsConvergence) {
        SpringsConvergenceOptions convergence;
        if (!options.sizes.empty()) convergence.size = options.sizes.front();
        std::cout << formatSpringsConvergence(runSpringsConvergence(ctx, convergence));
        const ValidationCounts& counts = ctx.validationCounts();
        return counts.total() > 0 ? kExitValidationMessages : kExitOk;
    }

    if (options.solidsConvergence) {
        SolidsConvergenceOptions convergence;
        if (!options.sizes.empty()) convergence.cells = options.sizes.front();
        std::cout << formatSolidsConvergence(runSolidsConvergence(ctx, convergence));
        const ValidationCounts& counts = ctx.validationCounts();
        return counts.total() > 0 ? kExitValidationMessages : kExitOk;
    }

    BenchReport report;
    try {
        report = runBenchmarks(ctx, options);
    } catch (const std::invalid_argument& e) {  // the filter matched nothing
        std::cerr << "vksim: bench: " << e.what() << "\n";
        return kExitUsage;
    }
    std::cout << formatBenchTable(report);
    if (!options.outFile.empty()) writeBenchFile(options.outFile, report);

    const ValidationCounts& counts = ctx.validationCounts();
    if (counts.total() > 0) {
        std::cerr << fmt::format("vksim: validation reported {} error(s) and {} warning(s)\n", counts.errors.load(),
                                 counts.warnings.load());
        return kExitValidationMessages;
    }
    return kExitOk;
}

}  // namespace vksim
