// Shape matching (docs/physics.md §13; Müller et al. 2005) on the GPU,
// against closed forms: one projection at stiffness k leaves (1 - k) of a
// linear deformation; the linear mode at beta leaves beta of it and keeps
// the volume; the projection keeps linear and angular momentum; the wobble
// decays by sqrt(1 - k) a substep. Then the double-precision reference and
// the two dispatch paths, bit for bit.
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "gpu_harness.h"
#include "scene/scene_loader.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim::test {
namespace {

class ShapeMatching : public GpuTest {};

// The jelly cube (assets/jelly_cube.obj: the 218 vertices of a 0.3 m cube's
// surface) with shape matching alone, in zero gravity, without colliders,
// one substep of one iteration unless `solver` says otherwise. Its Aqq is
// isotropic (a cube), so R = polar(Apq) is the rotation of the deformation.
Scene jellyScene(std::string_view shapeMatching, uint32_t substeps = 1, uint32_t iterations = 1) {
    return parseScene(fmt::format(R"({{
        "solver": {{ "substeps": {}, "iterations": {}, "gravity": [0, 0, 0] }},
        "objects": [ {{ "type": "mesh", "file": "{}", "mass": 2, "position": [0.1, 1.0, -0.2],
                       "stretch": {{ "enabled": false }}, "bending": {{ "enabled": false }},
                       "shapeMatching": {} }} ] }})",
                                  substeps, iterations, sourcePath("assets/jelly_cube.obj"), shapeMatching),
                      "jelly.json");
}

glm::dmat3 rotationAbout(glm::dvec3 axis, double degrees) {
    const glm::dvec3 a = glm::normalize(axis);
    const double t = glm::radians(degrees), c = std::cos(t), s = std::sin(t);
    const glm::dmat3 K(glm::dvec3(0, a.z, -a.y), glm::dvec3(-a.z, 0, a.x), glm::dvec3(a.y, -a.x, 0));
    return glm::dmat3(1.0) + s * K + (1.0 - c) * K * K;
}

// The group's particles at c0 + F r_i (c0 its rest centre of mass).
void deform(SimModel& model, const glm::dmat3& F) {
    const gpu::ShapeMatchGroup& g = model.pbd.shapeMatchGroups.at(0);
    glm::dvec3 c0(0.0);
    for (uint32_t l = 0; l < g.particleCount; ++l)
        c0 += double(model.pbd.shapeMatchRest[g.firstRest + l].w) *
              glm::dvec3(glm::vec3(model.positions[g.firstParticle + l]));
    c0 *= double(g.inverseMass);
    for (uint32_t l = 0; l < g.particleCount; ++l) {
        const glm::dvec3 r(glm::vec3(model.pbd.shapeMatchRest[g.firstRest + l]));
        model.positions[g.firstParticle + l] = glm::vec4(glm::vec3(c0 + F * r), model.positions[g.firstParticle + l].w);
    }
}

// What the positions say about the group, in double: the centre, the best
// linear map A = Apq Aqq^-1, its rotation R and the RMS distance of the
// particles from the rest shape moved rigidly (c + R r_i).
struct Fit {
    glm::dvec3 c;
    glm::dmat3 A, R;
    double rigidError;
};

Fit fit(const SimModel& model, const std::vector<glm::vec4>& positions) {
    const gpu::ShapeMatchGroup& g = model.pbd.shapeMatchGroups.at(0);
    Fit f{};
    double mass = 0.0;
    glm::dmat3 Aqq(0.0), Apq(0.0);
    for (uint32_t l = 0; l < g.particleCount; ++l) {
        const double m = model.pbd.shapeMatchRest[g.firstRest + l].w;
        mass += m;
        f.c += m * glm::dvec3(positions[g.firstParticle + l]);
    }
    f.c /= mass;
    for (uint32_t l = 0; l < g.particleCount; ++l) {
        const double m = model.pbd.shapeMatchRest[g.firstRest + l].w;
        const glm::dvec3 r(glm::vec3(model.pbd.shapeMatchRest[g.firstRest + l]));
        Apq += glm::outerProduct(m * (glm::dvec3(positions[g.firstParticle + l]) - f.c), r);
        Aqq += glm::outerProduct(m * r, r);
    }
    f.A = Apq * glm::inverse(Aqq);
    const ref::Svd3 d = ref::svd3(Apq);
    f.R = d.U * glm::transpose(d.V);
    double sum = 0.0;
    for (uint32_t l = 0; l < g.particleCount; ++l) {
        const double m = model.pbd.shapeMatchRest[g.firstRest + l].w;
        const glm::dvec3 r(glm::vec3(model.pbd.shapeMatchRest[g.firstRest + l]));
        const glm::dvec3 e = glm::dvec3(positions[g.firstParticle + l]) - (f.c + f.R * r);
        sum += m * glm::dot(e, e);
    }
    f.rigidError = std::sqrt(sum / mass);
    return f;
}

double frobenius(const glm::dmat3& M) {
    double s = 0.0;
    for (int i = 0; i < 3; ++i) s += glm::dot(M[i], M[i]);
    return std::sqrt(s);
}

// A stretch and shear, turned: det 1.2, far from rigid (RMS 2.4 cm from
// the nearest rigid shape over a 0.3 m cube).
glm::dmat3 bigDeformation() {
    const glm::dmat3 S(glm::dvec3(1.3, 0.1, 0.0), glm::dvec3(0.1, 0.8, 0.05), glm::dvec3(0.0, 0.05, 1.15));
    return rotationAbout({1, 2, 0.5}, 35.0) * S;
}

// Stiffness 1: one projection puts every particle on its goal, the rest
// shape moved rigidly, whatever the deformation. Stiffness k: the
// deformation that is left is (1 - k) of it (closed form: with Aqq
// isotropic, R = polar(F) stays the rotation of (1-k)F + kR). Float
// positions near 1 m round at 6e-8 m; the bounds leave 10x that.
TEST_F(ShapeMatching, OneProjectionLeavesOneMinusStiffnessOfTheDeformation) {
    for (double k : {1.0, 0.7, 0.3}) {
        const Scene scene = jellyScene(fmt::format(R"({{ "mode": "rigid", "stiffness": {} }})", k));
        SimModel model = buildModel(scene);
        deform(model, bigDeformation());
        const Fit before = fit(model, model.positions);
        GpuRun gpu(ctx(), model, scene.solver);
        gpu.frames(1);
        const Fit after = fit(model, gpu.positions());
        const double ratio = after.rigidError / before.rigidError;
        std::cout << fmt::format("[shape matching] stiffness {}: distance from the rigid shape {:.4e} m -> {:.4e} m, "
                                 "ratio {:.6f} (1 - k = {:.6f}); rotation moved by {:.2e}\n",
                                 k, before.rigidError, after.rigidError, ratio, 1.0 - k, frobenius(after.R - before.R));
        EXPECT_NEAR(ratio, 1.0 - k, 1e-4);
        EXPECT_LT(frobenius(after.R - before.R), 1e-5);
        EXPECT_LT(glm::length(after.c - before.c), 1e-6);  // the projection does not move the centre of mass
    }
}

// A deformed cube let go returns to its rest shape: PBD turns each
// projection's move into velocity, so it wobbles, and the wobble decays by
// sqrt(1 - k) per substep (the projection's map of (deformation, velocity)
// has determinant 1 - k and complex eigenvalues). Over 120 frames at
// k = 0.3 that is 0.7^60 = 5e-10 of the start; float rounding stops it near
// 1e-7 m.
TEST_F(ShapeMatching, ADeformedBodyReturnsToItsRestShape) {
    const Scene scene = jellyScene(R"({ "mode": "rigid", "stiffness": 0.3 })");
    SimModel model = buildModel(scene);
    deform(model, bigDeformation());
    const double start = fit(model, model.positions).rigidError;
    GpuRun gpu(ctx(), model, scene.solver);
    std::string trace;
    double last = start;
    for (uint32_t frame = 1; frame <= 120; ++frame) {
        gpu.frames(1);
        last = fit(model, gpu.positions()).rigidError;
        if (frame == 1 || frame == 5 || frame == 10 || frame == 30 || frame == 60 || frame == 120)
            trace += fmt::format(" {}: {:.3e}", frame, last);
    }
    std::cout << fmt::format("[shape matching] distance from the rigid shape [m], start {:.3e}, by frame:{}\n", start,
                             trace);
    EXPECT_LT(last, 1e-6);
    EXPECT_LT(last, 1e-4 * start);
}

// Aqq = sum m_i r_i r_i^T of the group.
glm::dmat3 restMoment(const SimModel& model) {
    const gpu::ShapeMatchGroup& g = model.pbd.shapeMatchGroups.at(0);
    glm::dmat3 Aqq(0.0);
    for (uint32_t l = 0; l < g.particleCount; ++l) {
        const glm::dvec3 r(glm::vec3(model.pbd.shapeMatchRest[g.firstRest + l]));
        Aqq += glm::outerProduct(double(model.pbd.shapeMatchRest[g.firstRest + l].w) * r, r);
    }
    return Aqq;
}

// The linear mode (the paper's section 4.1): goal map beta A~ + (1 - beta) R.
// After one projection at stiffness 1 the best linear map of the shape is
// exactly that: beta = 1 keeps a volume-preserving deformation F as it is,
// beta = 0 takes the rotation R = polar(F Aqq) (the cube's area-lumped
// masses make Aqq isotropic only to 1e-3: the triangulation's diagonals
// all run one way), and beta in between leaves beta of the deformation. A
// uniform scale that changes the volume (det 1.2) comes back with det 1 for
// beta = 1, since A~ = A / det(A)^(1/3).
TEST_F(ShapeMatching, TheLinearModesBetaLeavesThatShareOfTheDeformation) {
    const glm::dmat3 R0 = rotationAbout({0, 0, 1}, 20.0);
    const glm::dmat3 F = R0 * glm::dmat3(glm::dvec3(1.25, 0.0, 0.0), glm::dvec3(0.0, 0.8, 0.0),
                                         glm::dvec3(0.0, 0.0, 1.0));  // det 1
    for (double beta : {0.0, 0.25, 0.5, 1.0}) {
        const Scene scene = jellyScene(fmt::format(R"({{ "mode": "linear", "beta": {}, "stiffness": 1 }})", beta));
        SimModel model = buildModel(scene);
        deform(model, F);
        GpuRun gpu(ctx(), model, scene.solver);
        gpu.frames(1);
        const Fit after = fit(model, gpu.positions());
        const ref::Svd3 polar = ref::svd3(F * restMoment(model));
        const glm::dmat3 R = polar.U * glm::transpose(polar.V);
        const glm::dmat3 expected = F * beta + R * (1.0 - beta);
        const double left = frobenius(after.A - R) / frobenius(F - R);
        std::cout << fmt::format("[shape matching] linear, beta {}: deformation left {:.6f}, |A - (beta F + (1 - beta) "
                                 "R)| = {:.2e}, det A = {:.6f}\n",
                                 beta, left, frobenius(after.A - expected), glm::determinant(after.A));
        EXPECT_LT(frobenius(after.A - expected), 2e-5);
        EXPECT_NEAR(left, beta, 2e-5);
    }
    const double scale = std::cbrt(1.2);
    const Scene scene = jellyScene(R"({ "mode": "linear", "beta": 1, "stiffness": 1 })");
    SimModel model = buildModel(scene);
    deform(model, R0 * scale);
    GpuRun gpu(ctx(), model, scene.solver);
    gpu.frames(1);
    const double det = glm::determinant(fit(model, gpu.positions()).A);
    std::cout << fmt::format("[shape matching] linear, beta 1, scaled to volume 1.2: det A after one projection {:.6f}\n",
                             det);
    EXPECT_NEAR(det, 1.0, 2e-5);
}

// Linear momentum, and angular momentum about a point.
struct Momentum {
    glm::dvec3 linear{0.0}, angular{0.0};
};

// Each projection moves the particles by k (c + R r_i - p_i): the moves sum
// to zero (sum m_i r_i = 0), and their moment about c, k sum m_i (p_i - c) x
// R r_i, is the axial part of R Apq^T = R S R^T, which is symmetric: zero.
// So a deformed jelly let go at rest springs back without gaining linear or
// angular momentum (a rotation taken any other way than by the polar
// decomposition, say by Gram-Schmidt on Apq, makes it spin). Across frames
// PBD's velocities (p - x)/h keep them only to O(h): the change of L in a
// substep is sum m x x dp / h, not sum m p x dp / h; the spinning case below
// measures that drift.
TEST_F(ShapeMatching, KeepsLinearAndAngularMomentum) {
    {
        const Scene scene = jellyScene(R"({ "mode": "rigid", "stiffness": 0.5 })");
        SimModel model = buildModel(scene);
        deform(model, bigDeformation());
        const Fit start = fit(model, model.positions);
        GpuRun gpu(ctx(), model, scene.solver);
        gpu.frames(1);
        const std::vector<glm::vec4> x = gpu.positions(), v = gpu.velocities();
        // Scales: sum m |v| and sum m |x - c| |v|, against which zero is judged.
        double mv = 0.0, mrv = 0.0;
        glm::dvec3 P(0.0), L(0.0);
        for (size_t i = 0; i < x.size(); ++i) {
            const double m = 1.0 / x[i].w;
            const glm::dvec3 r = glm::dvec3(x[i]) - start.c, u(v[i]);
            mv += m * glm::length(u);
            mrv += m * glm::length(r) * glm::length(u);
            P += m * u;
            L += m * glm::cross(r, u);
        }
        std::cout << fmt::format("[shape matching] released at rest, after one projection: |P| / sum m|v| = {:.2e}, "
                                 "|L| / sum m|r||v| = {:.2e}\n",
                                 glm::length(P) / mv, glm::length(L) / mrv);
        EXPECT_LT(glm::length(P) / mv, 1e-5);
        EXPECT_LT(glm::length(L) / mrv, 1e-5);
    }
    // Spinning rigidly (stiffness 1), PBD loses rotation, and the loss has a
    // closed form. The first prediction x + h v leaves each particle on the
    // tangent; the projection returns it to the rest shape turned by
    // theta_1 = atan(w h). From then on the velocity is the chord (p - x)/h,
    // so the next prediction is (2R - I) r for a turn R by theta_k, whose
    // polar rotation turns by theta_k+1 = atan(sin theta_k / (2 - cos theta_k))
    // = theta_k (1 - theta_k^2 + ...): the spin decays as
    // 1 / sqrt(1 + 2 n (w h)^2) over n substeps, and the angular momentum
    // about the centre of mass is I sin(theta_n) / h. The cube's inertia is
    // isotropic, so the axis stays put.
    const Scene scene = jellyScene(R"({ "mode": "rigid", "stiffness": 1 })", 4, 4);
    SimModel model = buildModel(scene);
    const Fit start = fit(model, model.positions);
    const glm::dvec3 velocity(0.4, -0.2, 0.1), spin(2.0, 5.0, -1.0);
    for (size_t i = 0; i < model.positions.size(); ++i)
        model.velocities[i] =
            glm::vec4(glm::vec3(velocity + glm::cross(spin, glm::dvec3(glm::vec3(model.positions[i])) - start.c)), 0.0f);
    // Linear momentum, and angular momentum about the centre of mass.
    auto momenta = [&](const std::vector<glm::vec4>& x, const std::vector<glm::vec4>& v) {
        const glm::dvec3 c = fit(model, x).c;
        Momentum p;
        for (size_t i = 0; i < x.size(); ++i) {
            const double m = 1.0 / x[i].w;
            p.linear += m * glm::dvec3(v[i]);
            p.angular += m * glm::cross(glm::dvec3(x[i]) - c, glm::dvec3(v[i]));
        }
        return p;
    };
    const Momentum before = momenta(model.positions, model.velocities);
    GpuRun gpu(ctx(), model, scene.solver);
    const uint32_t frames = 120;
    gpu.frames(frames);
    const Momentum after = momenta(gpu.positions(), gpu.velocities());
    const double wh = glm::length(spin) * scene.solver.timeStep / scene.solver.substeps;
    double theta = std::atan(wh);
    for (uint32_t k = 1; k < frames * scene.solver.substeps; ++k)
        theta = std::atan(std::sin(theta) / (2.0 - std::cos(theta)));
    const double predicted = std::sin(theta) / wh;
    const double kept = glm::length(after.angular) / glm::length(before.angular);
    const double linearDrift = glm::length(after.linear - before.linear) / glm::length(before.linear);
    const double axisTurn = std::acos(std::min(1.0, glm::dot(glm::normalize(after.angular), glm::normalize(before.angular))));
    std::cout << fmt::format("[shape matching] rigid jelly spinning at |w| = {:.2f} rad/s for 2 s (w h = {:.4f}): spin "
                             "kept {:.5f} (closed form {:.5f}), axis turned {:.2e} rad, |dP|/|P| {:.2e}, distance from "
                             "the rigid shape {:.2e} m\n",
                             glm::length(spin), wh, kept, predicted, axisTurn, linearDrift,
                             fit(model, gpu.positions()).rigidError);
    EXPECT_NEAR(kept, predicted, 1e-3);
    EXPECT_LT(axisTurn, 1e-3);
    // The centre is rounded to a float near 1 m (6e-8 m) every substep, and
    // the whole body with it: a random walk of 6e-8 m / h per substep, ~3e-4
    // m/s after 480 of them against 0.46 m/s.
    EXPECT_LT(linearDrift, 2e-3);
}

// scenes/jelly.json (three jellies, rigid and linear modes, one mixed with
// stretch constraints, falling onto a mesh torus and the ground) against
// the double-precision reference, which runs the same passes in the same
// order. Measured: 3e-5 m after 10 frames of fall, 1e-4 m after 20; where
// the jellies land a particle's contact is decided a substep apart on the
// two (float against double rounding at the margin), a spike of up to
// 3.6e-3 m for a few frames that the next frames pull back to 3e-4 m. A
// missing or misordered pass moves particles by centimetres: 5e-3 m.
TEST_F(ShapeMatching, MatchesTheReference) {
    const Scene scene = loadScene(sourcePath("scenes/jelly.json"));
    const SimModel model = buildModel(scene);
    ASSERT_EQ(model.pbd.shapeMatchGroups.size(), 3u);
    GpuRun gpu(ctx(), model, scene.solver);
    PbdReference cpu(model);
    double worst = 0.0;
    std::string trace;
    for (uint32_t frame = 1; frame <= 60; ++frame) {
        if (frame == 60) trace += "\n";
        gpu.frames(1);
        cpu.step(scene.solver);
        const std::vector<glm::vec4> x = gpu.positions();
        double e = 0.0;
        for (uint32_t i = 0; i < cpu.particleCount(); ++i)
            e = std::max(e, glm::length(glm::dvec3(x[i]) - cpu.positions()[i]));
        worst = std::max(worst, e);
        trace += fmt::format(" {}: {:.2e}", frame, e);
    }
    std::cout << fmt::format("[shape matching] jelly.json, GPU against the reference, largest difference [m] by "
                             "frame:{}\n",
                             trace);
    EXPECT_LT(worst, 5e-3);
}

// The workgroup path runs the same projection on the shared positions with
// the same tree of sums (its workgroup size is the per-group pass's): the
// two paths give the same bits.
TEST_F(ShapeMatching, BothPathsGiveTheSameBits) {
    Scene scene = loadScene(sourcePath("scenes/jelly.json"));
    const SimModel model = buildModel(scene);
    SolverSettings workgroup = scene.solver, perColour = scene.solver;
    workgroup.pbd.path = PbdPath::Workgroup;
    perColour.pbd.path = PbdPath::PerColour;
    GpuRun a(ctx(), model, workgroup);
    GpuRun b(ctx(), model, perColour);
    a.frames(60);
    b.frames(60);
    const std::vector<glm::vec4> xa = a.positions(), xb = b.positions();
    const std::vector<glm::vec4> va = a.velocities(), vb = b.velocities();
    double worst = 0.0;
    for (size_t i = 0; i < xa.size(); ++i) worst = std::max(worst, double(glm::length(xa[i] - xb[i])));
    std::cout << fmt::format("[shape matching] jelly.json, 60 frames: workgroup against per-colour path {:.3g} m\n",
                             worst);
    EXPECT_EQ(0, std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(glm::vec4)));
    EXPECT_EQ(0, std::memcmp(va.data(), vb.data(), va.size() * sizeof(glm::vec4)));
}

}  // namespace
}  // namespace vksim::test
