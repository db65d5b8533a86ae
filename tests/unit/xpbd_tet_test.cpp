// The tetrahedra of XPBD solids (docs/physics.md §16, "XPBD for solids";
// shaders/pbd/tet_constraints.glsl, compiled as C++ double through
// geometry/shared_math.h): each constraint's gradient against central
// differences, the constraints' energy against elasticEnergyDensity, one
// XPBD step against its linearised equation, and the model: particles in
// the PBD range, tetrahedra coloured so that no two of a colour share a
// particle, the PBD volume constraint's material row.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <iostream>
#include <set>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "scene/scene_loader.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim {
namespace {

using glm::dmat3;
using glm::dvec3;

// A rest tetrahedron and its rows of Dm^-1 (as model/solid_geometry.cpp's tetRest).
struct Rest {
    std::array<dvec3, 4> X;
    dvec3 g1, g2, g3;
    double volume;
};

Rest restTet() {
    Rest r{{dvec3(0.1, 0.0, 0.05), dvec3(1.0, 0.1, 0.0), dvec3(0.2, 0.9, 0.1), dvec3(0.0, 0.15, 1.1)}, {}, {}, {}, 0};
    const dmat3 Dm(r.X[1] - r.X[0], r.X[2] - r.X[0], r.X[3] - r.X[0]);
    r.volume = glm::determinant(Dm) / 6.0;
    const dmat3 Bm = glm::inverse(Dm);
    r.g1 = dvec3(Bm[0][0], Bm[1][0], Bm[2][0]);
    r.g2 = dvec3(Bm[0][1], Bm[1][1], Bm[2][1]);
    r.g3 = dvec3(Bm[0][2], Bm[1][2], Bm[2][2]);
    return r;
}

// The rest shape stretched, sheared, turned and shifted: F far from I and R.
std::array<dvec3, 4> deformed(const Rest& r, double amount) {
    const dmat3 A = dmat3(1.0) + amount * dmat3(dvec3(0.3, -0.1, 0.2), dvec3(0.15, -0.25, 0.05),
                                                dvec3(-0.2, 0.1, 0.4));
    const double c = std::cos(0.7), s = std::sin(0.7);
    const dmat3 Rz(dvec3(c, s, 0), dvec3(-s, c, 0), dvec3(0, 0, 1));
    std::array<dvec3, 4> x;
    for (int k = 0; k < 4; ++k) x[k] = Rz * A * r.X[k] + dvec3(0.5, -1.0, 2.0);
    return x;
}

dmat3 deformation(const Rest& r, const std::array<dvec3, 4>& x) {
    return ref::tetDeformation(x[0], x[1], x[2], x[3], r.g1, r.g2, r.g3);
}

// The constraints as plain functions of F, written here apart from the shader's.
double deviatoricC(uint32_t model, const dmat3& F) {
    if (model == gpu::kElasticCorotated) return std::sqrt(ref::frobeniusSquared(F - ref::polarRotation(F)));
    const double J = glm::determinant(F);
    return std::sqrt(ref::frobeniusSquared(F) + J * J - 4.0 * J);
}
double hydrostaticC(uint32_t, const dmat3& F, double, double) { return glm::determinant(F) - 1.0; }

// grad_k C recovered from a step: with compliance ~0 and lambda = 0,
// dp_k = w_k grad_k dLambda, w = 1.
std::array<dvec3, 4> gradientsOf(const ref::TetCorrection& c) {
    return {c.dp0 / c.dLambda, c.dp1 / c.dLambda, c.dp2 / c.dLambda, c.dp3 / c.dLambda};
}

template <typename C>
std::array<dvec3, 4> centralDifferences(const Rest& r, std::array<dvec3, 4> x, C constraint) {
    const double h = 1e-6;
    std::array<dvec3, 4> grad;
    for (int k = 0; k < 4; ++k)
        for (int a = 0; a < 3; ++a) {
            const double saved = x[k][a];
            x[k][a] = saved + h;
            const double plus = constraint(deformation(r, x));
            x[k][a] = saved - h;
            const double minus = constraint(deformation(r, x));
            x[k][a] = saved;
            grad[k][a] = (plus - minus) / (2 * h);
        }
    return grad;
}

double largestError(const std::array<dvec3, 4>& a, const std::array<dvec3, 4>& b) {
    double worst = 0.0;
    for (int k = 0; k < 4; ++k) worst = std::max(worst, glm::length(a[k] - b[k]) / std::max(1.0, glm::length(b[k])));
    return worst;
}

TEST(XpbdTetrahedron, GradientsMatchCentralDifferences) {
    const Rest r = restTet();
    const std::array<dvec3, 4> x = deformed(r, 0.6);
    const dmat3 F = deformation(r, x);
    const double mu = 1e12, lambda = 3e12;  // alpha ~ 1e-12: the step is C / |grad|^2 along grad
    for (uint32_t model : {gpu::kElasticNeoHookean, gpu::kElasticCorotated}) {
        const ref::TetCorrection d =
            ref::solveTetDeviatoric(F, r.g1, r.g2, r.g3, 1, 1, 1, 1, r.volume, model, mu, 1.0, 0.0);
        const ref::TetCorrection h =
            ref::solveTetHydrostatic(F, r.g1, r.g2, r.g3, 1, 1, 1, 1, r.volume, lambda, 1.0, 0.0);
        const double eD = largestError(gradientsOf(d), centralDifferences(r, x, [&](const dmat3& G) {
                                           return deviatoricC(model, G);
                                       }));
        const double eH = largestError(gradientsOf(h), centralDifferences(r, x, [&](const dmat3& G) {
                                           return hydrostaticC(model, G, mu, lambda);
                                       }));
        std::cout << fmt::format("[xpbd tet] model {}: gradient error deviatoric {:.2e}, hydrostatic {:.2e}\n", model,
                                 eD, eH);
        EXPECT_LT(eD, 1e-6);
        EXPECT_LT(eH, 1e-6);
        // The PBD volume constraint C = 6 (V - V0).
        const ref::TetCorrection v = ref::solveTetVolume(F, r.g1, r.g2, r.g3, 1, 1, 1, 1, r.volume, 1.0);
        const double eV = largestError(gradientsOf(v), centralDifferences(r, x, [&](const dmat3& G) {
                                           return 6.0 * r.volume * (glm::determinant(G) - 1.0);
                                       }));
        EXPECT_LT(eV, 1e-6);
    }
}

// sum C^2 / (2 alpha) is V Psi, exactly, for both models.
TEST(XpbdTetrahedron, ConstraintEnergyIsTheElasticEnergy) {
    const Rest r = restTet();
    const double mu = 3e4, lambda = 5e4;
    for (double amount : {0.0, 0.2, 0.8}) {
        const std::array<dvec3, 4> x = deformed(r, amount);
        const dmat3 F = deformation(r, x);
        const double energy =
            ref::tetElasticEnergy(x[0], x[1], x[2], x[3], r.g1, r.g2, r.g3, r.volume, gpu::kElasticNeoHookean, mu,
                                  lambda);
        const double cD = deviatoricC(gpu::kElasticNeoHookean, F), cH = hydrostaticC(gpu::kElasticNeoHookean, F, mu,
                                                                                    lambda);
        const double constraints = cD * cD * mu * r.volume / 2 + cH * cH * lambda * r.volume / 2;
        EXPECT_NEAR(constraints, energy, 1e-9 * std::max(energy, 1e-12)) << "Neo-Hookean, amount " << amount;
        // The shader's C_D, written in F's singular values, is the same
        // function (at amount 0, a rotation, C_D = 0 and rounding is 1e-16 of its square).
        const ref::TetConstraintValue d = ref::tetDeviatoric(F, r.volume, gpu::kElasticNeoHookean, mu);
        EXPECT_NEAR(d.C * d.C, cD * cD, 1e-12) << "amount " << amount;

        const double corotated = ref::tetElasticEnergy(x[0], x[1], x[2], x[3], r.g1, r.g2, r.g3, r.volume,
                                                       gpu::kElasticCorotated, mu, lambda);
        const double kD = deviatoricC(gpu::kElasticCorotated, F), kH = hydrostaticC(gpu::kElasticCorotated, F, mu,
                                                                                   lambda);
        EXPECT_NEAR(kD * kD * 2 * mu * r.volume / 2 + kH * kH * lambda * r.volume / 2, corotated,
                    1e-9 * std::max(corotated, 1e-12))
            << "corotated, amount " << amount;
    }
}

// XPBD's step solves C(x) + grad C . dx + alpha~ dLambda = 0 (lambda = 0
// before it): after a small deformation's step, C at the moved positions
// is -alpha~ dLambda up to the second-order term.
TEST(XpbdTetrahedron, OneStepSolvesTheLinearisedXpbdEquation) {
    const Rest r = restTet();
    const std::array<dvec3, 4> x = deformed(r, 0.01);
    // Masses of a 1000 kg/m^3 solid (V/4 of this 0.15 m^3 tetrahedron a
    // vertex, about 37 kg), one vertex pinned.
    const std::array<double, 4> w = {0.02, 0.03, 0.025, 0.0};
    const double mu = 1e5, lambda = 4e5, h = 1.0 / 240, volume = r.volume;
    for (uint32_t model : {gpu::kElasticNeoHookean, gpu::kElasticCorotated}) {
        const dmat3 F = deformation(r, x);
        const ref::TetCorrection d =
            ref::solveTetHydrostatic(F, r.g1, r.g2, r.g3, w[0], w[1], w[2], w[3], volume, lambda, h, 0.0);
        const std::array<dvec3, 4> moved = {x[0] + d.dp0, x[1] + d.dp1, x[2] + d.dp2, x[3] + d.dp3};
        EXPECT_EQ(d.dp3, dvec3(0.0));
        const double alphaTilde = 1.0 / (lambda * volume) / (h * h);
        const double before = hydrostaticC(model, F, mu, lambda);
        const double residual = hydrostaticC(model, deformation(r, moved), mu, lambda) + alphaTilde * d.dLambda;
        std::cout << fmt::format("[xpbd tet] model {}: C_H {:.3e} -> linearised residual {:.3e}\n", model, before,
                                 residual);
        EXPECT_LT(std::abs(residual), 1e-3 * std::abs(before));

        const ref::TetCorrection e =
            ref::solveTetDeviatoric(F, r.g1, r.g2, r.g3, w[0], w[1], w[2], w[3], volume, model, mu, h, 0.0);
        const std::array<dvec3, 4> movedD = {x[0] + e.dp0, x[1] + e.dp1, x[2] + e.dp2, x[3] + e.dp3};
        const double alphaD = 1.0 / ((model == gpu::kElasticCorotated ? 2.0 : 1.0) * mu * volume) / (h * h);
        const double beforeD = deviatoricC(model, F);
        const double residualD = deviatoricC(model, deformation(r, movedD)) + alphaD * e.dLambda;
        EXPECT_LT(std::abs(residualD), 1e-2 * std::abs(beforeD)) << "model " << model;
    }
}

// At F = I both constraints of both models are zero: the multipliers stay
// zero and nothing moves, whether the pair starts from lambda = 0 or not.
// (The earlier Neo-Hookean pair, C_D = sqrt(I_C) and C_H = J - gamma, was
// satisfied at rest only as a pair, by two large multipliers whose forces
// cancelled: docs/physics.md §16 says what that cost.) Near rest C_D is of
// the strain's size: for F = R (I + e A), C_D / e tends to a constant, which
// the shader's form in the singular values keeps at e = 1e-9, where
// I_C + J^2 - 4 J formed from F would be double rounding (1e-16 against
// e^2 = 1e-18).
TEST(XpbdTetrahedron, RestShapeSatisfiesBothConstraints) {
    const Rest r = restTet();
    const double mu = 1e5, lambda = 2e5, h = 1.0 / 240;
    const dmat3 F = deformation(r, {r.X[0], r.X[1], r.X[2], r.X[3]});
    for (uint32_t model : {gpu::kElasticNeoHookean, gpu::kElasticCorotated}) {
        EXPECT_LT(ref::tetDeviatoric(F, r.volume, model, mu).C, 1e-7) << "model " << model;
        EXPECT_LT(std::abs(ref::tetHydrostatic(F, r.volume, lambda).C), 1e-14) << "model " << model;
        std::array<dvec3, 4> x = {r.X[0], r.X[1], r.X[2], r.X[3]};
        double mD = 0.0, mH = 0.0;
        for (int it = 0; it < 200; ++it) {
            const ref::TetProjection q = ref::solveTetrahedron(x[0], 0.02, x[1], 0.02, x[2], 0.02, x[3], 0.02, r.g1,
                                                               r.g2, r.g3, r.volume, model, mu, lambda, -1.0, h, mD,
                                                               mH);
            x = {q.x0, q.x1, q.x2, q.x3};
            mD = q.lambdaDeviatoric;
            mH = q.lambdaHydrostatic;
        }
        for (int k = 0; k < 4; ++k) EXPECT_LT(glm::length(x[k] - r.X[k]), 1e-12) << "model " << model;
        EXPECT_LT(std::abs(mD), 1e-12 * mu * r.volume * h * h);
        EXPECT_LT(std::abs(mH), 1e-12 * lambda * r.volume * h * h);
    }
    const dmat3 A(dvec3(0.3, -0.1, 0.2), dvec3(0.15, -0.25, 0.05), dvec3(-0.2, 0.1, 0.4));
    const double c = std::cos(0.7), s = std::sin(0.7);
    const dmat3 R(dvec3(c, s, 0), dvec3(-s, c, 0), dvec3(0, 0, 1));
    const dmat3 S = A + glm::transpose(A);  // a rotation would not strain it
    const double c1 = ref::tetDeviatoric(R * (dmat3(1.0) + 1e-3 * S), r.volume, gpu::kElasticNeoHookean, mu).C / 1e-3;
    const double c9 = ref::tetDeviatoric(R * (dmat3(1.0) + 1e-9 * S), r.volume, gpu::kElasticNeoHookean, mu).C / 1e-9;
    std::cout << fmt::format("[xpbd tet] Neo-Hookean C_D / strain near rest: {:.9f} at 1e-3, {:.9f} at 1e-9\n", c1,
                             c9);
    EXPECT_GT(c1, 0.1);
    EXPECT_NEAR(c9, c1, 1e-2 * c1);
}

Scene xpbdScene(const char* colouring) {
    return parseScene(fmt::format(R"({{
        "solver": {{ "pbdColouring": "{}" }},
        "objects": [
          {{ "type": "cloth", "name": "flag", "resolution": [6, 6] }},
          {{ "type": "tetBox", "name": "box", "size": [0.6, 0.2, 0.2], "cells": [6, 2, 2], "position": [0, 1, 0],
             "method": "xpbd", "pinnedFaces": ["-x"], "volumeConstraint": {{ "stiffness": 0.5 }},
             "material": {{ "youngsModulus": 1e5, "poissonRatio": 0.3, "density": 500 }} }},
          {{ "type": "tetBall", "name": "ball", "radius": 0.2, "cells": 5, "position": [1, 1, 0],
             "method": "xpbd", "material": {{ "model": "corotated", "youngsModulus": 2e4, "poissonRatio": 0.45 }} }},
          {{ "type": "tetBox", "name": "pd", "position": [0, 3, 0] }} ] }})",
                                  colouring),
                      "xpbd.json");
}

TEST(XpbdSolidModel, ParticlesAreInThePbdRangeWithTheirMaterials) {
    const Scene scene = xpbdScene("perFamily");
    const SimModel model = buildModel(scene);
    const ObjectRange& box = model.objects.at(1);
    const ObjectRange& ball = model.objects.at(2);
    EXPECT_EQ(box.name, "box");
    EXPECT_EQ(model.pbd.particleCount, model.objects[0].particleCount + box.particleCount + ball.particleCount);
    EXPECT_EQ(model.pd.firstParticle, model.pbd.firstParticle + model.pbd.particleCount);
    ASSERT_EQ(model.pbd.elasticMaterials.size(), 2u);
    const glm::dvec2 lame = ref::lameParameters(1e5, 0.3);
    EXPECT_FLOAT_EQ(model.pbd.elasticMaterials[0].mu, float(lame.x));
    EXPECT_FLOAT_EQ(model.pbd.elasticMaterials[0].lambda, float(lame.y));
    EXPECT_EQ(model.pbd.elasticMaterials[1].model, gpu::kElasticCorotated);
    EXPECT_EQ(model.pbd.elasticMaterialSolids, (std::vector<uint32_t>{0, 1}));
    // The box's tetrahedra have the volume constraint, in a PBD row after the cloth's three.
    size_t boxTets = 0, ballTets = 0;
    for (const gpu::TetrahedronConstraint& t : model.pbd.tetrahedra) {
        const bool inBox = t.particles.x >= box.firstParticle && t.particles.x < box.firstParticle + box.particleCount;
        if (inBox) {
            ++boxTets;
            ASSERT_EQ(t.volumeMaterial, 3u);
            EXPECT_EQ(t.elasticRow, 0u);
        } else {
            ++ballTets;
            EXPECT_EQ(t.volumeMaterial, gpu::kNoVolumeConstraint);
            EXPECT_EQ(t.elasticRow, 1u);
        }
        EXPECT_GT(t.g1.w, 0.0f);
    }
    EXPECT_EQ(boxTets, 6u * 24u);
    EXPECT_GT(ballTets, 0u);
    EXPECT_EQ(model.pbd.materials.at(3).mode, gpu::kModePbd);
    EXPECT_FLOAT_EQ(model.pbd.materials.at(3).stiffness, 0.5f);
    // The pinned face: inverse mass 0; the mass is density times volume.
    double mass = 0.0;
    uint32_t pinned = 0;
    for (uint32_t i = box.firstParticle; i < box.firstParticle + box.particleCount; ++i) {
        if (model.positions[i].w == 0.0f) ++pinned;
        else mass += 1.0 / model.positions[i].w;
    }
    EXPECT_EQ(pinned, 3u * 3u);
    EXPECT_LT(mass, 500.0 * 0.6 * 0.2 * 0.2);
}

// No two tetrahedra of a colour share a particle, and every one is in a
// colour or the overflow group, on either colouring.
TEST(XpbdSolidModel, TetrahedronColoursShareNoParticle) {
    for (const char* colouring : {"perFamily", "acrossFamilies"}) {
        const SimModel model = buildModel(xpbdScene(colouring));
        const ColourGroups& groups = model.pbd.tetrahedronGroups;
        size_t covered = groups.overflow.count;
        for (const ColourRange& colour : groups.colours) {
            std::set<uint32_t> seen;
            for (uint32_t j = colour.first; j < colour.first + colour.count; ++j) {
                const glm::uvec4 p = model.pbd.tetrahedra[j].particles;
                for (uint32_t particle : {p.x, p.y, p.z, p.w})
                    EXPECT_TRUE(seen.insert(particle).second) << colouring << ": particle " << particle << " twice";
            }
            covered += colour.count;
        }
        EXPECT_EQ(covered, model.pbd.tetrahedra.size()) << colouring;
        std::cout << fmt::format("[xpbd tet] {}: {} tetrahedra in {} colours, {} in the overflow group\n", colouring,
                                 model.pbd.tetrahedra.size(), groups.colours.size(), groups.overflow.count);
        // Across families, a shared colour holds no particle twice whatever the family.
        if (std::string(colouring) == "acrossFamilies")
            for (size_t c = 0; c < groups.colours.size(); ++c) {
                std::set<uint32_t> seen;
                const ColourRange t = groups.colours[c];
                for (uint32_t j = t.first; j < t.first + t.count; ++j) {
                    const glm::uvec4 p = model.pbd.tetrahedra[j].particles;
                    for (uint32_t particle : {p.x, p.y, p.z, p.w}) seen.insert(particle);
                }
                if (c < model.pbd.distanceGroups.colours.size()) {
                    const ColourRange d = model.pbd.distanceGroups.colours[c];
                    for (uint32_t j = d.first; j < d.first + d.count; ++j) {
                        EXPECT_FALSE(seen.contains(model.pbd.distance[j].p0));
                        EXPECT_FALSE(seen.contains(model.pbd.distance[j].p1));
                    }
                }
            }
    }
}

TEST(XpbdSolidModel, VolumeConstraintIsAnXpbdKey) {
    EXPECT_THROW(parseScene(R"({ "objects": [ { "type": "tetBox", "volumeConstraint": { "stiffness": 1 } } ] })",
                            "pd.json"),
                 SceneError);
    EXPECT_THROW(parseScene(R"({ "objects": [ { "type": "tetBox", "method": "xpbd", "material": {
                   "youngsModulus": 1e5 }, "volumeConstraint": { "stiffness": 2 } } ] })",
                            "k.json"),
                 SceneError);
}

// A soft cantilever (E = 2e5 Pa, 400 kg/m^3, 0.6 m: linear theory sags
// it by about its length, so large rotations) on the CPU reference: it
// droops and swings, its tip below the pins, with the Neo-Hookean pair and
// with corotated alike (both are linear elasticity of (mu, lambda) for small
// strains). Solved one constraint after the other, the Neo-Hookean beam
// folded back over its pins (tip at x < 0 above them).
TEST(XpbdSolidModel, SoftBeamDroopsAlikeUnderBothModels) {
    glm::dvec3 tips[2];
    int m = 0;
    for (const char* model : {"neoHookean", "corotated"}) {
        const Scene scene = parseScene(fmt::format(R"({{
            "solver": {{ "substeps": 4, "iterations": 6 }},
            "objects": [ {{ "type": "tetBox", "size": [0.6, 0.12, 0.12], "cells": [6, 2, 2], "position": [0, 1, 0],
                "method": "xpbd", "pinnedFaces": ["-x"],
                "material": {{ "model": "{}", "youngsModulus": 2e5, "poissonRatio": 0.3, "density": 400 }} }} ] }})",
                                                   model),
                                       "beam.json");
        const SimModel built = buildModel(scene);
        PbdReference cpu(built);
        for (int f = 0; f < 20; ++f) cpu.step(scene.solver);
        tips[m++] = cpu.positions()[6];  // the +x end's corner at the bottom
        std::cout << fmt::format("[xpbd tet] {} beam tip after 20 frames: ({:.3f}, {:.3f}) from (0.300, 0.940)\n",
                                 model, cpu.positions()[6].x, cpu.positions()[6].y);
    }
    for (const glm::dvec3& tip : tips) {
        EXPECT_GT(tip.x, 0.15);
        EXPECT_LT(tip.y, 0.85);
    }
    EXPECT_LT(glm::length(tips[0] - tips[1]), 0.05);
}

// A one-ulp change of the start of the soft beam (mu = 7.7e4 Pa,
// 400 kg/m^3, 6 cm cells) at 4 substeps of 1/60 s, where a shear wave
// crosses an element in about one substep (h sqrt(mu / rho) / edge = 0.98),
// and at 8 (0.49). The earlier Neo-Hookean pair held its rest stress as two
// large multipliers whose forces cancelled (lambda_D ~ -sqrt 3 mu V h^2),
// and XPBD's update, which leaves out their geometric stiffness
// lambda grad^2 C, turned the ulp into centimetres within 5 frames at 4
// substeps (measured 1e-2 m): a substep limit. Both constraints are now
// zero at rest, as corotated's are, and the ulp stays at the rounding
// level at either count (measured 1.9e-9 and 2.7e-9 m; corotated 2.0e-9).
double ulpSensitivity(const char* model, uint32_t substeps) {
    const Scene scene = parseScene(fmt::format(R"({{
        "solver": {{ "substeps": {}, "iterations": 4 }},
        "objects": [ {{ "type": "tetBox", "size": [0.6, 0.12, 0.12], "cells": [6, 2, 2], "position": [0, 1, 0],
            "method": "xpbd", "pinnedFaces": ["-x"],
            "material": {{ "model": "{}", "youngsModulus": 2e5, "poissonRatio": 0.3, "density": 400 }} }} ] }})",
                                               substeps, model),
                                   "beam.json");
    SimModel a = buildModel(scene), b = a;
    for (glm::vec4& p : b.positions)
        if (p.w != 0.0f) p.x = std::nextafter(p.x, 10.0f);
    PbdReference ra(a), rb(b);
    for (int f = 0; f < 5; ++f) {
        ra.step(scene.solver);
        rb.step(scene.solver);
    }
    double e = 0.0;
    for (size_t i = 0; i < ra.positions().size(); ++i)
        e = std::max(e, glm::length(ra.positions()[i] - rb.positions()[i]));
    std::cout << fmt::format("[xpbd tet] {} beam, {} substeps: a one-ulp start moves it {:.3e} m in 5 frames\n", model,
                             substeps, e);
    return e;
}

TEST(XpbdSolidModel, NoSubstepLimitFromARestStress) {
    EXPECT_LT(ulpSensitivity("neoHookean", 4), 1e-6);
    EXPECT_LT(ulpSensitivity("neoHookean", 8), 1e-6);
    EXPECT_LT(ulpSensitivity("corotated", 4), 1e-6);
}

}  // namespace
}  // namespace vksim
