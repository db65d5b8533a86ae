#pragma once
// What every solver's model builder appends to the shared model
// (shared_model.h): an object's particles and its triangles. Rest
// shapes are read back from the positions as uploaded (float), widened to
// double, so that every solver's rest lengths, areas and volumes are those of
// the particles it steps.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "model/cloth_geometry.h"
#include "model/shared_model.h"
#include "scene/scene.h"

namespace vksim {

// What the builders left out, for the user to hear about.
struct ModelDiagnostics {
    uint32_t degenerateBendingEdges = 0;  // interior edges next to a (near) zero-area triangle: no bending there
    uint32_t nonManifoldEdges = 0;        // edges of 3+ triangles: no bending across them
    // Contact particles of different objects that start inside their
    // contact distance (contacts/starting_overlaps.h), and the deepest such
    // pair's objects' names, distance and contact distance [m].
    uint64_t startingOverlaps = 0;
    std::string overlapA, overlapB;
    double overlapDistance = 0.0, overlapContactDistance = 0.0;
};

// Particle `particle`'s position as uploaded, in double.
inline glm::dvec3 positionOf(const SharedModel& model, uint32_t particle) {
    return glm::dvec3(glm::vec3(model.positions[particle]));
}

// A free particle's inverse mass as the GPU holds it: finite and a normal
// 32-bit float, else the object's mass is too small for its particle count
// (1e-36 kg over 4096 particles is 2.4e-40 kg each, subnormal, whose inverse
// is infinite in float: non-finite at the first frame).
float checkedInverseMass(double inverseMass, double objectMass, uint32_t particles, const std::string& owner);

// Particles of a cloth: a grid's mass / n each, so the inverse mass is
// n / mass; a mesh's by area (cloth_geometry.h). Hard pins get inverse mass 0
// (and no velocity). Returns the first particle.
uint32_t appendClothParticles(SharedModel& model, const ClothObject& cloth, const ClothGeometry& mesh,
                              const std::vector<bool>& pinned);

// The cloth's tethers (docs/physics.md §1, "Tethers") as the tethers a
// stage projects after the solve (step/tether_stage.h), for a solver with
// no constraint loop to take them in (projective dynamics, mass-spring):
// each free vertex to the rest position of its nearest pin (model positions
// as uploaded), of length (1 + slack) d. Nothing when its tethers are off.
void appendSolvedTethers(SharedModel& model, const ClothObject& cloth, const ClothGeometry& mesh, uint32_t first);

// The cloth's triangles (render topology), appended in global indices;
// returns the first triangle.
uint32_t appendTriangles(SharedModel& model, const std::vector<uint32_t>& triangles, uint32_t firstParticle);

}  // namespace vksim
