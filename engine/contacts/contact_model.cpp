#include "contacts/contact_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "geometry/triangle_mesh.h"

namespace vksim {

namespace {

// The particles of `object` on its surface triangles: every one of a cloth
// or a mesh, the surface's of a tetrahedral solid (its inner vertices can
// touch nothing that its surface has not touched first); every one of an
// object without triangles (a point set); and a splitting cloth's spare
// particles, corners of its surface once a split takes them.
std::vector<bool> onSurface(const SharedModel& model, const ObjectRange& object) {
    std::vector<bool> surface(object.particleCount, object.triangleCount == 0);
    std::fill(surface.end() - object.spareParticles, surface.end(), true);
    for (uint32_t t = object.firstTriangle; t < object.firstTriangle + object.triangleCount; ++t)
        for (uint32_t corner = 0; corner < 3; ++corner)
            surface[model.triangles[3 * t + corner] - object.firstParticle] = true;
    return surface;
}

// The edges of the triangles of the objects with "triangles", each once,
// with each contact particle's edges and each edge's index in its group.
void addEdges(const SharedModel& model, ContactModel& contacts, uint32_t groups) {
    std::vector<uint32_t> edgesInGroup(groups, 0);
    for (uint32_t o = 0; o < model.objects.size(); ++o) {
        const ObjectRange& object = model.objects[o];
        if (!object.contacts.enabled || !object.contacts.triangles || !object.contacts.edges) continue;
        std::vector<std::pair<uint32_t, uint32_t>> ends;
        for (uint32_t t = object.firstTriangle; t < object.firstTriangle + object.triangleCount; ++t)
            for (uint32_t corner = 0; corner < 3; ++corner) {
                const uint32_t a = contacts.contactOf[model.triangles[3 * t + corner]];
                const uint32_t b = contacts.contactOf[model.triangles[3 * t + (corner + 1) % 3]];
                if (a != b) ends.emplace_back(std::min(a, b), std::max(a, b));
            }
        std::sort(ends.begin(), ends.end());
        ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
        for (const auto& [a, b] : ends) {
            contacts.edgeLocalIndices.push_back(edgesInGroup[object.copy]++);
            contacts.edges.push_back({a, b, o, 0});
        }
    }
    // Each particle's edges, ascending: a counting sort.
    contacts.particleEdgeStart.assign(contacts.count() + 1, 0);
    for (const gpu::ContactEdge& edge : contacts.edges) {
        ++contacts.particleEdgeStart[edge.a + 1];
        ++contacts.particleEdgeStart[edge.b + 1];
    }
    for (uint32_t k = 0; k < contacts.count(); ++k) contacts.particleEdgeStart[k + 1] += contacts.particleEdgeStart[k];
    std::vector<uint32_t> fill(contacts.particleEdgeStart.begin(), contacts.particleEdgeStart.end() - 1);
    contacts.particleEdges.resize(2 * contacts.edges.size());
    for (uint32_t e = 0; e < contacts.edgeCount(); ++e) {
        contacts.particleEdges[fill[contacts.edges[e].a]++] = e;
        contacts.particleEdges[fill[contacts.edges[e].b]++] = e;
    }
}

// Each triangle's neighbour across each edge (ContactModel::triangleNeighbours),
// in contact particle numbers: the objects' triangles share no corner, so
// no edge joins two objects.
void addTriangleNeighbours(ContactModel& contacts) {
    std::vector<uint32_t> corners;
    corners.reserve(3 * contacts.triangles.size());
    for (const gpu::ContactTriangle& tri : contacts.triangles) corners.insert(corners.end(), {tri.a, tri.b, tri.c});
    static_assert(kNoTriangle == gpu::kNoNeighbourTriangle);
    for (const std::array<uint32_t, 3>& across : trianglesAcrossEdges(corners))
        contacts.triangleNeighbours.emplace_back(across[0], across[1], across[2], gpu::kNoNeighbourTriangle);
}

}  // namespace

ContactModel buildContactModel(const SharedModel& model, ParticleRange inIterations) {
    ContactModel contacts;
    contacts.contactOf.assign(model.positions.size(), gpu::kNotAContactParticle);
    uint32_t groups = 1;
    for (const ObjectRange& object : model.objects) groups = std::max(groups, object.copy + 1);
    constexpr uint32_t kMostGroups = ~0u >> gpu::kContactGroupShift;  // what ContactParticle::flags holds
    if (groups > kMostGroups)
        throw std::invalid_argument(fmt::format("{} contact groups: at most {}", groups, kMostGroups));
    std::vector<uint32_t> inGroup(groups, 0);  // each group's contact particles so far
    for (uint32_t o = 0; o < model.objects.size(); ++o) {
        const ObjectRange& object = model.objects[o];
        if (!object.contacts.enabled) continue;
        contacts.objectNames.push_back(object.name);
        contacts.largestThickness = std::max(contacts.largestThickness, object.contacts.thickness);
        const std::vector<bool> surface = onSurface(model, object);
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i) {
            if (!surface[i - object.firstParticle]) continue;
            const bool iterated = inIterations.contains(i);
            contacts.afterSolve = contacts.afterSolve || !iterated;
            const bool spare = i >= object.firstParticle + object.particleCount - object.spareParticles;
            contacts.spareCount += spare ? 1 : 0;
            const uint32_t flags = (object.contacts.self ? gpu::kContactSelf : 0u) |
                                   (iterated ? gpu::kContactInIterations : 0u) |
                                   (spare ? gpu::kContactSpare | gpu::kContactUnused : 0u) |
                                   (object.copy << gpu::kContactGroupShift);
            contacts.localIndices.push_back(inGroup[object.copy]++);
            contacts.contactOf[i] = contacts.count();
            contacts.particles.push_back({glm::vec4(glm::vec3(model.positions[i]), object.contacts.thickness), i, o,
                                          flags, object.contacts.friction,
                                          object.contacts.staticFriction.value_or(object.contacts.friction)});
        }
    }
    std::vector<uint32_t> trianglesInGroup(groups, 0);
    for (uint32_t o = 0; o < model.objects.size(); ++o) {
        const ObjectRange& object = model.objects[o];
        if (!object.contacts.enabled || !object.contacts.triangles) continue;
        for (uint32_t t = object.firstTriangle; t < object.firstTriangle + object.triangleCount; ++t) {
            const uint32_t* corner = &model.triangles[3 * t];
            contacts.triangleLocalIndices.push_back(trianglesInGroup[object.copy]++);
            contacts.triangles.push_back(
                {contacts.contactOf[corner[0]], contacts.contactOf[corner[1]], contacts.contactOf[corner[2]], o});
        }
    }
    if (contacts.empty()) return contacts;
    if (contacts.hasTriangles()) {
        addEdges(model, contacts, groups);
        addTriangleNeighbours(contacts);
        contacts.triangleCapacity =
            contacts.count() * (gpu::kTriangleContactsPerParticle + gpu::kEdgeContactsPerParticle);
    }
    // The objects are in particle order, so the particles are too.
    contacts.margin = contacts.largestThickness;
    contacts.cellSize = 2.0f * contacts.largestThickness + contacts.margin;
    // Each group's table as a world of its particles alone sizes it.
    for (const uint32_t count : inGroup) {
        const uint32_t size = std::bit_ceil(std::max<uint32_t>(64, 2 * count));
        contacts.groups.push_back({contacts.tableSize, size - 1});
        contacts.tableSize += size;
    }
    contacts.capacity = contacts.count() * gpu::kContactsPerParticle;
    return contacts;
}

void followSplits(ContactModel& contacts, std::span<const uint32_t> adjacencyRows) {
    for (gpu::ContactParticle& spare : contacts.particles) {
        if ((spare.flags & gpu::kContactSpare) == 0) continue;
        const uint32_t row = adjacencyRows[spare.particle];
        if (row == spare.particle) {
            spare.flags |= gpu::kContactUnused;
            continue;
        }
        spare.flags &= ~gpu::kContactUnused;
        const glm::vec4 vertexRest = contacts.particles[contacts.contactOf[row]].rest;
        spare.rest = glm::vec4(glm::vec3(vertexRest), spare.rest.w);
    }
}

bool hasContacts(const SharedModel& model, ParticleRange range) {
    for (const ObjectRange& object : model.objects)
        if (object.contacts.enabled && range.contains(object.firstParticle)) return true;
    return false;
}

}  // namespace vksim
