#pragma once
// Everything the rigid-body pass uploads, built once from a scene's bodies
// (docs/physics.md §11): per body its body-frame constants, its initial
// state and its contact points, and the surface it is drawn with. The body
// frame has its origin at the centre of mass: the shape is re-centred, so
// state.position is the centre of mass, not the scene's "position" (the
// shape's origin). The CPU reference (solvers/rigid/rigid_reference.h) steps the
// same model in double.
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "model/shared_model.h"
#include "scene/scene.h"
#include "shaders/rigid/rigid_types.h"
#include "shaders/shared/sim_types.h"

namespace vksim {

// A body's triangles in its shape frame (the frame of its "position", before
// re-centring; shapes[b] places it in the body frame).
struct RigidSurface {
    std::vector<glm::vec3> positions;
    std::vector<uint32_t> triangles;  // 3 per triangle, counter-clockwise seen from outside
};

struct RigidModel {
    std::vector<gpu::RigidBody> bodies;
    std::vector<gpu::RigidBodyState> states;  // initial
    std::vector<glm::vec4> points;            // body-frame contact points r_i (xyz), body after body
    std::vector<RigidSurface> surfaces;       // per body
    // Per body, its shape as a collider in the body frame (type, size, and
    // position = where the shape's origin sits relative to the centre of
    // mass): what it is drawn with, and the signed distance it presents to
    // other bodies. A mesh body's size.x is the offset of its grid in
    // SharedModel::meshSdfGrids (set by attachMeshBodies).
    std::vector<gpu::Collider> shapes;
    // The pairs of bodies whose contacts are solved, in rounds: no body is in
    // two pairs of a round, so a round's pairs run in parallel without
    // races, and rounds run in this fixed order (every pair, by the circle
    // method of round-robin tournaments; the GPU skips the pairs whose
    // bounding spheres are apart).
    std::vector<glm::uvec2> pairs;
    std::vector<uint32_t> roundStarts;  // round r is pairs [roundStarts[r], roundStarts[r + 1])
    // The batch copies the bodies belong to (BodyDesc::batchCopy): 1 in a
    // scene's world. Each copy's bodies meet its own particles only.
    uint32_t copyCount = 1;
    std::vector<std::string> names;
    std::vector<glm::vec3> colours;
    // Per body, in double for the CPU reference and the tests: mass [kg] and
    // body-frame inertia about the centre of mass [kg m^2].
    std::vector<double> masses;
    std::vector<glm::dmat3> inertias;

    uint32_t bodyCount() const { return static_cast<uint32_t>(bodies.size()); }
    uint32_t roundCount() const { return roundStarts.empty() ? 0 : static_cast<uint32_t>(roundStarts.size() - 1); }
    bool empty() const { return bodies.empty(); }
};

// Throws std::invalid_argument (naming the body's JSON path) for a body
// that cannot be built (scene/body_mass.h).
RigidModel buildRigidModel(const std::vector<BodyDesc>& bodies);

// Every pair of `count` bodies in rounds of disjoint pairs (count - 1 rounds
// for an even count, count for an odd one); empty below two bodies.
void scheduleBodyPairs(uint32_t count, std::vector<glm::uvec2>& pairs, std::vector<uint32_t>& roundStarts);

// The pairs of a batch's bodies (BodyDesc::batchCopy): every pair within a
// copy, none across. Round r holds every copy's round r of
// scheduleBodyPairs, copy after copy, so each body meets its copy's bodies
// in the order a world of that copy alone has. A copy's bodies must be
// listed together (std::logic_error otherwise); a scene is one copy.
void scheduleCopiesBodyPairs(const std::vector<uint32_t>& copyOfBody, std::vector<glm::uvec2>& pairs,
                             std::vector<uint32_t>& roundStarts);

// The mesh bodies' signed distance grids, appended to `meshSdfGrids` (the
// shared model's, after the mesh colliders': each grid once); each mesh
// body's shape points at its grid (shapes[b].size.x), and every shape gets its
// bound. `rigid` must be built from `bodies`.
void attachMeshBodies(const std::vector<BodyDesc>& bodies, RigidModel& rigid, std::vector<float>& meshSdfGrids);

// What the rigid bodies' CPU reference reads of a built
// model: the part every solver shares and theirs. The whole model
// (solvers/sim_model.h) converts to it, so this folder never names the
// other solvers' sub-models.
struct RigidModelView {
    const SharedModel& shared;
    const RigidModel& rigid;
    RigidModelView(const SharedModel& sharedPart, const RigidModel& own) : shared(sharedPart), rigid(own) {}
    template <class WholeModel>
    RigidModelView(const WholeModel& model) : shared(model), rigid(model.rigid) {}  // implicit: a SimModel is one
};

}  // namespace vksim
