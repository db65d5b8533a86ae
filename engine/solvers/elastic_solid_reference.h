#pragma once
// One tetrahedral solid in double precision on the CPU, with the energies
// the XPBD and VBD solids step on the GPU (math/elastic_energy.glsl): its
// elastic energy and forces, and the minimiser of the implicit Euler
// objective (or, without inertia, the static equilibrium) by Newton's method
// with a direct solve. The test oracle every solid solver converges to
// (docs/physics.md §16, "Testing the solids"), whatever its method.
#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "model/solid_geometry.h"
#include "scene/scene.h"

namespace vksim {

struct ElasticSolidModel {
    std::vector<glm::dvec3> rest;  // the particles as uploaded (floats), widened
    std::vector<double> masses;    // lumped [kg]
    std::vector<bool> fixed;       // hard pins
    std::vector<glm::uvec4> tets;  // vertex indices of `rest`
    std::vector<TetRest> restShapes;
    uint32_t model = 0;  // gpu::kElasticNeoHookean or gpu::kElasticCorotated
    double mu = 0.0, lambda = 0.0;
};

// The solid as a solver's particles hold it. It must have a material.
ElasticSolidModel elasticSolidModel(const SolidObject& solid);

// sum_e V_e Psi(F_e) at positions x.
double elasticEnergy(const ElasticSolidModel& solid, std::span<const glm::dvec3> x);
// -dE/dx per vertex, pinned ones included (the force the solid exerts on
// what holds them is minus theirs).
std::vector<glm::dvec3> elasticForces(const ElasticSolidModel& solid, std::span<const glm::dvec3> x);

// G(x) = 1/(2 h^2) sum_i m_i |x_i - y_i|^2 + E(x) - sum_i m_i a . x_i over the
// free vertices: one implicit Euler step (y = x + h v + h^2 g, a = 0), or
// the static equilibrium under a uniform acceleration a (no inertia: y unused).
struct ElasticObjective {
    std::span<const glm::dvec3> inertia;  // y, per vertex (empty: statics)
    double h = 0.0;                       // [s]; unused for statics
    glm::dvec3 acceleration{0.0};         // a [m/s^2]
};
double elasticObjective(const ElasticSolidModel& solid, const ElasticObjective& objective,
                        std::span<const glm::dvec3> x);

struct NewtonResult {
    std::vector<glm::dvec3> x;
    uint32_t iterations = 0;
    double gradientNorm = 0.0;  // max |dG/dx_i| over the free vertices at the end [N]
    double objective = 0.0;
    bool converged = false;
};

// Newton on G from `start` (pinned vertices stay where `start` has them):
// element Hessians projected to positive semi-definite, a sparse LDL^T
// solve, backtracking on G; stops when the largest free gradient is below
// `tolerance` [N].
NewtonResult minimiseElasticObjective(const ElasticSolidModel& solid, const ElasticObjective& objective,
                                      std::span<const glm::dvec3> start, double tolerance,
                                      uint32_t maxIterations = 100);

}  // namespace vksim
