#include "solvers/vbd/vbd_system.h"

#include <stdexcept>

#include <fmt/format.h>

namespace vksim {

void buildVbdSystem(VbdModel& vbd) {
    const uint32_t n = vbd.particleCount;
    auto local = [&](uint32_t global, size_t tet) {
        if (global < vbd.firstParticle || global - vbd.firstParticle >= n)
            throw std::invalid_argument(fmt::format("VBD tet {} names particle {}, outside [{}, {})", tet, global,
                                                    vbd.firstParticle, vbd.firstParticle + n));
        return global - vbd.firstParticle;
    };
    // Compressed rows in two passes (count, then fill in tet order).
    vbd.vertices.assign(n, gpu::VbdVertex{});
    for (size_t e = 0; e < vbd.tets.size(); ++e)
        for (uint32_t role = 0; role < 4; ++role) ++vbd.vertices[local(vbd.tets[e].particles[role], e)].tetCount;
    uint32_t start = 0;
    for (gpu::VbdVertex& v : vbd.vertices) {
        v.firstTet = start;
        start += v.tetCount;
    }
    vbd.incidentTets.assign(start, 0);
    std::vector<uint32_t> next(n);
    for (uint32_t r = 0; r < n; ++r) next[r] = vbd.vertices[r].firstTet;
    for (uint32_t e = 0; e < vbd.tets.size(); ++e)
        for (uint32_t role = 0; role < 4; ++role)
            vbd.incidentTets[next[local(vbd.tets[e].particles[role], e)]++] = e * 4 + role;

    const std::vector<uint32_t> colourOf = greedyColours(n, [&](uint32_t r, auto take) {
        const gpu::VbdVertex& v = vbd.vertices[r];
        for (uint32_t k = v.firstTet; k < v.firstTet + v.tetCount; ++k) {
            const glm::uvec4 p = vbd.tets[vbd.incidentTets[k] / 4].particles;
            for (uint32_t role = 0; role < 4; ++role) take(p[role] - vbd.firstParticle);
        }
    });
    VertexColouring colouring = groupByColour(colourOf, vbd.firstParticle);
    vbd.vertexOrder = std::move(colouring.order);
    vbd.vertexColours = std::move(colouring.colours);
}

}  // namespace vksim
