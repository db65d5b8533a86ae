// vksim_contact_check: runs a scene with contacts between objects headless
// and checks, every K frames, that no surfaces pass through each other
// (docs/physics.md §14; docs/testing.md, "Contacts between objects"):
// - the triangle pairs that share no vertex and intersect, counted exactly
//   in double (geometry/triangle_intersection.h): between objects with
//   contacts, and within an object with "self". It must be 0 at every sample;
// - the smallest distance between two contact particles the contacts act on
//   (not neighbours by the rest-shape rule), as a share of their contact
//   distance t_a + t_b. It must stay above kClosestShare.
// scripts/contact_checks.sh runs it on the shipped contact scenes for 300
// frames; CTest on a small one (contact_check_short).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "contacts/contact_model.h"
#include "geometry/triangle_intersection.h"
#include "run/frame_loop.h"
#include "scene/scene_loader.h"
#include "vk/context.h"
#include "world/device_limits.h"
#include "world/world.h"

namespace vksim {
namespace {

// Half the contact distance: each surface keeps at least its own thickness
// from the other's particles. What the iterations leave unsolved at an
// impact stays well above it (docs/physics.md §14 measures 0.91 to 0.98).
constexpr double kClosestShare = 0.5;

struct Sample {
    uint64_t frame = 0;
    SurfaceIntersections intersections;
    double closestShare = std::numeric_limits<double>::infinity();
    std::vector<std::string> pairs;  // the first intersecting triangles, in words
};

// The triangles the check covers: those of objects with contacts, as the
// GPU holds them now (`surface`: a tearing cloth's re-indexed or dropped
// ones, the dropped ones left out); a pair within one object counts only
// when it has "self". `contacts` has followed the splits (followSplits).
Sample check(const SimModel& model, const ContactModel& contacts, const std::vector<glm::vec4>& x,
             const std::vector<uint32_t>& surface) {
    Sample sample;
    std::vector<glm::dvec3> p;
    p.reserve(x.size());
    for (const glm::vec4& v : x) p.emplace_back(glm::vec3(v));
    std::vector<glm::uvec3> triangles;
    std::vector<uint32_t> groups;
    for (uint32_t o = 0; o < model.objects.size(); ++o) {
        const ObjectRange& object = model.objects[o];
        if (!object.contacts.enabled) continue;
        for (uint32_t t = object.firstTriangle; t < object.firstTriangle + object.triangleCount; ++t) {
            const glm::uvec3 corners(surface[3 * t], surface[3 * t + 1], surface[3 * t + 2]);
            if (corners.x == corners.y || corners.y == corners.z || corners.x == corners.z) continue;  // dropped
            triangles.push_back(corners);
            groups.push_back(object.contacts.self ? kEveryPair : o);
        }
    }
    sample.intersections = countSurfaceIntersections(p, triangles, groups);
    for (const glm::uvec2& pair : sample.intersections.first) {
        const glm::uvec3 a = triangles[pair.x], b = triangles[pair.y];
        double closest = std::numeric_limits<double>::infinity();
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) closest = std::min(closest, glm::length(p[a[i]] - p[b[j]]));
        double longest = 0.0;
        for (const glm::uvec3& t : {a, b})
            for (int i = 0; i < 3; ++i) longest = std::max(longest, glm::length(p[t[i]] - p[t[(i + 1) % 3]]));
        sample.pairs.push_back(
            fmt::format("particles {} {} {} and {} {} {}: closest vertices {:.4f} m apart, longest "
                        "edge {:.4f} m",
                        a.x, a.y, a.z, b.x, b.y, b.z, closest, longest));
    }

    // The pairs the contacts act on (contact_pairs.comp's rules, without the reach).
    for (uint32_t k = 0; k < contacts.count(); ++k)
        for (uint32_t l = k + 1; l < contacts.count(); ++l) {
            const gpu::ContactParticle &a = contacts.particles[k], &b = contacts.particles[l];
            const double distance = double(a.rest.w) + double(b.rest.w);
            if (((a.flags | b.flags) & gpu::kContactUnused) != 0) continue;  // a spare particle no split took
            if (a.object == b.object) {
                if ((a.flags & gpu::kContactSelf) == 0) continue;
                const glm::dvec3 rest = glm::dvec3(glm::vec3(a.rest)) - glm::dvec3(glm::vec3(b.rest));
                if (glm::dot(rest, rest) < distance * distance) continue;
            }
            sample.closestShare = std::min(sample.closestShare, glm::length(p[a.particle] - p[b.particle]) / distance);
        }
    return sample;
}

int run(int argc, char** argv) {
    std::string scenePath;
    uint64_t frames = 300;
    uint32_t every = 30;
    bool validate = false;
    size_t list = 0;
    CLI::App cli{"vksim_contact_check: no surface through another, checked every K frames"};
    cli.add_option("scene", scenePath, "scene file with contacts")->required()->check(CLI::ExistingFile);
    cli.add_option("--frames", frames, "frames to run")->check(CLI::Range(uint64_t{1}, uint64_t{1000000}));
    cli.add_option("--every", every, "check every K frames")->check(CLI::Range(1u, 1000000u));
    cli.add_flag("--validate", validate, "Khronos validation and synchronization validation");
    cli.add_option("--list", list, "print up to N intersecting triangle pairs at each check")
        ->check(CLI::Range(size_t{0}, size_t{16}));
    CLI11_PARSE(cli, argc, argv);

    const Scene scene = loadScene(scenePath);
    ContextOptions options;
    options.validation = validate;
    VulkanContext ctx(options);
    requireFitsDevice(ctx, scene);
    World sim(ctx, scene, kHeadlessFramesInFlight);
    const SimModel& model = sim.model();
    ContactModel contacts = buildContactModel(model, {model.pbd.firstParticle, model.pbd.particleCount});
    if (contacts.empty()) {
        fmt::print(stderr, "{}: no object has a \"contacts\" block\n", scenePath);
        return 1;
    }
    fmt::print("{}: {} contact particles, {} frames on {}, checked every {}\n", scenePath, contacts.count(), frames,
               ctx.deviceInfo().name, every);
    bool ok = true;
    double closest = std::numeric_limits<double>::infinity();
    uint64_t done = 0, worstIntersections = 0;
    while (done < frames) {
        const uint64_t step = std::min<uint64_t>(every, frames - done);
        done += simulateFrames(ctx, sim, step);
        std::vector<uint32_t> rows = sim.particles().adjacencyRows().downloadArray<uint32_t>();
        rows.resize(model.particleCount());
        followSplits(contacts, rows);
        std::vector<uint32_t> surface = sim.particles().triangleIndices().downloadArray<uint32_t>();
        surface.resize(model.triangles.size());
        const Sample s = check(model, contacts, sim.particles().readPositions(), surface);
        closest = std::min(closest, s.closestShare);
        worstIntersections = std::max(worstIntersections, s.intersections.intersecting);
        fmt::print(
            "frame {:>5}: {} intersecting triangle pairs (of {} tested); closest pair {:.3f} of its contact "
            "distance\n",
            done, s.intersections.intersecting, s.intersections.tested, s.closestShare);
        for (size_t i = 0; i < std::min<size_t>(list, s.pairs.size()); ++i) fmt::print("  {}\n", s.pairs[i]);
        std::fflush(stdout);
    }
    const gpu::ContactStats stats = sim.contacts()->readStats();
    fmt::print("contacts: at most {} list entries in a substep, {} colours; {} substeps overflowed\n",
               stats.mostEntries, stats.mostColours, stats.overflowSubsteps);
    const auto verdict = [&](bool pass, const std::string& line) {
        fmt::print("{} {}\n", pass ? "ok  " : "FAIL", line);
        ok = ok && pass;
    };
    verdict(worstIntersections == 0,
            fmt::format("intersecting triangle pairs: at most {} at a check (must be 0)", worstIntersections));
    verdict(closest >= kClosestShare,
            fmt::format("closest contact pair: {:.3f} of its contact distance (at least {})", closest, kClosestShare));
    if (validate && ctx.validationCounts().total() > 0) {
        fmt::print("FAIL validation: {} messages\n", ctx.validationCounts().total());
        return 1;
    }
    return ok ? 0 : 1;
}

}  // namespace
}  // namespace vksim

int main(int argc, char** argv) {
    try {
        return vksim::run(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vksim_contact_check: %s\n", e.what());
        return 1;
    }
}
