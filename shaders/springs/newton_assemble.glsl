// docs/physics.md §9.3: one Newton iteration's linear system for implicit
// Euler, (M/h^2 + sigma/h + H(x)) dx = -grad F(x), one thread per block row
// (particle): its gradient, its diagonal block and inverse, and its
// off-diagonal blocks -H_e (springs) and Q_ij I (quadratic bending), summed
// in incidence order into the row's own slots of the block-Jacobi matrix
// (linear/block_jacobi.comp solves it). A pinned particle's row is the
// identity with a zero right-hand side, so its dx stays 0. Also zeroes the
// first iterate dx^0. newton_assemble_contacts.comp (MS_CONTACTS_BINDING)
// adds the contact energy of the pairs within the range (springs/
// contact_energy.glsl) and their lagged friction: its gradient, and its
// Hessian's blocks, s n n^T + c (I - n n^T) on the diagonal and minus that
// coupling the pair. The pairs change every substep and the matrix's
// pattern is the mesh's, so the coupling is kept beside it, per list
// entry, as n, s, c and the other particle's row (couplings), with each
// row's entries (rowContacts); the contacts'
// Jacobi pass (springs/newton_jacobi_contacts.comp) applies it matrix-free
// (docs/physics.md §14). The friction's hold share reads every row's
// normal total, which springs/newton_contact_totals.comp writes first.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"
#include "shared/linear_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };      // x^0 of the step (the store's x)
layout(std430, binding = 1) readonly buffer Inertia { vec4 inertia[]; };  // y = x^0 + h v + h^2 g (predict's p)
layout(std430, binding = 2) readonly buffer Current { vec4 current[]; };  // the Newton iterate x^k
layout(std430, binding = 3) buffer Rows { LinearBlockRow rows[]; };
layout(std430, binding = 4) buffer Blocks { LinearBlock blocks[]; };
layout(std430, binding = 5) writeonly buffer Rhs { vec4 rhs[]; };
layout(std430, binding = 6) writeonly buffer FirstIterate { vec4 firstIterate[]; };

#define MS_TOPOLOGY_BINDING 7
#include "springs/gather.glsl"

vec3 elementPosition(uint j) { return current[j].xyz; }

#ifdef MS_CONTACTS_BINDING
vec3 contactPartner(uint j) { return current[j].xyz; }
#include "springs/contact_energy.glsl"
layout(std430, binding = MS_CONTACTS_BINDING + 5) writeonly buffer RowContacts { uvec2 rowContacts[]; };
layout(std430, binding = MS_CONTACTS_BINDING + 6) writeonly buffer Couplings { MsContactCoupling couplings[]; };
// Each row's contactNormalTotal at x^k (springs/newton_contact_totals.comp).
layout(std430, binding = MS_CONTACTS_BINDING + 7) readonly buffer NormalTotals { float normalTotals[]; };

// The share of the hold of the touching pair of particles i and j
// (`penalty` from i's side) for the static/kinetic choice
// (contact_math.glsl's contactPairFrictionLoad): its s depth over its free
// ends' totals, the larger (a pinned end needs no holding). Both ends find
// the same.
float contactPairHoldShare(uint i, uint j, ContactPenalty penalty) {
    float push = penalty.stiffness * penalty.depth, share = 0.0;
    if (start[i].w > 0.0) share = max(share, push / normalTotals[i - pc.firstParticle]);
    if (start[j].w > 0.0) share = max(share, push / normalTotals[j - pc.firstParticle]);
    return share;
}

// Row r's contact terms (particle i at x_i): the gradient and diagonal
// blocks of the contact energy and of the pairs' lagged friction, lagged
// here at the iterate (contact_math.glsl's contactPairFrictionLoad), into
// `gradient` and `diagonal`; each list entry's coupling into couplings
// (zero where the pair does not touch), which the line search reads the
// friction's lag back from.
void assembleContacts(uint r, uint i, vec3 xi, inout vec3 gradient, inout mat3 diagonal) {
    uvec2 list = contactList(i);
    rowContacts[r] = list;
    for (uint e = list.x; e < list.x + list.y; ++e) {
        uint j;
        ContactPenalty penalty;
        if (!contactEntryPenalty(i, xi, e, j, penalty)) {
            couplings[e] = MsContactCoupling(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0u, 0u);
            continue;
        }
        vec3 d = xi - contactPartner(j), d0 = start[i].xyz - start[j].xyz;
        vec2 mu = contactEntryFriction(i, e);
        float share = contactPairHoldShare(i, j, penalty);
        float load = contactPairFrictionLoad(penalty, d, d0, share, mu.x, mu.y);
        vec3 u = contactPairSlip(penalty.n, d, d0);
        float curvature = laggedFrictionCurvature(u, load, contactStickSlip());
        LaggedFriction friction = laggedFrictionOfCurvature(penalty.n, u, curvature);
        gradient += penalty.gradient + friction.gradient;
        diagonal += penalty.stiffness * outerProduct(penalty.n, penalty.n) + friction.hessian;
        couplings[e] = MsContactCoupling(penalty.n.x, penalty.n.y, penalty.n.z, penalty.stiffness, load, curvature,
                                         j - pc.firstParticle, 0u);
    }
}
#endif

void setBlock(uint k, mat3 m) {
    blocks[k].column0 = vec4(m[0], 0.0);
    blocks[k].column1 = vec4(m[1], 0.0);
    blocks[k].column2 = vec4(m[2], 0.0);
}

mat3 getBlock(uint k) { return mat3(blocks[k].column0.xyz, blocks[k].column1.xyz, blocks[k].column2.xyz); }

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint r = gl_GlobalInvocationID.x;
    uint i = pc.firstParticle + r;
    LinearBlockRow row = rows[r];
    for (uint k = row.first; k < row.first + row.count; ++k) setBlock(k, mat3(0.0));
    firstIterate[r] = vec4(0.0);
    MsParticle particle = msParticles[r];
    float inverseMass = start[i].w;
    if (inverseMass <= 0.0) {
        setBlock(particle.diagonalBlock, mat3(1.0));
        rows[r].inverseDiagonal0 = vec4(1.0, 0.0, 0.0, 0.0);
        rows[r].inverseDiagonal1 = vec4(0.0, 1.0, 0.0, 0.0);
        rows[r].inverseDiagonal2 = vec4(0.0, 0.0, 1.0, 0.0);
        rhs[r] = vec4(0.0);
#ifdef MS_CONTACTS_BINDING
        // Its couplings still hold its pairs' friction lag, for its half of
        // their energy in the line search; its dx stays 0: no coupling.
        vec3 unusedGradient = vec3(0.0);
        mat3 unusedDiagonal = mat3(0.0);
        assembleContacts(r, i, current[i].xyz, unusedGradient, unusedDiagonal);
        rowContacts[r] = uvec2(0u);
#endif
        return;
    }
    vec3 xi = current[i].xyz;
    float h = pc.dt;
    float inertiaWeight = 1.0 / (inverseMass * h * h);
    float dragWeight = particle.drag / h;
    mat3 diagonal = mat3(inertiaWeight + dragWeight);
    vec3 x0 = start[i].xyz - vec3(pc.originX, pc.originY, pc.originZ);  // x and y are relative to the origin
    vec3 gradient = inertiaWeight * (xi - inertia[i].xyz) + dragWeight * (xi - x0);
    for (uint k = particle.firstSpring; k < particle.firstSpring + particle.springCount; ++k) {
        MsIncidentSpring e = incidentSprings[k];
        MsSpring s = springs[e.spring];
        if (s.stiffness == 0.0) continue;
        uint other = s.i == i ? s.j : s.i;
        SpringTerms t = springTerms(xi, elementPosition(other), s.restLength, s.stiffness, s.compressionScale, s.slack);
        gradient -= t.force;
        diagonal += t.hessian;
        setBlock(e.block, getBlock(e.block) - t.hessian);
    }
    for (uint k = particle.firstQuadratic; k < particle.firstQuadratic + particle.quadraticCount; ++k) {
        MsQuadraticEntry q = quadratic[k];
        if (q.value == 0.0) continue;
        if (q.column == i) {
            gradient += q.value * xi;
            diagonal += mat3(q.value);
        } else {
            gradient += q.value * elementPosition(q.column);
            setBlock(q.block, getBlock(q.block) + mat3(q.value));
        }
    }
#ifdef MS_CONTACTS_BINDING
    assembleContacts(r, i, xi, gradient, diagonal);
#endif
    setBlock(particle.diagonalBlock, diagonal);
    mat3 inverseDiagonal = inverse(diagonal);
    rows[r].inverseDiagonal0 = vec4(inverseDiagonal[0], 0.0);
    rows[r].inverseDiagonal1 = vec4(inverseDiagonal[1], 0.0);
    rows[r].inverseDiagonal2 = vec4(inverseDiagonal[2], 0.0);
    rhs[r] = vec4(-gradient, 0.0);
}
