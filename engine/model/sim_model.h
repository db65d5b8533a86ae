#pragma once
// Everything the GPU solver uploads, built once per topology from a Scene
// (model_builder.h): initial particle state, constraint arrays sorted by graph
// colour, materials, colliders, triangles for rendering. The CPU reference
// solver (solvers/pbd/pbd_reference.h) steps the same model in double precision.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "model/rigid_model.h"
#include "model/spring_model.h"
#include "shaders/shared/pd_types.h"
#include "shaders/shared/sim_types.h"

namespace vksim {

// Constraints [first, first + count) of a family's array.
struct ColourRange {
    uint32_t first = 0;
    uint32_t count = 0;
};

// How a constraint family, sorted by colour (graph_colouring.h), is split
// into GPU dispatches: colour c is colours[c] (one thread per constraint),
// then the overflow group, the constraints that found no free colour below
// kMaxColours, in input order, projected one after another by one thread.
// Both the GPU and the CPU reference walk them in this order.
struct ColourGroups {
    std::vector<ColourRange> colours;
    ColourRange overflow;  // after the last colour; empty for every ordinary mesh

    // Dispatches per iteration of a family coloured on its own
    // (PbdColouring::PerFamily): one per colour, one for a non-empty overflow group.
    uint32_t dispatchCount() const { return static_cast<uint32_t>(colours.size()) + (overflow.count > 0 ? 1 : 0); }
};

// The triangles a mesh collider is drawn with, in its local frame.
struct ColliderSurface {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;  // 3 per triangle
};

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

// One deformable object's slice of the global arrays.
struct ObjectRange {
    std::string name;
    uint32_t firstParticle = 0;
    uint32_t particleCount = 0;
    uint32_t firstTriangle = 0;
    uint32_t triangleCount = 0;
    glm::vec3 color{0.8f};
    // Air drag sigma [kg/s] (f = -sigma v per particle) that the shared
    // predict stage applies: PBD and PD cloths (docs/physics.md §1). A
    // mass-spring object's drag is a force of its own solver
    // (MsParticle::drag) and is 0 here.
    float drag = 0.0f;
};

// The projective dynamics part of a model (docs/physics.md §5): its particles are the
// last particleCount of the model, after every PBD particle, so each solver
// steps one contiguous range of the shared particle buffers. Elements are
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

struct SimModel {
    // Particle state (per step): xyz + inverse mass in w; velocities xyz.
    std::vector<glm::vec4> positions;
    std::vector<glm::vec4> velocities;

    // Topology (uploaded once), each family sorted by colour, its overflow group last.
    std::vector<gpu::ConstraintMaterial> materials;
    std::vector<gpu::DistanceConstraint> distance;
    ColourGroups distanceGroups;
    std::vector<gpu::BendingConstraint> bending;
    ColourGroups bendingGroups;
    std::vector<gpu::AttachmentConstraint> attachments;
    ColourGroups attachmentGroups;
    // PerFamily: each family's groups are its own colours. AcrossFamilies:
    // one colouring of every constraint, so each family's `colours` has one
    // range per shared colour (empty where it has none of it), and colour c
    // of every family is one step of the sweep (solvers/pbd/colour_steps.h).
    PbdColouring colouring = PbdColouring::PerFamily;

    // Shape matching (docs/physics.md §13): one group per PBD object that has
    // it, and per particle of a group its rest offset from the group's rest
    // centre of mass (xyz) and its mass (w; a pinned particle's too).
    std::vector<gpu::ShapeMatchGroup> shapeMatchGroups;
    std::vector<glm::vec4> shapeMatchRest;

    std::vector<gpu::Collider> colliders;
    // The signed distance grids of the mesh colliders, one after another in
    // the layout sdf.glsl reads (signed_distance_grid.h); a collider of type
    // kColliderMesh finds its grid at offset size.x. Colliders that use the
    // same grid share it. Empty when there are no mesh colliders.
    std::vector<float> meshSdfGrids;
    // What each collider is drawn with when it is not an analytic shape: the
    // mesh of a mesh collider, in its local frame (scaled), else empty.
    std::vector<ColliderSurface> colliderSurfaces;

    // Rendering topology: 3 indices per triangle, and the CSR vertex -> triangle
    // adjacency the normals pass gathers over (offsets has positions.size()+1 entries).
    std::vector<uint32_t> triangles;
    std::vector<uint32_t> adjacencyOffsets;
    std::vector<uint32_t> adjacentTriangles;

    std::vector<ObjectRange> objects;

    // Objects simulated with projective dynamics (scene "method": "pd").
    PdModel pd;
    // Objects simulated as mass-spring systems ("method": "springs"), after the PD particles.
    MsModel springs;
    // The rigid bodies (scene "bodies"): no particles of their own.
    RigidModel rigid;

    uint32_t particleCount() const { return static_cast<uint32_t>(positions.size()); }
    // PBD steps particles [0, pbdParticleCount()), projective dynamics the
    // next pd.particleCount, the mass-spring solver the last springs.particleCount.
    uint32_t pbdParticleCount() const { return particleCount() - pd.particleCount - springs.particleCount; }
    uint32_t triangleCount() const { return static_cast<uint32_t>(triangles.size() / 3); }
};

// Per particle, the air drag of its object that the predict stage applies
// (ObjectRange::drag), 0 where no object sets one.
inline std::vector<float> particleDrags(const SimModel& model) {
    std::vector<float> drags(model.particleCount(), 0.0f);
    for (const ObjectRange& object : model.objects)
        for (uint32_t i = object.firstParticle; i < object.firstParticle + object.particleCount; ++i)
            drags.at(i) = object.drag;
    return drags;
}

}  // namespace vksim
