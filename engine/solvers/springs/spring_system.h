#pragma once
// What the mass-spring solver gathers over, derived once per topology from
// the elements of an MsModel (docs/physics.md §9): per-particle incidence
// lists, the block pattern of the Newton matrix M/h^2 + H, where each
// element's Hessian block goes in it, and the vertex colours of vertex block
// descent. Values (stiffness, drag) are not touched except the drag, copied
// from each object's params.
#include "solvers/springs/spring_model.h"

namespace vksim {

// Fills ms.particles, incidentSprings, incidentHinges, blockRowStart,
// blockColumns, the `block` of every MsIncidentSpring and MsQuadraticEntry,
// vertexOrder and vertexColours from ms.springs, hinges, quadratic (with
// quadraticRows) and objects.
//  - incidence lists: each particle's springs by spring index, hinges as
//    hinge * 4 + role by hinge index, quadratic entries = its row (the
//    entries must be sorted by row, then column);
//  - pattern: row r holds r and every particle that shares a spring or a
//    quadratic stencil with it, ascending, local indices (hinges have no
//    Hessian: the dihedral force is for explicit integrators only);
//  - colours: greedy in particle order on the graph joining particles that
//    share a spring, a quadratic stencil or a hinge; each colour lists its
//    particles ascending.
// Deterministic; O(n log n) in the number of elements. Throws
// std::invalid_argument when an element names a particle outside the range.
void buildSpringSystem(MsModel& ms);

}  // namespace vksim
