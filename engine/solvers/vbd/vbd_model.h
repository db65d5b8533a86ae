#pragma once
// The vertex block descent part of a model (docs/physics.md §16): the
// "method": "vbd" tetrahedral solids, one contiguous range of particles
// after the mass-spring range. Built once per topology by the model builder
// (vbd_model_builder.h, then vbd_system.h for the incidence lists and the
// colours); uploaded once.
#include <cstdint>
#include <vector>

#include "model/shared_model.h"
#include "scene/elastic_material.h"
#include "shaders/shared/elastic_types.h"
#include "shaders/vbd/vbd_types.h"
#include "solvers/vertex_colouring.h"

namespace vksim {

// One solid: its slice of the range and of the tets, and its material row.
struct VbdObject {
    uint32_t solid = 0;  // Scene::solids index
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;
    uint32_t firstTet = 0;
    uint32_t tetCount = 0;
    uint32_t material = 0;  // index into VbdModel::materials
    ElasticMaterial params;  // what the row was made from
};

struct VbdModel {
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;

    std::vector<gpu::VbdTet> tets;  // every solid's, one solid after another
    std::vector<gpu::ElasticMaterialRow> materials;  // one per solid

    // Derived from the tets by buildVbdSystem (vbd_system.h).
    // Per particle of the range (index = global - firstParticle).
    std::vector<gpu::VbdVertex> vertices;
    std::vector<uint32_t> incidentTets;  // tet * 4 + role, each vertex's by tet index
    // The range's particles (global) grouped by colour: no two of a colour
    // share a tet. Pinned ones too (the solver skips inverse mass 0).
    std::vector<uint32_t> vertexOrder;
    std::vector<VertexColour> vertexColours;

    std::vector<VbdObject> objects;

    bool empty() const { return particleCount == 0; }
};

// What the VBD solver and its CPU reference read of a built model: the part
// every solver shares and its own (the whole model, solvers/sim_model.h,
// converts to it, so this folder never names another solver's sub-model).
struct VbdModelView {
    const SharedModel& shared;
    const VbdModel& vbd;
    VbdModelView(const SharedModel& sharedPart, const VbdModel& own) : shared(sharedPart), vbd(own) {}
    template <class WholeModel>
    VbdModelView(const WholeModel& model) : shared(model), vbd(model.vbd) {}  // implicit: a SimModel is one
};

}  // namespace vksim
