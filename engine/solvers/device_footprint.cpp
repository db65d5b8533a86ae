#include "solvers/device_footprint.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "geometry/tet_mesh.h"
#include "io/triangle_surface.h"
#include "shaders/contacts/contact_types.h"
#include "shaders/springs/spring_types.h"

namespace vksim {
namespace {

// All GPU buffers of a solver over its particles, and its largest single
// buffer (shared by every object of that solver), per particle.
struct SolverBytes {
    uint64_t total;
    uint64_t largestBuffer;
};

// PBD cloth, per grid vertex: 6 particle vec4s (x, p, v, contact, body
// push, normal) 96 B; ~4 distance constraints x (16 + 4) 80 B; ~3 bending
// constraints x (48 + 4) 156 B; 2 triangles x 12 B; CSR adjacency 4 + 6 x
// 4 B; the CPU cluster sweep's contact lists 4 B. 388 B, rounded up. Largest: the
// bending constraints, 3 x 48 B.
constexpr SolverBytes kPbdCloth{400, 144};
// PD cloth, per grid vertex: particle state and normal 48 B, three q
// iterates 48 B, contact, body push, collision target, rhs 64 B, PdRow 32 B; ~20
// off-diagonal entries (springs, triangles and the bending stencil reach the
// 2-ring) 160 B; ~26 contribution slots (8 spring, 6 triangle, 12 bending)
// of 16 B plus their 4 B gather index 520 B; the elements: 4 springs 64 B,
// 2 triangles 96 B, 3 bending 144 B; rendering 52 B. 1228 B, rounded up.
// Largest: the contribution slots, 26 x 16 B.
constexpr SolverBytes kPdCloth{1400, 416};
// Mass-spring cloth, per grid vertex: 8 particle vec4s 128 B; ~6 springs of
// 32 B 192 B and their 12 incidences of 8 B 96 B; ~3 hinges of 32 B and 12
// hinge incidences 144 B; ~13 quadratic entries of 16 B 208 B; MsParticle,
// vertex order and the iterate 52 B; the Newton matrix: 13 blocks of 64 B
// (the diagonal and 4 structural, 4 shear and 4 bending neighbours) 832 B,
// the row 64 B, rhs and three iterates 64 B; the line search's partials
// 40 B per 64 particles; rendering 52 B. 1833 B, rounded up. Largest: the
// Newton matrix's blocks.
constexpr SolverBytes kSpringCloth{2000, 832};
// PD tetrahedra, per lattice vertex (about one cube cell each): 6 strain and
// 6 volume tetrahedra of 80 B 960 B, their 48 slots of 16 + 4 B 960 B, 14
// off-diagonal entries 112 B, per-particle buffers as for cloth 192 B.
// 2224 B, rounded up. Largest: the contribution slots, 48 x 16 B.
constexpr SolverBytes kPdTets{2400, 768};
// XPBD tetrahedra (docs/physics.md §16, "XPBD for solids"), per lattice vertex: 6
// tetrahedra of 80 B and their 2 multipliers 528 B in one buffer, 6 x 4
// particle indices of the colouring's sort, particle buffers as for a PBD
// cloth 96 B, surface triangles and adjacency ~40 B. 688 B, rounded up.
// Largest: the tetrahedron buffer, 6 x 88 B.
constexpr SolverBytes kXpbdTets{800, 528};
// Every solver's particles share the particle buffers: one vec4 each.
constexpr uint64_t kParticleBufferBytes = 16;
// Per particle of an object with "contacts" (contacts/contact_detection.h):
// the neighbour list and each entry's constraint, kContactsPerParticle
// entries of 4 B each, 256 B; the constraints, half as many pairs of 8 B,
// 128 B, and their colour, round and colour-list slot 192 B; the
// ContactParticle 32 B; bucket, two grid orders, the counts and offsets of
// entries and constraints and the touching count 32 B; the correction 16 B;
// the hash table's count and fill, two buckets per particle rounded up to
// a power of two, at most 32 B; the neighbours the search keeps for its
// writing run, kKeptNeighbours (16) of 4 B, 64 B; the colouring's colours
// taken 4 B and, per colour, the strongest proposal with its priority
// 128 B. 884 B, rounded up. Largest: the neighbour list (as large as the
// entries' constraints and the constraints), shared by every contact object.
constexpr SolverBytes kContacts{896, 4 * gpu::kContactsPerParticle};
// Per contact particle, where some object has "triangles"
// (contacts/triangle_detection.h, edge_detection.h):
// kTriangleContactsPerParticle + kEdgeContactsPerParticle four-particle
// constraints of 48 B, their colour, round and colour-list slot 12 B and
// four incidence entries 16 B, 3648 B; the incidence start and count, the
// touching count and the correction 28 B; about three edges of 16 B, their
// two adjacency entries, counts and offsets 72 B; the pairs' incidence
// entries 128 B and the unordered copy of the four-particle ones 768 B;
// the surface grid (contacts/particle_grid.h): bucket and two grid orders
// 12 B and its hash table's count and fill, at most 32 B; about two
// triangles' neighbours across their edges 32 B; the partners the searches
// keep for their writing runs, kKeptPartners (4) of 4 B for each of about two
// triangles and three edges, 80 B. 4800 B. Largest: the constraints.
constexpr SolverBytes kTriangleContacts{
    4800, sizeof(gpu::TriangleContact) * (gpu::kTriangleContactsPerParticle + gpu::kEdgeContactsPerParticle)};
// Per contact particle, where a mass-spring object has "contacts": the
// coupling block of each list entry in Newton's system
// (gpu::MsContactCoupling), in one buffer.
constexpr uint64_t kSpringContactCouplingBytes = sizeof(gpu::MsContactCoupling) * gpu::kContactsPerParticle;

enum Pool { kPbd, kPd, kSprings, kPoolCount };  // buffers shared by the objects of one solver

struct ObjectFootprint {
    std::string key;   // the value to lower
    std::string size;  // that value as the user wrote it, "4096x4096"
    uint64_t particles = 0;
    SolverBytes bytes{};
    Pool pool = kPbd;
    std::string contactsKey;  // its "contacts" block's pointer, where it has one
    bool triangleContacts = false;  // its contacts have "triangles"
};

ObjectFootprint clothFootprint(const ClothObject& cloth) {
    ObjectFootprint object;
    if (cloth.mesh) {
        object.key = cloth.source + "/file";
        object.particles = cloth.mesh->surface ? cloth.mesh->surface->positions.size() : 0;
        object.size = fmt::format("a mesh of {} vertices", object.particles);
    } else {
        object.key = cloth.source + "/resolution";
        object.particles = uint64_t{cloth.grid.resolution.x} * cloth.grid.resolution.y;
        object.size = fmt::format("{}x{}", cloth.grid.resolution.x, cloth.grid.resolution.y);
    }
    if (cloth.contacts.enabled) object.contactsKey = cloth.source + "/contacts";
    object.triangleContacts = cloth.contacts.enabled && cloth.contacts.triangles;
    switch (cloth.method) {
    case SolverMethod::Pbd: object.bytes = kPbdCloth, object.pool = kPbd; break;
    case SolverMethod::Pd: object.bytes = kPdCloth, object.pool = kPd; break;
    case SolverMethod::Springs: object.bytes = kSpringCloth, object.pool = kSprings; break;
    }
    return object;
}

ObjectFootprint solidFootprint(const SolidObject& solid) {
    ObjectFootprint object{.bytes = kPdTets, .pool = kPd};
    if (solid.method == SolidMethod::Xpbd) object = {.bytes = kXpbdTets, .pool = kPbd};
    switch (solid.shape) {
    case SolidShape::Box:
        object.key = solid.source + "/cells";
        object.particles = uint64_t{solid.cells.x + 1} * (solid.cells.y + 1) * (solid.cells.z + 1);
        object.size = fmt::format("{}x{}x{}", solid.cells.x, solid.cells.y, solid.cells.z);
        break;
    case SolidShape::Ball: {
        // The lattice's vertices inside the ball: at most the whole cube's.
        const uint64_t side = uint64_t{solid.cellsAcross} + 1;
        object.key = solid.source + "/cells";
        object.particles = side * side * side;
        object.size = fmt::format("{} cells across", solid.cellsAcross);
        break;
    }
    case SolidShape::Mesh:
        object.key = solid.source + "/file";
        object.particles = solid.tetMesh ? solid.tetMesh->positions.size() : 0;
        object.size = fmt::format("a mesh of {} vertices", object.particles);
        break;
    }
    // Its surface's vertices are its contact particles: at most all of them.
    if (solid.contacts.enabled) object.contactsKey = solid.source + "/contacts";
    object.triangleContacts = solid.contacts.enabled && solid.contacts.triangles;
    return object;
}

std::string gibibytes(uint64_t bytes) { return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1u << 30)); }
std::string mebibytes(uint64_t bytes) { return fmt::format("{:.0f} MiB", static_cast<double>(bytes) / (1u << 20)); }

}  // namespace

std::optional<FootprintProblem> checkDeviceFootprint(const Scene& scene, const DeviceLimits& limits) {
    std::vector<ObjectFootprint> objects;
    for (const ClothObject& cloth : scene.cloths) objects.push_back(clothFootprint(cloth));
    for (const SolidObject& solid : scene.solids) objects.push_back(solidFootprint(solid));
    if (objects.empty()) return std::nullopt;

    uint64_t particles = 0, bytes = 0, contactParticles = 0;
    bool springContacts = false;
    std::array<uint64_t, kPoolCount> poolBytes{};
    for (const ObjectFootprint& object : objects) {
        particles += object.particles;
        bytes += object.particles * object.bytes.total;
        poolBytes[object.pool] += object.particles * object.bytes.largestBuffer;
        if (!object.contactsKey.empty()) {
            contactParticles += object.particles;
            bytes += object.particles * kContacts.total;
            springContacts = springContacts || object.pool == kSprings;
        }
    }
    const bool triangleContacts =
        std::any_of(objects.begin(), objects.end(), [](const ObjectFootprint& o) { return o.triangleContacts; });
    if (triangleContacts) bytes += contactParticles * kTriangleContacts.total;
    uint64_t contactBufferBytes =
        springContacts ? std::max(kContacts.largestBuffer, kSpringContactCouplingBytes) : kContacts.largestBuffer;
    if (triangleContacts) contactBufferBytes = std::max(contactBufferBytes, kTriangleContacts.largestBuffer);
    if (springContacts) bytes += contactParticles * kSpringContactCouplingBytes;
    // Each refusal names the object that contributes most to what is too big.
    auto largestBy = [&](auto&& measure) -> const ObjectFootprint& {
        return *std::max_element(objects.begin(), objects.end(),
                                 [&](const auto& a, const auto& b) { return measure(a) < measure(b); });
    };

    if (bytes > limits.usableMemoryBytes) {
        const auto& object = largestBy([](const ObjectFootprint& o) { return o.particles * o.bytes.total; });
        return FootprintProblem{
            object.key, fmt::format("{} needs {} of device memory{}; the device has {} (vksim uses at most {})",
                                    object.size, gibibytes(bytes), objects.size() > 1 ? " with the other objects" : "",
                                    gibibytes(limits.heapBytes), gibibytes(limits.usableMemoryBytes))};
    }

    const auto pool = static_cast<Pool>(std::max_element(poolBytes.begin(), poolBytes.end()) - poolBytes.begin());
    const uint64_t largestBuffer = std::max(poolBytes[pool], particles * kParticleBufferBytes);
    if (largestBuffer > limits.maxStorageBufferRange) {
        const bool particleBuffer = largestBuffer > poolBytes[pool];
        const auto& object = largestBy([&](const ObjectFootprint& o) {
            return particleBuffer || o.pool == pool ? o.particles : 0;
        });
        // In MiB, or in bytes where both round to the same MiB (a 966 x 966
        // cloth on lavapipe needed "a 128 MiB buffer" of a 128 MiB limit).
        std::string needed = mebibytes(largestBuffer), range = mebibytes(limits.maxStorageBufferRange);
        if (needed == range)
            needed = fmt::format("{}-byte", largestBuffer), range = fmt::format("{} bytes", limits.maxStorageBufferRange);
        return FootprintProblem{object.key, fmt::format("{} needs a {} buffer; the device's maxStorageBufferRange is {}",
                                                        object.size, needed, range)};
    }

    if (contactParticles * contactBufferBytes > limits.maxStorageBufferRange) {
        const auto& object =
            largestBy([](const ObjectFootprint& o) { return o.contactsKey.empty() ? 0 : o.particles; });
        return FootprintProblem{
            object.contactsKey,
            fmt::format("{} particles with contacts need a {} contact list; the device's maxStorageBufferRange is {} "
                        "(take the block off the largest objects, or make them coarser)",
                        contactParticles, mebibytes(contactParticles * contactBufferBytes),
                        mebibytes(limits.maxStorageBufferRange))};
    }

    return std::nullopt;
}

}  // namespace vksim
