#pragma once
// The contact particles of a model: every particle on the surface triangles
// of every object with a "contacts" block (ObjectRange::contacts: all of a
// cloth's, a tetrahedral solid's surface vertices), numbered k = 0..count-1 in
// particle order, with its thickness, friction, object and rest position
// (gpu::ContactParticle), and the sizes the detection grid is built for.
// Built on the CPU, once per model; the GPU stage (contact_stage.h) uploads it.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/shared_model.h"
#include "shaders/contacts/contact_types.h"
#include "state/particle_range.h"

namespace vksim {

struct ContactModel {
    std::vector<gpu::ContactParticle> particles;
    // Per particle of the store, its contact particle k, or
    // gpu::kNotAContactParticle.
    std::vector<uint32_t> contactOf;
    float largestThickness = 0.0f;  // [m]
    // Detected pairs are those closer than t_a + t_b + margin at the start
    // of a substep's solve: what the iterations may still close.
    float margin = 0.0f;     // [m] = the largest thickness
    float cellSize = 0.0f;   // [m] = 2 * largest thickness + margin: the largest detection distance
    uint32_t tableSize = 0;  // hash buckets: every group's, each a power of two, at least twice its particles
    uint32_t capacity = 0;   // neighbour-list entries: kContactsPerParticle per particle
    // Whether some pair is projected after the solves: a contact particle
    // outside the in-iterations range.
    bool afterSolve = false;
    // The triangles of the objects with "triangles" (their surface's for a
    // tetrahedral solid), in contact particle numbers, in object order; and
    // the capacity of the list of four-particle constraints, vertex-triangle
    // and edge-edge ((kTriangleContactsPerParticle +
    // kEdgeContactsPerParticle) per contact particle), 0 without any.
    std::vector<gpu::ContactTriangle> triangles;
    uint32_t triangleCapacity = 0;
    // Per triangle, the triangle across each of its edges, the one opposite
    // its corner i in [i] (b-c, c-a, a-b; [3] unused): kNoNeighbourTriangle
    // on a border or where more than two triangles share the edge. The
    // vertex-triangle detection keeps a constraint whose closest point
    // lies on an edge in one of the two (triangle_pairs.comp).
    std::vector<glm::uvec4> triangleNeighbours;
    // The edges of those triangles, each once (a < b), in object order and
    // ascending (a, b) within an object; per contact particle its edges,
    // ascending (particleEdges[particleEdgeStart[k] ...
    // particleEdgeStart[k + 1]]); and per edge its index among its group's
    // edges, which the edge-edge constraints' priorities hash.
    std::vector<gpu::ContactEdge> edges;
    std::vector<uint32_t> particleEdgeStart, particleEdges;
    std::vector<uint32_t> edgeLocalIndices;
    // Contact particles that are spare particles of cloths that split torn
    // vertices (ObjectRange::spareParticles; gpu::kContactSpare): the
    // detection first lets them follow the splits (followSplits).
    uint32_t spareCount = 0;
    // The objects that have contacts, for messages.
    std::vector<std::string> objectNames;
    // The contact groups, one per batch copy (ObjectRange::copy; one in a
    // scene's world), each with its part of the hash table; and per contact
    // particle its index among its group's, the k a world of that group
    // alone gives it, which the colouring's priorities hash. Copy by copy,
    // a batch detects and colours as each copy's world does.
    std::vector<gpu::ContactGroup> groups;
    std::vector<uint32_t> localIndices;
    // Per triangle, its index among its group's triangles, which the
    // vertex-triangle constraints' priorities hash with the vertex's.
    std::vector<uint32_t> triangleLocalIndices;

    uint32_t count() const { return static_cast<uint32_t>(particles.size()); }
    bool empty() const { return particles.empty(); }
    uint32_t triangleCount() const { return static_cast<uint32_t>(triangles.size()); }
    bool hasTriangles() const { return !triangles.empty(); }
    uint32_t edgeCount() const { return static_cast<uint32_t>(edges.size()); }
    // The contact-constraint set (contact_constraints.h): the pairs' and the
    // four-particle constraints' capacities together, and its incidence
    // lists' entries (two per pair, four per four-particle constraint).
    uint64_t setCapacity() const { return uint64_t{capacity / 2} + triangleCapacity; }
    uint64_t incidenceCapacity() const { return uint64_t{capacity} + fourParticleIncidenceCapacity(); }
    // Their four-particle constraints' part alone.
    uint64_t fourParticleIncidenceCapacity() const { return uint64_t{4} * triangleCapacity; }
    // The push constants every contact pass starts from: the sizes above,
    // `write` (contact_pairs.comp, triangle_pairs.comp), the rest zero.
    gpu::ContactPush push(uint32_t write = 0) const {
        gpu::ContactPush push{};
        push.count = count();
        push.tableMask = tableSize - 1;
        push.cellSize = cellSize;
        push.margin = margin;
        push.capacity = capacity;
        push.write = write;
        push.triangles = triangleCount();
        push.triangleCapacity = triangleCapacity;
        push.edges = edgeCount();
        return push;
    }
};

// `inIterations`: the particles whose solver projects contacts inside its
// iterations (PBD's range): their pairs with each other are its iterations'
// (gpu::kContactInIterations); where some pair is not (afterSolve), every
// pair is also projected after every solver's solve.
ContactModel buildContactModel(const SharedModel& model, ParticleRange inIterations);

// The spare particles' contact records after the splits that
// `adjacencyRows` (ParticleStore::adjacencyRows, per particle of the store)
// record: a spare particle a split took (its row is the vertex it was split
// from) takes that vertex's rest position, so the rest-shape rule keeps it
// from its twin and from the vertex's rest neighbours, and touches what it
// meets; one no split has taken (its own row) is kContactUnused and
// touches nothing. What contact_follow_splits.comp does on the GPU.
void followSplits(ContactModel& contacts, std::span<const uint32_t> adjacencyRows);

// Whether an object of `range` has a "contacts" block.
bool hasContacts(const SharedModel& model, ParticleRange range);

}  // namespace vksim
