#pragma once
// Projective dynamics' part of the model (docs/physics.md §5): its elements,
// the system matrix's rows and the weight groups live edits rewrite. Built by
// pd_model_builder.h and pd_system.h.
#include <cstdint>
#include <vector>

#include "model/shared_model.h"
#include "shaders/pd/pd_types.h"

namespace vksim {

// The element families of projective dynamics (PdModel's arrays).
enum class PdFamily : uint32_t { Springs, Triangles, TetStrain, TetVolume, Bending, Attachments };

// A projective dynamics object of the scene: Scene::cloths[index] (a "pd"
// cloth) or Scene::solids[index].
struct PdOwner {
    enum class Kind : uint32_t { Cloth, Solid } kind = Kind::Cloth;
    uint32_t index = 0;
    bool operator==(const PdOwner&) const = default;
};

// The elements of one family that one object's parameters weight:
// [begin, end) of the family's array, and per element its weight per unit
// stiffness (1 for springs and attachments, the rest area of a triangle, the
// rest volume of a tetrahedron, the isometric bending scale), so that the
// builder and a live edit (pd_materials.h) write the same weights.
struct PdWeightGroup {
    PdOwner owner;
    PdFamily family = PdFamily::Springs;
    uint32_t begin = 0;
    uint32_t end = 0;
    std::vector<double> unitWeights;  // end - begin
};

// The projective dynamics part of a model (docs/physics.md §5): its particles
// follow every PBD particle, so each solver steps one contiguous range of the
// shared particle buffers. Elements are
// listed family by family; none are coloured (the local step writes one
// contribution slot per element vertex, the gather pass sums them per
// particle). Built by pd_system.h from the elements; uploaded once.
struct PdModel {
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;

    std::vector<gpu::PdSpring> springs;
    std::vector<gpu::PdTriangle> triangles;
    std::vector<gpu::PdTetrahedron> tetStrain;
    std::vector<gpu::PdTetrahedron> tetVolume;
    std::vector<gpu::PdBending> bending;
    std::vector<gpu::PdAttachment> attachments;

    // First contribution slot of each family (pd_types.h), and the total.
    struct SlotBases {
        uint32_t springs = 0, triangles = 0, tetStrain = 0, tetVolume = 0, bending = 0, attachments = 0, total = 0;
    } slots;
    // Per PD particle (row r is particle firstParticle + r): its diagonal,
    // its off-diagonal entries and the slots the gather pass sums, in
    // increasing slot order.
    std::vector<gpu::PdRow> rows;
    std::vector<gpu::PdOffDiagonal> offDiagonal;
    std::vector<uint32_t> gatherSlots;
    // Per (object, family) with elements: where its weights come from.
    std::vector<PdWeightGroup> weightGroups;

    bool empty() const { return particleCount == 0; }
    uint32_t elementCount() const {
        return static_cast<uint32_t>(springs.size() + triangles.size() + tetStrain.size() + tetVolume.size() +
                                     bending.size() + attachments.size());
    }
};

// What the projective dynamics solver and its CPU reference read of a built
// model: the part every solver shares and its own. The whole model
// (solvers/sim_model.h) converts to it, so this folder never names the
// other solvers' sub-models.
struct PdModelView {
    const SharedModel& shared;
    const PdModel& pd;
    PdModelView(const SharedModel& sharedPart, const PdModel& own) : shared(sharedPart), pd(own) {}
    template <class WholeModel>
    PdModelView(const WholeModel& model) : shared(model), pd(model.pd) {}  // implicit: a SimModel is one
};

}  // namespace vksim
