#include "bench/pass_traffic.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

#include "shaders/pbd/pbd_types.h"

namespace vksim {
namespace {

// Bytes per element; vec4 = 16 B. p: predicted position, x: position, v:
// velocity (each a vec4), C: the constraint record (pbd_types.h), material:
// its ConstraintMaterial row (16 B), lambda: its float multiplier, which
// only XPBD constraints move (pbd/project_*.glsl); the model counts it for
// every constraint, an upper bound by 8 B of 104 (stretch), 200 (bending) or
// 88 (attachment) for PBD ones.
//
// Projective dynamics (shaders/pd/*.comp; structs in pd/pd_types.h): q is
// the current iterate (a vec4 per particle), a slot one vec4 contribution
// (w S^T A^T p for one element vertex). The PD particle passes reuse the PBD
// shaders on the PD range (pd: predict writes q0 where PBD writes p), so
// their rows equal PBD's. The element passes read the element record and
// its vertices' q and write one slot per vertex. The gather and the Jacobi
// pass read a PdRow (32 B) per particle plus a variable number of items per
// row, counted exactly: gather slot indices (4 B) with the slot each names
// (16 B); off-diagonal entries (8 B: column, value) with q of that column
// (16 B). Pinned rows skip most of it; the model counts every row in full.
constexpr std::array kPassTraffic{
    PassTraffic{"pbd: predict", ElementKind::Particle, 32, 32, "reads x, v; writes v, p"},
    PassTraffic{"pbd: collide: generate", ElementKind::Particle, 40, 16,
                "reads p, v, its copy 8 (near a collider); writes contact"},
    PassTraffic{"pbd: stretch", ElementKind::DistanceConstraint, 68, 36,
                "reads C 16, 2 p, material, lambda; writes 2 p, lambda"},
    PassTraffic{"pbd: bending", ElementKind::BendingConstraint, 132, 68,
                "reads C 48, 4 p, material, lambda; writes 4 p, lambda"},
    PassTraffic{"pbd: attachment", ElementKind::AttachmentConstraint, 68, 20,
                "reads C 32, p, material, lambda; writes p, lambda"},
    PassTraffic{"pbd: tetrahedron", ElementKind::TetrahedronConstraint, 80 + 4 * 16 + 16 + 8, 4 * 16 + 8,
                "reads C 80, 4 p, elastic row 16, 2 lambdas; writes 4 p, 2 lambdas (the volume constraint's "
                "material row not counted)"},
    PassTraffic{"pbd: collide: project", ElementKind::Particle, 32, 20,
                "reads contact bits 8, p, its copy 8 (with candidates); writes p, touching bits 4 (4 B read without "
                "candidates)"},
    PassTraffic{"pbd: update velocity", ElementKind::Particle, 32, 32, "reads x, p; writes v, x"},
    PassTraffic{"pbd: friction/restitution", ElementKind::Particle, 56, 16,
                "reads contact 16, x, v, its copy 8 (when touching); writes v"},
    // An interior grid vertex has 6 triangles around it: per triangle its
    // index 4 B, its 3 vertex indices 12 B and their 3 positions 48 B.
    PassTraffic{"normals", ElementKind::Vertex, 8 + 6 * 64, 16,
                "reads 2 CSR offsets 8, 6 x (triangle index, 3 indices, 3 x); writes the normal"},
    PassTraffic{"finite check", ElementKind::AnyParticle, 32, 0, "reads x, v"},
    // The wind (step/wind_stage.h): per particle the air and, as the
    // normals, the gather over an interior vertex's 6 triangles; per
    // triangle (two a grid vertex) its 3 vertices' x, air and v.
    PassTraffic{"wind: clock", ElementKind::Single, 16, 16, "one thread: reads and writes the clock 16"},
    PassTraffic{"wind: air", ElementKind::AnyParticle, 36, 16, "reads x, aero 16, the clock 4; writes the air"},
    PassTraffic{"wind: triangles", ElementKind::AnyParticle, 2 * (12 + 16 + 9 * 16), 2 * 16,
                "2 triangles: reads 3 indices, aero 16, 3 x, 3 air, 3 v; writes the force"},
    PassTraffic{"wind: forces", ElementKind::AnyParticle, 16 + 4 + 8 + 6 * 32, 16,
                "reads x, its adjacency row 4, 2 CSR offsets 8, 6 x (triangle index, its 3 indices, its force); "
                "writes a"},

    PassTraffic{"pd: predict", ElementKind::PdParticle, 32, 32, "particle/predict.comp: reads x, v; writes v, q0"},
    PassTraffic{"pd: collide: generate", ElementKind::PdParticle, 40, 16,
                "particle/collide_generate.comp: reads q0, v, its copy 8 (near a collider); writes contact"},
    PassTraffic{"pd: local springs", ElementKind::PdSpring, 16 + 2 * 16, 2 * 16,
                "reads PdSpring 16, 2 q; writes 2 slots"},
    PassTraffic{"pd: local triangle strain", ElementKind::PdTriangle, 48 + 3 * 16, 3 * 16,
                "reads PdTriangle 48, 3 q; writes 3 slots"},
    PassTraffic{"pd: local tet strain", ElementKind::PdTetStrain, 80 + 4 * 16, 4 * 16,
                "reads PdTetrahedron 80, 4 q; writes 4 slots"},
    PassTraffic{"pd: local tet volume", ElementKind::PdTetVolume, 80 + 4 * 16, 4 * 16,
                "reads PdTetrahedron 80, 4 q; writes 4 slots"},
    PassTraffic{"pd: local bending", ElementKind::PdBending, 48 + 4 * 16, 4 * 16,
                "reads PdBending 48, 4 q; writes 4 slots"},
    PassTraffic{"pd: local attachments", ElementKind::PdAttachment, 32 + 16, 16,
                "reads PdAttachment 32, q; writes 1 slot"},
    PassTraffic{"pd: local collisions", ElementKind::PdParticle, 16 + 8, 4 + 16,
                "reads q, contact bits 8 (colliders cached); writes touching bits 4 (with candidates), "
                "collision target"},
    PassTraffic{"pd: gather rhs", ElementKind::PdParticle, 32 + 16, 16,
                "reads PdRow 32, collision target; writes rhs; per gather slot: index 4 + slot 16",
                RowItems::PdGatherSlot, 4 + 16},
    PassTraffic{"pd: jacobi/chebyshev", ElementKind::PdParticle, 32 + 5 * 16 + 12, 16,
                "reads PdRow 32, x, v, rhs, q previous, q current, its copy 4 and the copy's gamma and omega 8; "
                "writes q next; per off-diagonal entry: "
                "entry 8 + q of its column 16",
                RowItems::PdOffDiagonal, 8 + 16},
    PassTraffic{"pd: jacobi/chebyshev, tiled", ElementKind::PdParticle, 32 + 5 * 16 + 12, 16,
                "reads PdRow 32, x, v, rhs, q previous, q current (once, into shared memory), its copy 4 and the "
                "copy's gamma and omega 8; writes q next; "
                "per off-diagonal entry: entry 8 (its q from shared memory; not counted: the window's halo, "
                "columns beyond it)",
                RowItems::PdOffDiagonal, 8},
    PassTraffic{"pd: collide: project", ElementKind::PdParticle, 32, 20,
                "particle/project_collision.comp: reads contact bits 8, q, its copy 8 (with candidates); writes q, "
                "touching bits 4"},
    PassTraffic{"pd: update velocity", ElementKind::PdParticle, 32, 32,
                "particle/update_velocity.comp: reads x, q; writes v, x"},
    PassTraffic{"pd: friction/restitution", ElementKind::PdParticle, 56, 16,
                "particle/contact_velocity.comp: reads contact 16, x, v, its copy 8 (when touching); writes v"},

    // Mass-spring cloth (shaders/springs/*.comp, springs/spring_types.h; the
    // Newton system's structs in shared/linear_types.h). Every pass runs one
    // thread per particle of the range (the VBD colours one per vertex of the
    // colour: over the colours, every particle once per sweep) and gathers
    // over the particle's incidence lists: per incident spring its 8 B
    // incidence record, the 32 B MsSpring and the other end's 16 B position;
    // per quadratic bending entry the 16 B entry and its column's position;
    // per hinge incidence (explicit force pass) 4 B, the 32 B MsHinge and its
    // four positions. The assembly writes its row's 3x3 blocks (three vec4
    // columns, 48 B): zeroes every block of the row, then adds each spring's
    // and quadratic entry's block (read and written). The block-Jacobi pass
    // reads per block the 64 B LinearBlock and the 16 B iterate of its column.
    // MsParticle and LinearBlockRow are 32 B and 64 B. Pinned particles skip
    // most of it; the model counts every row in full. The shared particle
    // passes are modelled on the implicit methods' path (symplectic Euler
    // predict, v = (p - x)/h): the explicit integrators also read the
    // acceleration and the integrator stage (32 B) and write the stage (16 B).
    PassTraffic{"springs: predict", ElementKind::SpringParticle, 32, 32,
                "particle/predict.comp: reads x, v; writes v, p (explicit integrators: + a, stage; + stage)"},
    PassTraffic{"springs: collide: generate", ElementKind::SpringParticle, 40, 16,
                "particle/collide_generate.comp: reads p, v, its copy 8 (near a collider); writes contact"},
    PassTraffic{"springs: forces", ElementKind::SpringParticle, 80, 16,
                "reads x, y (p or stage), v, MsParticle 32; writes a; per incident spring 8 + 32 + 16, per hinge "
                "incidence 4 + 32 + 4 x 16, per quadratic entry 16 + 16",
                RowItems::MsIncidentSpring, 8 + 32 + 16,
                {RowItemTraffic{RowItems::MsIncidentHinge, 4 + 32 + 4 * 16},
                 RowItemTraffic{RowItems::MsQuadraticEntry, 16 + 16}}},
    PassTraffic{"springs: forces (second stage)", ElementKind::SpringParticle, 80, 16,
                "as springs: forces, at p (velocity Verlet) or x + h/2 stage (midpoint)",
                RowItems::MsIncidentSpring, 8 + 32 + 16,
                {RowItemTraffic{RowItems::MsIncidentHinge, 4 + 32 + 4 * 16},
                 RowItemTraffic{RowItems::MsQuadraticEntry, 16 + 16}}},
    PassTraffic{"springs: newton assemble", ElementKind::SpringParticle, 3 * 16 + 64 + 32, 16 + 48 + 16 + 48,
                "reads x0, y, x^k, LinearBlockRow 64, MsParticle 32; writes dx^0, inverse diagonal 48, rhs, diagonal "
                "block 48; per block of the row 48 written (zeroed); per incident spring 8 + 32 + 16 + its block "
                "48 read and 48 written; per quadratic entry 16 + 16 + its block 96",
                RowItems::MsIncidentSpring, 8 + 32 + 16 + 2 * 48,
                {RowItemTraffic{RowItems::MsBlock, 48}, RowItemTraffic{RowItems::MsQuadraticEntry, 16 + 16 + 2 * 48}}},
    PassTraffic{"springs: jacobi/chebyshev", ElementKind::SpringParticle, 64 + 3 * 16 + 12, 16,
                "springs/newton_jacobi.comp: reads LinearBlockRow 64, x^k, rhs, x^(k-1), its copy 4 and the copy's "
                "gamma and omega 8; writes x^(k+1); per block LinearBlock 64 + x of its column 16",
                RowItems::MsBlock, 64 + 16},
    PassTraffic{"springs: line search", ElementKind::SpringParticle, 4 * 16 + 32, 0,
                "reads x0, y, x^k, dx, MsParticle 32 (each once; the 9 evaluations re-read them from cache); reads "
                "16 B and writes 40 B per workgroup (not counted); per incident spring 8 + 32 + x and dx of its other end 32, per "
                "quadratic entry 16 + 32",
                RowItems::MsIncidentSpring, 8 + 32 + 32, {RowItemTraffic{RowItems::MsQuadraticEntry, 16 + 32}}},
    PassTraffic{"springs: line search choose", ElementKind::Single, 0, 12,
                "one workgroup per batch copy: reads the line search's 40 B per workgroup of its copy (not "
                "counted); writes the copy's alpha, F, slope"},
    PassTraffic{"springs: newton update", ElementKind::SpringParticle, 32 + 4, 16,
                "reads x^k, dx, the row's copy 4 (and its copy's alpha from the line search); writes x^(k+1)"},
    PassTraffic{"springs: vbd init", ElementKind::SpringParticle, 16, 16,
                "particle/copy_range.comp: reads y; writes x"},
    PassTraffic{"springs: vbd contact snapshot", ElementKind::SpringParticle, 16, 16,
                "particle/copy_range.comp: reads x; writes the snapshot the contact energy reads"},
    // Per row, as the contact passes count a list (below): n = 16 entries.
    PassTraffic{"springs: newton contact totals", ElementKind::SpringParticle, 4 + 2 * 16 + 8 + 64 + 16 * (4 + 64 + 32),
                4,
                "with contacts: reads contactOf 4, x^k, x0, the list's offset and count 8, ContactParticle 64; per "
                "entry of 16 the neighbour 4, its record 64, the other particle's x^k and x0; writes the total 4"},
    PassTraffic{"springs: vbd", ElementKind::SpringParticle, 4 + 16 + 32 + 16 + 16, 16,
                "reads vertex order 4, x, MsParticle 32, y, x0; writes x; per incident spring 8 + 32 + 16, per "
                "quadratic entry 16 + 16",
                RowItems::MsIncidentSpring, 8 + 32 + 16, {RowItemTraffic{RowItems::MsQuadraticEntry, 16 + 16}}},
    PassTraffic{"springs: energy", ElementKind::SpringParticle, 3 * 16 + 32, 0,
                "residual tracking only: reads x0, y, x, MsParticle 32; writes 4 B per workgroup (not counted); per "
                "incident spring 8 + 32 + 16, per quadratic entry 16 + 16",
                RowItems::MsIncidentSpring, 8 + 32 + 16, {RowItemTraffic{RowItems::MsQuadraticEntry, 16 + 16}}},
    // Vertex block descent solids (shaders/vbd/*.comp, vbd/vbd_types.h): the
    // shared particle passes as PD's and the springs'; the sweep runs one
    // thread per vertex of a colour (over the colours, every particle once
    // per sweep) and gathers, per incident tetrahedron, its 4 B incidence
    // entry, the 80 B VbdTet, its 16 B material row and the other three
    // vertices' iterates (48 B). Pinned vertices skip it; the model counts
    // every row in full.
    PassTraffic{"vbd: predict", ElementKind::VbdParticle, 32, 32, "particle/predict.comp: reads x, v; writes v, y"},
    PassTraffic{"vbd: collide: generate", ElementKind::VbdParticle, 40, 16,
                "particle/collide_generate.comp: reads y, v, its copy 8 (near a collider); writes contact"},
    PassTraffic{"vbd: init", ElementKind::VbdParticle, 16 + 16 + 16 + 4, 16 + 16,
                "reads y, u, the previous u, drag 4; writes the iterate, the previous u"},
    PassTraffic{"vbd: collider planes", ElementKind::VbdParticle, 16 + 16 + 16, 16 + 32,
                "with colliders: reads y, contact 16, x (near a collider: its SDF); writes the plane, its friction 32"},
    PassTraffic{"vbd: sweep", ElementKind::VbdParticle, 4 + 16 + 16 + 8 + 16 + 32, 16,
                "reads vertex order 4, x, y, VbdVertex 8, collider plane, its friction 32; writes x; per incident "
                "tetrahedron: entry 4 "
                "+ VbdTet 80 "
                "+ material 16 + 3 x",
                RowItems::VbdIncidentTet, 4 + 80 + 16 + 3 * 16},
    PassTraffic{"vbd: energy", ElementKind::VbdParticle, 16 + 16 + 8 + 16, 0,
                "residual tracking only: reads y, x, VbdVertex 8, collider plane; writes 4 B per workgroup (not "
                "counted); per "
                "incident tetrahedron: entry 4 + VbdTet 80 + material 16 + 3 x",
                RowItems::VbdIncidentTet, 4 + 80 + 16 + 3 * 16},
    PassTraffic{"vbd: collide: project", ElementKind::VbdParticle, 32, 20,
                "particle/project_collision.comp: reads contact bits 8, x, its copy 8 (with candidates); writes x, "
                "touching bits 4"},
    PassTraffic{"vbd: update velocity", ElementKind::VbdParticle, 32, 32,
                "particle/update_velocity.comp: reads x, y; writes v, x"},
    PassTraffic{"vbd: friction/restitution", ElementKind::VbdParticle, 56, 16,
                "particle/contact_velocity.comp: reads contact 16, x, v, its copy 8 (when touching); writes v"},
    // Kinematic colliders (docs/physics.md §17): per track its 32 B record,
    // the two frames it interpolates between (32 B each), its clock and the
    // parent's row's pose (position and rotation, 32 B); writes the clock
    // and the row's pose and velocities (64 B). The attachments to bodies
    // and colliders (docs/physics.md §1), under each solver's prefix, per
    // attachment of the whole scene: its 32 B record, its row's pose (32 B,
    // as texels), the particle and its coupling push (read and written).
    PassTraffic{"keyframes: colliders", ElementKind::KeyframeTrack, 32 + 2 * 32 + 16 + 32, 16 + 64,
                "reads the track 32, 2 frames, its clock 16, the parent's pose 32; writes the clock, the row 64"},
    PassTraffic{"pbd: attachments to bodies", ElementKind::FrameAttachment, 32 + 32 + 16 + 16, 16 + 16,
                "reads the attachment 32, its row's pose 32, p, push; writes p, push"},
    PassTraffic{"pd: attachments to bodies", ElementKind::FrameAttachment, 32 + 32 + 16 + 16, 16 + 16,
                "reads the attachment 32, its row's pose 32, q, push; writes q, push"},
    PassTraffic{"springs: attachments to bodies", ElementKind::FrameAttachment, 32 + 32 + 16 + 16, 16 + 16,
                "reads the attachment 32, its row's pose 32, x, push; writes x, push"},
    // Contacts between objects (docs/physics.md §14), per contact particle,
    // for a particle with n = 16 neighbours in its list (half the list's
    // room) and 8 particles in each of the 27 cells it searches; the
    // constraints are n/2 per particle. Per substep the grid's seven runs
    // read p and the ContactParticle 64 B, its bucket and slots 16 B, and
    // the 8 of its bucket 32 B when ordering; the pairs' two searches read 27
    // buckets' start and count 8 B and each candidate's index, p and record
    // 68 B, and write the list and constraints 4n + 8n/2 B; in the
    // colouring a constraint works until it is coloured, about 4 of the 24
    // rounds (a coloured one reads its round and returns), reading both
    // particles' lists and each entry's constraint and round 2n x 12 B. Per
    // iteration the colours read and write both particles 2 x 32 B and the
    // record 2 x 48 B per constraint, the Jacobi passes the list and each
    // neighbour's p, x and record 2 n x 84 B.
    PassTraffic{"contacts: grid", ElementKind::ContactParticle, 64 + 16 + 32, 16,
                "reads p, ContactParticle, bucket, slots, the bucket's others; writes bucket, slot, grid (where a "
                "cloth splits torn vertices one run more, its spare records following the splits: not counted)"},
    PassTraffic{"contacts: pairs", ElementKind::ContactParticle, 2 * (64 + 27 * 8 + 27 * 8 * 68), 16 * 4 + 8 * 8,
                "two searches: p and record, 27 buckets, 8 candidates each; writes the list and constraints"},
    PassTraffic{"contacts: colouring", ElementKind::ContactParticle, 4 * 8 * 2 * 16 * 12 + 20 * 8 * 4, 8 * 8,
                "8 constraints, 4 rounds each: both lists, each entry's constraint and round; writes colour, round"},
    PassTraffic{"contacts: solve", ElementKind::ContactParticle, 8 * 2 * 80 + 2 * 16 * 84, 8 * 2 * 16 + 16,
                "8 constraints: 2 p, x and records; then the Jacobi average over the list (counted for every "
                "particle; it runs over those of the constraints left without a colour)"},
    PassTraffic{"contacts: after solve", ElementKind::ContactParticle, 8 * 2 * 80 + 2 * 16 * 84, 8 * 2 * 16 + 16,
                "as contacts: solve, over every pair, after every solver's solve"},
    // Tearing (docs/physics.md §1, "Tearing"), once a frame. The tear pass's
    // first run, a thread per stretch constraint: its record 16, its
    // material's strain 4 and its two particles' x; the constraint that
    // breaks writes its rest length. The second run, a thread per bending
    // constraint (its scale 4, its hinge's index 4 and that constraint's
    // rest length 4; writes the scale) and per triangle of a tearing cloth
    // (its edges' constraints and index 16, their three rest lengths 12, its
    // first corner 4; a dropped one writes two corners 8). Upper bounds:
    // every breaking branch taken.
    PassTraffic{"pbd: tear", ElementKind::DistanceConstraint, 16 + 4 + 2 * 16, 4,
                "stretch run: reads C 16, strain 4, 2 x; writes rest length 4. Second run: per bending constraint "
                "scale 4, hinge 4, its rest length 4, writes scale 4; per tearing triangle edges 16, 3 rest lengths "
                "12, first corner 4, writes 2 corners 8",
                RowItems::PbdBending, 4 + 4 + 4 + 4, {RowItemTraffic{RowItems::TearingTriangle, 16 + 12 + 4 + 8}},
                1},
    // The split pass (pbd/split.comp, split_reindex.comp), once a frame: per
    // particle of a splitting cloth the count run (its cloth 32, the reserve's
    // level 4, its adjacency row 4 and the row's two offsets 8; per triangle
    // of the row, six for a grid's inner vertex, its index 4, its corners 12
    // and its edges' stretch constraints 16 with the two at the particle's
    // rest lengths 8; writes its need 4), the scan's three runs (reads and
    // writes its need twice: 8 + 8) and the apply run (its cloth, level, row
    // and offsets again, its need and the next 8; per triangle its index and
    // corners 16; writes the corner on it 4). Most particles stop at the
    // quick test; the few that split read more (fans' areas) and write a copy
    // of x, p and v per new particle, not counted. The reindex run, per
    // triangle of a splitting cloth (its 3 new corners 12; writes 3 corners
    // 12), per stretch constraint (C 16, its two follow entries 16, two
    // corners 8; writes p0, p1 8) and per bending constraint (its scale 4,
    // particles 16, follow entries 32, four corners 16; writes particles 16).
    PassTraffic{"pbd: split", ElementKind::SplitParticle,
                (32 + 4 + 4 + 8 + 6 * (4 + 12 + 16 + 8)) + 8 + (32 + 4 + 4 + 8 + 8 + 6 * 16), 4 + 8 + 6 * 4,
                "count: cloth 32, level 4, row 4, offsets 8, 6 x (triangle 4, corners 12, edges 16, 2 rest "
                "lengths 8), writes need 4; scan: need 8, writes 8; apply: cloth, level, row, offsets, needs 8, "
                "6 x (triangle 4, corners 12), writes 6 corners 24. Reindex: per triangle 3 corners 12, writes 12; "
                "per stretch constraint C 16, follows 16, corners 8, writes 8; per bending constraint scale 4, "
                "particles 16, follows 32, corners 16, writes 16",
                RowItems::SplitTriangle, 12 + 12,
                {RowItemTraffic{RowItems::PbdDistance, 16 + 16 + 8 + 8},
                 RowItemTraffic{RowItems::PbdBending, 4 + 16 + 32 + 16 + 16}},
                1},
    PassTraffic{"pd: solved into p", ElementKind::PdParticle, 16, 16,
                "particle/copy_range.comp: reads q; writes p (contacts after the solves)"},
    PassTraffic{"springs: solved into p", ElementKind::SpringParticle, 16, 16,
                "particle/copy_range.comp: reads x; writes p (contacts after the solves)"},
    PassTraffic{"springs: mouse drag", ElementKind::Single, 16, 16,
                "pbd/project_mouse.comp: reads x of the dragged particle; writes its x"},
    PassTraffic{"springs: collide: project", ElementKind::SpringParticle, 32, 20,
                "particle/project_collision.comp: reads contact bits 8, x, its copy 8 (with candidates); writes x, "
                "touching bits 4"},
    PassTraffic{"springs: update velocity", ElementKind::SpringParticle, 32, 32,
                "particle/update_velocity.comp: reads x, p; writes v, x (explicit integrators: + a, stage; + stage)"},
    PassTraffic{"springs: friction/restitution", ElementKind::SpringParticle, 56, 16,
                "particle/contact_velocity.comp: reads contact 16, x, v, its copy 8 (when touching); writes v"},
};

}  // namespace

std::span<const PassTraffic> passTrafficTable() { return kPassTraffic; }

const PassTraffic* findPassTraffic(std::string_view family) {
    const auto it = std::find_if(kPassTraffic.begin(), kPassTraffic.end(),
                                 [&](const PassTraffic& row) { return row.family == family; });
    return it == kPassTraffic.end() ? nullptr : &*it;
}

std::string passFamily(std::string_view passName) {
    // The overflow group is part of its family's sweep: the same shader and
    // bytes per constraint, and the family's element count includes it.
    constexpr std::string_view kOverflowSuffix = " overflow";
    if (passName.ends_with(kOverflowSuffix) && passName.size() > kOverflowSuffix.size())
        return std::string(passName.substr(0, passName.size() - kOverflowSuffix.size()));
    constexpr std::string_view kColour = " colour ";
    const size_t at = passName.rfind(kColour);
    if (at == std::string_view::npos) return std::string(passName);
    const std::string_view number = passName.substr(at + kColour.size());
    const bool digits = !number.empty() && std::all_of(number.begin(), number.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
    });
    return std::string(digits ? passName.substr(0, at) : passName);
}

uint64_t elementsPerSweep(ElementKind element, const SimModel& model) {
    switch (element) {
        case ElementKind::Particle: return model.pbd.particleCount;
        case ElementKind::AnyParticle:
        case ElementKind::Vertex: return model.particleCount();
        case ElementKind::DistanceConstraint: return model.pbd.distance.size();
        case ElementKind::BendingConstraint: return model.pbd.bending.size();
        case ElementKind::AttachmentConstraint: return model.pbd.attachments.size();
        case ElementKind::TetrahedronConstraint: return model.pbd.tetrahedra.size();
        case ElementKind::PdParticle: return model.pd.particleCount;
        case ElementKind::PdSpring: return model.pd.springs.size();
        case ElementKind::PdTriangle: return model.pd.triangles.size();
        case ElementKind::PdTetStrain: return model.pd.tetStrain.size();
        case ElementKind::PdTetVolume: return model.pd.tetVolume.size();
        case ElementKind::PdBending: return model.pd.bending.size();
        case ElementKind::PdAttachment: return model.pd.attachments.size();
        case ElementKind::SpringParticle: return model.springs.particleCount;
        case ElementKind::VbdParticle: return model.vbd.particleCount;
        case ElementKind::ContactParticle: {
            uint64_t count = 0;
            for (const ObjectRange& object : model.objects)
                if (object.contacts.enabled) count += object.particleCount;
            return count;
        }
        case ElementKind::SplitParticle: {
            uint64_t count = 0;
            for (const gpu::SplitCloth& cloth : model.pbd.splitCloths) count += cloth.vertexCount + cloth.spareCount;
            return count;
        }
        case ElementKind::KeyframeTrack: return model.keyframeTracks.size();
        case ElementKind::FrameAttachment: return model.frameAttachments.size();
        case ElementKind::Single: return 1;
    }
    return 0;
}

namespace {

// The triangles of the PBD cloths with a tearing stretch constraint (a
// strain above 0 in its material row, PbdModel::tearStrains): every
// triangle of such a cloth, an upper bound on those the tear pass runs a
// thread for (those with an edge that can tear).
uint64_t tearingTriangles(const SimModel& model) {
    const PbdModel& pbd = model.pbd;
    std::vector<bool> tears(model.particleCount(), false);
    for (const gpu::DistanceConstraint& c : pbd.distance)
        if (c.material < pbd.tearStrains.size() && pbd.tearStrains[c.material] > 0.0f) tears[c.p0] = true;
    uint64_t count = 0;
    for (const ObjectRange& object : model.objects) {
        const auto first = tears.begin() + object.firstParticle;
        if (std::find(first, first + object.particleCount, true) != first + object.particleCount)
            count += object.triangleCount;
    }
    return count;
}

uint64_t rowItemCount(RowItems items, const SimModel& model) {
    switch (items) {
        case RowItems::None: return 0;
        case RowItems::PdOffDiagonal: return model.pd.offDiagonal.size();
        case RowItems::PdGatherSlot: return model.pd.gatherSlots.size();
        case RowItems::MsIncidentSpring: return model.springs.incidentSprings.size();
        case RowItems::MsIncidentHinge: return model.springs.incidentHinges.size();
        case RowItems::MsQuadraticEntry: return model.springs.quadratic.size();
        case RowItems::MsBlock: return model.springs.blockColumns.size();
        case RowItems::VbdIncidentTet: return model.vbd.incidentTets.size();
        case RowItems::PbdDistance: return model.pbd.distance.size();
        case RowItems::PbdBending: return model.pbd.bending.size();
        case RowItems::TearingTriangle: return tearingTriangles(model);
        case RowItems::SplitTriangle: {
            uint64_t count = 0;
            for (const gpu::SplitCloth& cloth : model.pbd.splitCloths) count += cloth.triangleCount;
            return count;
        }
    }
    return 0;
}

}  // namespace

uint64_t bytesPerSweep(const PassTraffic& traffic, const SimModel& model) {
    uint64_t bytes = elementsPerSweep(traffic.element, model) * (traffic.readBytes + traffic.writeBytes) +
                     rowItemCount(traffic.items, model) * traffic.itemReadBytes;
    for (const RowItemTraffic& more : traffic.moreItems) bytes += rowItemCount(more.items, model) * more.bytes;
    return bytes;
}

std::string_view elementName(ElementKind element) {
    switch (element) {
        case ElementKind::Particle:
        case ElementKind::AnyParticle: return "particle";
        case ElementKind::Vertex: return "vertex";
        case ElementKind::DistanceConstraint: return "distance constraint";
        case ElementKind::BendingConstraint: return "bending constraint";
        case ElementKind::AttachmentConstraint: return "attachment constraint";
        case ElementKind::TetrahedronConstraint: return "tetrahedron";
        case ElementKind::PdParticle: return "PD particle";
        case ElementKind::PdSpring: return "spring";
        case ElementKind::PdTriangle: return "triangle";
        case ElementKind::PdTetStrain:
        case ElementKind::PdTetVolume: return "tetrahedron";
        case ElementKind::PdBending: return "bending element";
        case ElementKind::PdAttachment: return "attachment";
        case ElementKind::SpringParticle: return "spring particle";
        case ElementKind::VbdParticle: return "VBD particle";
        case ElementKind::ContactParticle: return "contact particle";
        case ElementKind::SplitParticle: return "splitting-cloth particle";
        case ElementKind::KeyframeTrack: return "keyframe track";
        case ElementKind::FrameAttachment: return "attachment";
        case ElementKind::Single: return "thread";
    }
    return "element";
}

}  // namespace vksim
