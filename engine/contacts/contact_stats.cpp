#include "contacts/contact_stats.h"

#include <fmt/format.h>

namespace vksim {

std::vector<std::string> describeContactStats(const gpu::ContactStats& stats) {
    std::vector<std::string> lines;
    lines.push_back(fmt::format("contact pairs: {} in the last substep, {} at most, over {} substeps",
                                stats.lastEntries / 2, stats.mostEntries / 2, stats.detections));
    if (stats.mostTriangleContacts > 0 || stats.triangleOverflowSubsteps > 0)
        lines.push_back(fmt::format("vertex-triangle contacts: {} in the last substep, {} at most",
                                    stats.lastTriangleContacts, stats.mostTriangleContacts));
    if (stats.mostEdgeContacts > 0)
        lines.push_back(fmt::format("edge-edge contacts: {} in the last substep, {} at most", stats.lastEdgeContacts,
                                    stats.mostEdgeContacts));
    if (stats.colourings > 0)
        lines.push_back(fmt::format("colours: {} at most (of {}); {} constraint-substeps left to the Jacobi average",
                                    stats.mostColours, gpu::kContactColours, stats.leftoverConstraints));
    if (stats.overflowSubsteps > 0)
        lines.push_back(
            fmt::format("{} substeps had more pairs than the contact list holds ({} per particle): "
                        "pairs were dropped; lower the thickness or make the objects coarser",
                        stats.overflowSubsteps, gpu::kContactsPerParticle));
    if (stats.triangleOverflowSubsteps > 0)
        lines.push_back(
            fmt::format("{} substeps had more vertex-triangle and edge-edge contacts than their list holds ({} per "
                        "particle): contacts were dropped; lower the thickness or make the objects coarser",
                        stats.triangleOverflowSubsteps,
                        gpu::kTriangleContactsPerParticle + gpu::kEdgeContactsPerParticle));
    if (stats.oversizedTriangles > 0)
        lines.push_back(fmt::format("{} triangle-substeps were too large to search for contacts (over {} grid cells): "
                                    "the simulation may have blown up",
                                    stats.oversizedTriangles, gpu::kMaxTriangleCells));
    if (stats.oversizedEdges > 0)
        lines.push_back(fmt::format("{} edge-substeps were too large to search for contacts (over {} grid cells): "
                                    "the simulation may have blown up",
                                    stats.oversizedEdges, gpu::kMaxTriangleCells));
    return lines;
}

}  // namespace vksim
