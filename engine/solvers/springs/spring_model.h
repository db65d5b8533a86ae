#pragma once
// The mass-spring part of a model (docs/physics.md §9): its particles are
// the last particleCount of the model, after the PBD and projective
// dynamics particles. Built once per topology by the model builder from the
// springs of each "method": "springs" cloth (spring_builder.h); uploaded
// once. Every bending representation is built for every object (bend
// springs, dihedral hinges, quadratic bending entries); the ones the object
// does not use have stiffness 0, so switching the bending model live only
// rewrites stiffnesses (spring_materials.h) and the pattern of the Newton
// matrix never changes.
#include <cstdint>
#include <string>
#include <vector>

#include "model/shared_model.h"
#include "scene/scene.h"
#include "shaders/springs/spring_types.h"
#include "solvers/vertex_colouring.h"

namespace vksim {

// What the builder made for one object, for the report and the tests.
struct SpringCounts {
    uint32_t vertices = 0;
    uint32_t triangles = 0;
    uint32_t edges = 0;          // unique triangle edges
    uint32_t interiorEdges = 0;  // edges shared by two triangles
    uint32_t boundaryEdges = 0;  // edges of one triangle
    uint32_t stretchSprings = 0;
    uint32_t shearSprings = 0;
    uint32_t bendSprings = 0;
    uint32_t hinges = 0;  // = interior edges (dihedral and quadratic bending)
    uint32_t nonManifoldEdges = 0;       // edges of 3+ triangles: no bending across them
    uint32_t degenerateQuadratic = 0;    // hinges next to a (near) zero-area triangle: no quadratic bending
};

// One spring object: its slice of the range and what it was built with.
struct SpringObject {
    uint32_t cloth = 0;  // Scene::cloths index
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;
    uint32_t firstSpring = 0, springCount = 0;
    uint32_t firstHinge = 0, hingeCount = 0;
    uint32_t firstQuadratic = 0, quadraticCount = 0;  // entries of its particles' rows
    // A grid cloth's vertices per row and column (vertex = row * gridColumns
    // + column); 0 for a mesh cloth.
    uint32_t gridColumns = 0, gridRows = 0;
    // As built, normalised (spring_materials.h effectiveSpringParams): a mesh
    // cloth has topology Mesh, a Mesh topology has shearDiagonals 0.
    SpringClothParams params;
    SpringCounts counts;
};

struct MsModel {
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;

    // Elements, global particle indices; the springs of each object
    // together, in the builder's order.
    std::vector<gpu::MsSpring> springs;
    std::vector<gpu::MsHinge> hinges;
    // Bergou's Q for every interior edge, as scalar entries per particle
    // row (column order), stiffness included: the force on i is
    // -sum_j Q_ij x_j, the energy 1/2 sum_ij Q_ij x_i . x_j.
    std::vector<gpu::MsQuadraticEntry> quadratic;
    // CPU side, parallel to `quadratic`: each entry's row (global particle)
    // and Q_ij without the stiffness, in double, so that a stiffness edit
    // rewrites the values exactly as a fresh build would.
    std::vector<uint32_t> quadraticRows;
    std::vector<double> quadraticUnit;

    // Everything below is derived from the elements by buildSpringSystem
    // (spring_system.h).
    // Per particle of the range (index = global - firstParticle): its
    // incidence lists, in a fixed order (springs and hinges by index,
    // quadratic entries by column), and its drag.
    std::vector<gpu::MsParticle> particles;
    std::vector<gpu::MsIncidentSpring> incidentSprings;
    std::vector<uint32_t> incidentHinges;  // hinge * 4 + role (0, 1 the edge, 2, 3 the tips)

    // The pattern of the Newton matrix M/h^2 + H in block rows over the
    // range (local indices): row r's columns are
    // blockColumns[blockRowStart[r] .. blockRowStart[r + 1]), ascending,
    // itself included (MsParticle::diagonalBlock); every spring and
    // quadratic neighbour has its block.
    std::vector<uint32_t> blockRowStart{0};
    std::vector<uint32_t> blockColumns;

    // Vertex block descent: the range's particles (global) grouped by colour
    // of the graph whose edges are springs, quadratic stencils and hinges,
    // so that no two particles of a colour share an element. Every particle
    // is listed, pinned ones too (this model does not know the masses): the
    // solver skips inverse mass 0.
    std::vector<uint32_t> vertexOrder;
    using Colour = VertexColour;
    std::vector<Colour> vertexColours;

    std::vector<SpringObject> objects;

    bool empty() const { return particleCount == 0; }
};

// What the mass-spring solver and its CPU reference read of a built model:
// the part every solver shares and its own. The whole model
// (solvers/sim_model.h) converts to it, so this folder never names the
// other solvers' sub-models.
struct SpringModelView {
    const SharedModel& shared;
    const MsModel& springs;
    SpringModelView(const SharedModel& sharedPart, const MsModel& own) : shared(sharedPart), springs(own) {}
    template <class WholeModel>
    SpringModelView(const WholeModel& model) : shared(model), springs(model.springs) {}  // implicit: a SimModel is one
};

}  // namespace vksim
