#pragma once
// Byte models of the passes: what one element of a pass reads and writes in
// device memory, from the buffer accesses of its shader. The benchmark turns
// them into bytes moved per step and effective bandwidth (bytes / GPU time).
// They are estimates: caches are ignored, except for the collider list, which
// every thread reads and which is at most 2 KiB; for passes whose work
// depends on the data (collisions touch only particles near a collider) the
// model is the upper bound, every branch taken.
//
// Passes are grouped into families: "stretch colour 3" is family "stretch".
// A new pass needs a row in kPassTraffic (pass_traffic.cpp); the benchmark
// test fails for a pass without one.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "shaders/pbd/pbd_types.h"
#include "solvers/sim_model.h"

namespace vksim {

// What a pass runs one thread for; elementsPerSweep() counts them in a model.
enum class ElementKind {
    Particle,      // a PBD particle (the PBD passes step only those)
    AnyParticle,   // every particle, PBD and PD (the finite check)
    Vertex,        // every vertex (the normals)
    DistanceConstraint,
    BendingConstraint,
    AttachmentConstraint,
    TetrahedronConstraint,  // a tetrahedron of an XPBD solid (docs/physics.md §16, "XPBD for solids")
    PdParticle,    // a projective dynamics particle (a row of the global system)
    PdSpring,
    PdTriangle,
    PdTetStrain,
    PdTetVolume,
    PdBending,
    PdAttachment,
    SpringParticle,  // a mass-spring particle (a block row of the Newton system)
    VbdParticle,     // a particle of a vertex block descent solid (docs/physics.md §16)
    ContactParticle, // a particle of an object with contacts (docs/physics.md §14)
    SplitParticle,   // a particle of a cloth that splits torn vertices, spare ones included (docs/physics.md §1)
    KeyframeTrack,   // a kinematic collider's track (docs/physics.md §17)
    FrameAttachment, // a particle attached to a body or a collider (docs/physics.md §1), of every solver
    Single,          // one thread (the mouse drag)
};

// What a per-particle pass additionally reads a variable number of, per row
// of the PD system: the off-diagonal entries (Jacobi) or the contribution
// slots (gather); per mass-spring particle: its incident springs, hinge
// incidences and quadratic bending entries (MsModel's incidence lists), or
// the 3x3 blocks of its row of the Newton matrix (diagonal included).
// Counted exactly from the model, not averaged.
enum class RowItems {
    None,
    PdOffDiagonal,
    PdGatherSlot,
    MsIncidentSpring,
    MsIncidentHinge,
    MsQuadraticEntry,
    MsBlock,
    VbdIncidentTet,  // a VBD particle's incident tetrahedra (VbdModel::incidentTets)
    PbdDistance,     // every PBD stretch constraint (the split pass's reindex threads)
    PbdBending,      // every PBD bending constraint (the tear and split passes' second runs)
    TearingTriangle, // a triangle of a cloth that tears (the tear pass's second run)
    SplitTriangle,   // a triangle of a cloth that splits torn vertices (the split pass's reindex)
};

// One more kind of row item of a pass and its bytes (read and written) per item.
struct RowItemTraffic {
    RowItems items = RowItems::None;
    uint32_t bytes = 0;
};

struct PassTraffic {
    std::string_view family;  // the pass name without " colour N"
    ElementKind element;
    uint32_t readBytes;   // per element
    uint32_t writeBytes;  // per element
    std::string_view accesses;  // what is read and written, for people checking the numbers
    RowItems items = RowItems::None;
    uint32_t itemReadBytes = 0;  // per item
    // Further kinds of row items (the mass-spring gathers walk up to three lists).
    std::array<RowItemTraffic, 3> moreItems{};
    // Sweeps a step: 0 for one a run of each of the family's passes (a
    // colour sweep); 1 for a pass of several runs of different work once a
    // frame (the tear and split passes), whose row models all of them.
    uint32_t sweepsPerStep = 0;
};

std::span<const PassTraffic> passTrafficTable();

// The row of `family`, if the table has one.
const PassTraffic* findPassTraffic(std::string_view family);

// "stretch colour 3" and "stretch overflow" -> "stretch"; any other name is its own family.
std::string passFamily(std::string_view passName);

// Elements one sweep of a family processes in `model`: every colour of a
// constraint family once, every element of a PD family once, or every
// particle of the range the pass steps once.
uint64_t elementsPerSweep(ElementKind element, const SimModel& model);

// Bytes one sweep of `traffic`'s pass moves in `model`: its elements' reads
// and writes, plus the per-row items (CSR entries, gather slots, incident
// springs, matrix blocks) it reads or writes.
uint64_t bytesPerSweep(const PassTraffic& traffic, const SimModel& model);

// "particle", "distance constraint", ...
std::string_view elementName(ElementKind element);

// Constraint families are what "constraints per second" counts: PBD
// constraints per projection, PD elements per local step.
constexpr bool isConstraint(ElementKind element) {
    switch (element) {
        case ElementKind::DistanceConstraint:
        case ElementKind::BendingConstraint:
        case ElementKind::AttachmentConstraint:
        case ElementKind::PdSpring:
        case ElementKind::PdTriangle:
        case ElementKind::PdTetStrain:
        case ElementKind::PdTetVolume:
        case ElementKind::PdBending:
        case ElementKind::PdAttachment: return true;
        default: return false;
    }
}

// Mass-spring passes that evaluate every spring once per sweep (forces,
// Newton assembly, VBD; not the energy diagnostic): what "constraints per
// second" counts for a mass-spring scene.
constexpr bool evaluatesSprings(const PassTraffic& traffic) {
    return traffic.element == ElementKind::SpringParticle && traffic.items == RowItems::MsIncidentSpring &&
           traffic.family != "springs: energy";
}

}  // namespace vksim
