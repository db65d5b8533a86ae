#pragma once
// The contact response on the CPU in double precision, the oracle for the
// GPU's (contact_stage.h), with the GPU's pair math compiled in double
// (shaders/contacts/contact_math.glsl, geometry/shared_math.h): once per substep the same detection (every pair
// of contact particles tested by brute force against the rules of
// contact_pairs.comp) and the same colouring (contact_colour_slots.comp,
// contact_colour.comp: the same priorities, proposals, rounds and colour
// limit); in
// every iteration the same order, colour by colour (constraints of one
// colour share no particle, so their order changes nothing), then the
// Jacobi average over what the colouring left out; or, with
// ContactSolve::Jacobi, the average over every pair. GPU and CPU differ by
// float rounding, and where a pair sits on the detection distance within
// it. One rare difference: two neighbouring constraints with the same
// 32-bit priority are ordered by their index, which the GPU numbers in grid
// order and this reference in (k, l) order.
// The vertex-triangle constraints likewise (triangle_detection.h): every
// (triangle, particle) tested by brute force, in (triangle, particle)
// order, numbered after the pairs in one constraint set
// (contact_constraints.h): one colouring of both kinds, a constraint
// conflicting with every one that shares any of its particles, and one
// sweep and one Jacobi average over both. The edge-edge constraints
// (edge_detection.h) likewise, every pair of edges e < f by brute force,
// after the vertex-triangle ones.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_model.h"
#include "scene/contact_params.h"

namespace vksim {

class ContactReferenceSolve {
public:
    // `inIterations` as for buildContactModel.
    ContactReferenceSolve(const SharedModel& model, ParticleRange inIterations);

    bool empty() const { return model_.empty(); }

    // Once per substep, on the predicted positions `p` (particle store
    // indices) with the particles' inverse masses: the pairs, and their
    // colours when `solve` projects by colours.
    void detect(std::span<const glm::dvec3> p, std::span<const double> inverseMasses, ContactSolve solve);
    // Once per iteration: the pairs of `pairs` (gpu::kContactPairs*)
    // projected on `p`; `x` holds the positions at the start of the substep
    // (friction reads the motion). gpu::kContactPairsWithinObjects, the PBD
    // workgroup path's: the colours' sweep only, over the constraints within
    // one object, and nothing under the Jacobi average.
    void project(std::span<glm::dvec3> p, std::span<const glm::dvec3> x, std::span<const double> inverseMasses,
                 ContactSolve solve, uint32_t pairs) const;

    // The implicit mass-spring methods' contact energy at store particle
    // `particle` at `p` (springs/contact_energy.glsl, contact_math.glsl's
    // contactPenalty): the energy, gradient and Hessian block summed over its
    // touching pairs of the last detection with particles of `range`, and
    // each pair's coupling block -s n n^T with its other particle, the other
    // particle at `others` (store indices: what the sweep reads it at); `x`
    // holds the positions at the start of the substep.
    struct Penalty {
        double energy = 0.0;
        glm::dvec3 gradient{0.0};
        glm::dmat3 hessian{0.0};
        std::vector<std::pair<uint32_t, glm::dmat3>> couplings;
    };
    Penalty penalty(uint32_t particle, const glm::dvec3& p, std::span<const glm::dvec3> others,
                    std::span<const glm::dvec3> x, std::span<const double> inverseMasses, ParticleRange range,
                    double h) const;
    // Vertex block descent's lagged friction of the same pairs
    // (springs/contact_energy.glsl's contactFriction, contact_math.glsl's
    // contactPairFriction), `gradient` and `hessian` the vertex step's other
    // terms at `p`.
    struct Friction {
        glm::dvec3 gradient{0.0};
        glm::dmat3 hessian{0.0};
    };
    Friction friction(uint32_t particle, const glm::dvec3& p, std::span<const glm::dvec3> others,
                      std::span<const glm::dvec3> x, std::span<const double> inverseMasses, ParticleRange range,
                      double h, const glm::dvec3& gradient, const glm::dmat3& hessian) const;

    // Newton's lagged friction of the same pairs, taken at the iterate once
    // per Newton iteration (springs/newton_assemble.glsl,
    // contact_math.glsl's contactPairFrictionLoad): per touching pair, in
    // list order, its other particle j, the normal from `particle`'s side
    // and the load mu lambda.
    struct FrictionLag {
        uint32_t j = 0;
        glm::dvec3 n{0.0};
        double load = 0.0;
    };
    // `normalTotals` are normalTotals(others, ...): a pair's share of the
    // hold divides by its ends' (springs/newton_contact_totals.comp).
    std::vector<FrictionLag> frictionLags(uint32_t particle, std::span<const glm::dvec3> others,
                                          std::span<const glm::dvec3> x, std::span<const double> inverseMasses,
                                          ParticleRange range, double h, std::span<const double> normalTotals) const;
    // normalTotal of every particle of `range` at `others`, from range.first.
    std::vector<double> normalTotals(std::span<const glm::dvec3> others, std::span<const glm::dvec3> x,
                                     std::span<const double> inverseMasses, ParticleRange range, double h) const;

    // The last detection's constraints (k < l, contact particle numbers),
    // ascending, and the colours of the set, these first
    // (gpu::kLeftoverColour or gpu::kNoColour for those the Jacobi average
    // projects).
    const std::vector<glm::uvec2>& constraints() const { return constraints_; }
    const std::vector<uint32_t>& colours() const { return colours_; }
    // The last detection's four-particle constraints: the vertex-triangle
    // ones in (triangle, vertex) order, then the edge-edge ones in (e, f)
    // order: constraint constraints().size() + t of the set.
    const std::vector<gpu::TriangleContact>& triangleContacts() const { return triangleContacts_; }

private:
    // Calls visit(l, j, penalty) for each touching pair of `particle` at
    // `p` with a particle j of `range` (at others[j]; l its contact
    // particle, penalty contact_math.glsl's ContactPenalty), in list order.
    template <typename Visit>
    void forTouchingPairs(uint32_t particle, const glm::dvec3& p, std::span<const glm::dvec3> others,
                          std::span<const glm::dvec3> x, std::span<const double> inverseMasses, ParticleRange range,
                          double h, Visit&& visit) const;

    // The touching pairs' s depth summed at `particle` at `p`
    // (springs/contact_energy.glsl's contactNormalTotal).
    double normalTotal(uint32_t particle, const glm::dvec3& p, std::span<const glm::dvec3> others,
                       std::span<const glm::dvec3> x, std::span<const double> inverseMasses, ParticleRange range,
                       double h) const;

    // One particle of a pair as the projection reads it.
    struct Side {
        uint32_t k;       // contact particle
        glm::dvec3 p, x;  // working and start-of-substep position
        double w;         // inverse mass
    };
    Side side(uint32_t k, std::span<const glm::dvec3> p, std::span<const glm::dvec3> x,
              std::span<const double> inverseMasses) const;
    bool touching(const Side& a, const Side& b) const;
    glm::dvec3 correction(const Side& a, const Side& b) const;

    void colour();
    void detectTriangles(std::span<const glm::dvec3> p, std::span<const double> inverseMasses);
    void detectEdges(std::span<const glm::dvec3> p, std::span<const double> inverseMasses);
    // The set (shaders/contacts/contact_constraint.glsl): its size, and
    // constraint c's particles (2 for a pair, 4: the vertex, the corners).
    uint32_t setSize() const;
    uint32_t particleCount(uint32_t c) const;
    glm::uvec4 particlesOf(uint32_t c) const;
    uint32_t priority(uint32_t c) const;
    // The four contact particles of four-particle constraint t (TriangleContact::particles).
    glm::uvec4 triangleParticles(uint32_t t) const;
    // Whether a pass over `pairs` (gpu::kContactPairs*) projects constraint c.
    bool inPass(uint32_t c, uint32_t pairs) const;
    // Whether constraint c pushes, and its particles' corrections, at `p`.
    struct Projection {
        bool active = false;
        glm::dvec3 corrections[4];
    };
    Projection projectConstraint(uint32_t c, std::span<const glm::dvec3> p, std::span<const glm::dvec3> x,
                                 std::span<const double> inverseMasses) const;
    Projection projectTriangle(uint32_t t, std::span<const glm::dvec3> p, std::span<const glm::dvec3> x,
                               std::span<const double> inverseMasses) const;
    // The Jacobi average over the constraints `included` marks.
    void average(std::span<glm::dvec3> p, std::span<const glm::dvec3> x, std::span<const double> inverseMasses,
                 const std::vector<bool>& included) const;

    ContactModel model_;
    std::vector<glm::uvec2> constraints_;
    std::vector<gpu::TriangleContact> triangleContacts_;
    std::vector<uint32_t> colours_;  // of the set
    // Per contact particle, the constraints of the set it is in, ascending.
    std::vector<std::vector<uint32_t>> incident_;
};

}  // namespace vksim
