// How the two contact solves converge per iteration (docs/physics.md §14,
// "The two compared"): the GPU colours the contact constraints and runs
// Gauss-Seidel over the colours; the alternative is FleX's Jacobi average.
// Measured on the double-precision CPU reference, which runs the GPU's
// detection rules, colours and order (the GPU follows it to 1e-7 m,
// Contacts.GpuMatchesTheDoublePrecisionReference), so the curves are the
// algorithms', not float rounding's.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <vector>

#include <fmt/format.h>

#include "contacts/contact_model.h"
#include "contacts/contact_reference.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_reference.h"

namespace vksim {
namespace {

ClothObject contactCloth(const std::string& name, uint32_t side, glm::vec3 position) {
    ClothObject cloth;
    cloth.name = name;
    cloth.grid.resolution = {side, side};
    cloth.grid.size = glm::vec2(0.01f * float(side - 1));
    cloth.position = position;
    cloth.mass = 0.05f;
    cloth.contacts = {.enabled = true, .thickness = 0.01f, .self = false, .friction = 0.3f};
    return cloth;
}

// How far the contacts are from satisfied at the reference's positions:
// the mean and the largest depth D - |x_k - x_l| over the touching pairs,
// relative to D = t_k + t_l.
struct ContactViolation {
    double mean = 0.0;
    double largest = 0.0;
};

ContactViolation violation(const ContactModel& contacts, const PbdReference& reference) {
    std::vector<glm::vec4> x;
    for (const glm::dvec3& p : reference.positions()) x.emplace_back(glm::vec3(p), 1.0f);
    const std::vector<std::vector<uint32_t>> neighbours = bruteForceNeighbours(contacts, x);
    ContactViolation v;
    uint32_t touching = 0;
    for (uint32_t k = 0; k < contacts.count(); ++k)
        for (const uint32_t l : neighbours[k]) {
            if (l <= k) continue;
            const gpu::ContactParticle &a = contacts.particles[k], &b = contacts.particles[l];
            const double distance = double(a.rest.w) + double(b.rest.w);
            const double depth = distance - glm::length(reference.positions()[a.particle] -
                                                        reference.positions()[b.particle]);
            if (depth <= 0.0) continue;
            ++touching;
            v.mean += depth / distance;
            v.largest = std::max(v.largest, depth / distance);
        }
    if (touching > 0) v.mean /= touching;
    return v;
}

// Two 12 x 12 cloths, t = the vertex spacing (a particle touches about a
// dozen of the other cloth's), the upper one dropped 0.1 m onto the lower
// on the ground; from the state at frame 10, in the middle of the impact,
// one substep of h = 1/240 s with k = 1..16 iterations, by each solve.
// Gauss-Seidel over the colours reaches what the Jacobi average reaches in
// 16 iterations in fewer than half as many, and ends below it.
TEST(ContactSolves, ColoursConvergeFasterThanTheJacobiAverage) {
    Scene scene;
    scene.name = "two cloths";
    scene.cloths.push_back(contactCloth("lower", 12, {0.0f, 0.02f, 0.0f}));
    scene.cloths.push_back(contactCloth("upper", 12, {0.02f, 0.12f, 0.015f}));
    ColliderDesc ground;
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.5f;
    scene.colliders = {ground};
    SimModel model = buildModel(scene);
    const ContactModel contacts = buildContactModel(model, {model.pbd.firstParticle, model.pbd.particleCount});

    SolverSettings settings;
    settings.substeps = 4;
    settings.pbd.iterations = 8;
    settings.pbd.path = PbdPath::PerColour;
    settings.contactSolve = ContactSolve::Colours;
    PbdReference approach(model);
    for (uint32_t frame = 0; frame < 10; ++frame) approach.step(settings);
    for (uint32_t i = 0; i < model.particleCount(); ++i) {
        model.positions[i] = glm::vec4(glm::vec3(approach.positions()[i]), model.positions[i].w);
        model.velocities[i] = glm::vec4(glm::vec3(approach.velocities()[i]), 0.0f);
    }

    settings.timeStep = 1.0f / 240.0f;
    settings.substeps = 1;
    const uint32_t K = 16;
    std::vector<ContactViolation> curves[2];
    for (const ContactSolve solve : {ContactSolve::Colours, ContactSolve::Jacobi}) {
        settings.contactSolve = solve;
        for (uint32_t k = 1; k <= K; ++k) {
            settings.pbd.iterations = k;
            PbdReference reference(model);
            reference.step(settings);
            curves[static_cast<size_t>(solve)].push_back(violation(contacts, reference));
        }
    }
    const std::vector<ContactViolation>& colours = curves[static_cast<size_t>(ContactSolve::Colours)];
    const std::vector<ContactViolation>& jacobi = curves[static_cast<size_t>(ContactSolve::Jacobi)];
    std::cout << "[contact solves] mean / largest depth over D per iteration, colours | Jacobi:";
    for (uint32_t k = 0; k < K; ++k)
        std::cout << fmt::format(" {}: {:.2e}/{:.2e} | {:.2e}/{:.2e};", k + 1, colours[k].mean, colours[k].largest,
                                 jacobi[k].mean, jacobi[k].largest);
    std::cout << "\n";
    ASSERT_GT(jacobi.front().largest, 0.0) << "no contact is violated after one iteration";
    // Iterations the colours need to reach the Jacobi average's 16th.
    uint32_t needed = K + 1;
    for (uint32_t k = 0; k < K && needed > K; ++k)
        if (colours[k].largest <= jacobi.back().largest) needed = k + 1;
    std::cout << fmt::format("[contact solves] the colours reach the Jacobi average's 16-iteration depth in {}\n",
                             needed);
    EXPECT_LE(2 * needed, K);
    EXPECT_LT(colours.back().largest, jacobi.back().largest);
    EXPECT_LT(colours.back().mean, jacobi.back().mean);
}

}  // namespace
}  // namespace vksim
