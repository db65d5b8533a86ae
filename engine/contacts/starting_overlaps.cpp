#include "contacts/starting_overlaps.h"

#include <cmath>
#include <unordered_map>
#include <vector>

namespace vksim {

namespace {

// A cell's key: its three integer coordinates, 21 bits each.
uint64_t cellKey(glm::ivec3 cell) {
    constexpr uint64_t kMask = (uint64_t{1} << 21) - 1;
    return (uint64_t(cell.x) & kMask) | (uint64_t(cell.y) & kMask) << 21 | (uint64_t(cell.z) & kMask) << 42;
}

}  // namespace

StartingOverlaps findStartingOverlaps(const ContactModel& contacts) {
    StartingOverlaps found;
    if (contacts.empty()) return found;
    // Two particles closer than their contact distance are at most twice the
    // largest thickness apart: in the same cell or in neighbouring ones.
    const double cellSize = 2.0 * double(contacts.largestThickness);
    const auto cellOf = [&](const gpu::ContactParticle& particle) {
        return glm::ivec3(glm::floor(glm::dvec3(glm::vec3(particle.rest)) / cellSize));
    };
    std::unordered_map<uint64_t, std::vector<uint32_t>> cells;
    for (uint32_t k = 0; k < contacts.count(); ++k) cells[cellKey(cellOf(contacts.particles[k]))].push_back(k);
    double deepest = 1.0;  // distance over contact distance
    for (uint32_t k = 0; k < contacts.count(); ++k) {
        const gpu::ContactParticle& a = contacts.particles[k];
        // Spare particles of splitting cloths touch nothing until a split takes them.
        if (a.flags & gpu::kContactUnused) continue;
        const glm::ivec3 cell = cellOf(a);
        for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const auto bucket = cells.find(cellKey(cell + glm::ivec3(dx, dy, dz)));
                    if (bucket == cells.end()) continue;
                    for (const uint32_t l : bucket->second) {
                        const gpu::ContactParticle& b = contacts.particles[l];
                        // Each pair once; objects of one contact group (batch copy) only.
                        if (l <= k || b.object == a.object || (b.flags & gpu::kContactUnused) ||
                            (a.flags >> gpu::kContactGroupShift) != (b.flags >> gpu::kContactGroupShift))
                            continue;
                        const double reach = double(a.rest.w) + double(b.rest.w);
                        const double distance =
                            glm::length(glm::dvec3(glm::vec3(a.rest)) - glm::dvec3(glm::vec3(b.rest)));
                        if (distance >= reach) continue;
                        ++found.pairs;
                        if (distance / reach < deepest) {
                            deepest = distance / reach;
                            found.objectA = a.object;
                            found.objectB = b.object;
                            found.distance = distance;
                            found.contactDistance = reach;
                        }
                    }
                }
    }
    return found;
}

}  // namespace vksim
