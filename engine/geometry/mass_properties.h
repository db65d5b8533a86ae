#pragma once
// Mass properties of rigid bodies, on the CPU in double precision
// (docs/physics.md §10): per unit density for a closed triangle mesh and for
// the analytic primitives, then scaled to a body's mass or density. The GPU
// solver receives the results; nothing here runs per step.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace vksim {

// Per unit density: volume [m^3], centre of mass, and the inertia tensor
// about the centre of mass [m^5] (multiply by density for kg m^2).
struct MassProperties { double volume = 0; glm::dvec3 centre{0}; glm::dmat3 inertia{0}; };

// Closed, consistently outward-wound triangle mesh (3 indices per triangle,
// counter-clockwise seen from outside). Throws std::invalid_argument when an
// index is out of range, a coordinate is not finite, or the volume is not
// positive: negative (wound inward) or zero (flat or degenerate). The
// messages name no file: the caller prefixes it. Whether the surface is
// closed is not checked (seams a loader left unwelded would fail an
// index-based check yet integrate correctly): an open surface gives a wrong,
// origin-dependent result.
MassProperties polyhedronMassProperties(const std::vector<glm::dvec3>& positions,
                                        const std::vector<uint32_t>& triangles);

// Box centred at the origin with half extents > 0 along the axes.
MassProperties boxMassProperties(glm::dvec3 halfExtents);
// Ball centred at the origin, radius > 0.
MassProperties sphereMassProperties(double radius);
// Centred at the origin, axis along local Y; radius > 0, halfLength >= 0 is
// half the distance between the cap centres (a cylinder of length
// 2 halfLength plus two hemispheres; 0 is a sphere).
MassProperties capsuleMassProperties(double radius, double halfLength);

// Mass properties scaled to a body of total mass `mass` [kg]:
// inertia [kg m^2] = inertia * (mass / volume).
struct BodyMass { double mass; glm::dvec3 centre; glm::dmat3 inertia; };
// mass and density must be finite and > 0, and the volume > 0.
BodyMass bodyMassFromMass(const MassProperties&, double mass);
BodyMass bodyMassFromDensity(const MassProperties&, double density);

// Throws std::invalid_argument when the inertia is not symmetric positive
// definite enough to invert: smallest eigenvalue <= 1e-9 * largest
// ("degenerate inertia: principal moments 0, 0.3, 0.3 kg m^2"). Also when
// an entry is not finite or the tensor is not symmetric to 1e-9 of its
// largest entry. Returns normally for a tensor a solver may invert.
void requireInvertibleInertia(const glm::dmat3& inertia);

}  // namespace vksim
