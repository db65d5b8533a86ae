// Splitting torn vertices together with contacts between objects
// (docs/physics.md §1 "Tearing", §14): the spare particles are contact
// particles, touching nothing until a split takes one; a split particle
// takes its vertex's rest position (the rest-shape rule keeps it from its
// twin) and collides. The pulled sheet of the tearing tests, with self
// contact, falls under gravity onto a pinned sheet while it tears and its
// vertices split. Each test prints what it measured.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "contacts/contact_model.h"
#include "contacts/contact_stage.h"
#include "gpu_harness.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_solver.h"
#include "solvers/pbd/pbd_splitting.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/sim_model.h"
#include "torn_sheet.h"

namespace vksim::test {
namespace {

class TearingSplitContacts : public GpuTest {};

constexpr uint32_t kSplitFrames = 20;
constexpr float kSheetThickness = 0.04f;  // 0.4 of the torn sheet's 0.1 m spacing
// The floor's particles are 0.1 m apart too: with t_sheet + t_floor = 0.09 m
// past half their diagonal (0.0707 m), a particle of the sheet rests at
// least sqrt(0.09^2 - 2 x 0.05^2) = 0.056 m above the floor's plane (over
// the middle of a cell), and cannot pass between its particles.
constexpr float kFloorThickness = 0.05f;
constexpr float kFloorDrop = 0.1f;  // [m] below the torn sheet
constexpr double kRestHeight = 0.0557;

// The torn sheet (object 0, 60 spare particles, self contact, no
// friction so that it slides apart on the floor) above a pinned 11 x 25
// sheet 0.1 m apart (object 1), wide enough for the pulled sheet's ends
// (about 1 m from the middle after the frames), under gravity.
Scene shreddedOnAFloor() {
    Scene scene = tornSheet(PbdPath::PerColour, float(kTornSheetVertices));
    scene.solver.gravity = glm::vec3(0.0f, -9.81f, 0.0f);
    ClothObject& sheet = scene.cloths[0];
    sheet.contacts = {.enabled = true, .thickness = kSheetThickness, .self = true, .friction = 0.0f};
    ClothObject floor = scene.cloths[0];
    floor.name = "floor";
    floor.grid.resolution = {11, 25};
    floor.grid.size = {1.0f, 2.4f};
    floor.position.y -= kFloorDrop;
    floor.tearing = {};
    floor.contacts = {.enabled = true, .thickness = kFloorThickness, .self = false, .friction = 0.0f};
    for (uint32_t row = 0; row < floor.grid.resolution.y; ++row)
        for (uint32_t column = 0; column < floor.grid.resolution.x; ++column) floor.pinned.emplace_back(column, row);
    scene.cloths.push_back(floor);
    return scene;
}

// The torn sheet's pull (pullTornSheet), the floor at rest.
void pullSheet(GpuRun& run, const SimModel& model) {
    std::vector<glm::vec3> v(model.particleCount(), glm::vec3(0.0f));
    const ObjectRange& sheet = model.objects[0];
    for (uint32_t i = sheet.firstParticle; i < sheet.firstParticle + sheet.particleCount; ++i)
        v[i] = glm::vec3(0.0f, 0.0f, kTornSheetPullRate * model.positions[i].z);
    run.stepper().particles().writeVelocities(v);
}

// The torn sheet splits as it tears on the floor. Its spare contact records
// on the GPU are followSplits' on the CPU from the rows read back, bit for
// bit (rest positions and flags); every particle of the sheet, the split
// ones with them, stays above the floor by nearly the contact distance (it
// would fall through without contacts); some split particle has neighbours
// in the last detection's lists, no unused spare particle has any; and no
// two particles of the sheet that the rest-shape rule lets touch come
// closer than 0.9 of their contact distance (2t).
TEST_F(TearingSplitContacts, SplitParticlesFollowTheirVerticesAndCollide) {
    const Scene scene = shreddedOnAFloor();
    const SimModel model = buildModel(scene);
    GpuRun run(ctx(), model, scene.solver);
    pullSheet(run, model);
    run.frames(kSplitFrames);

    const ContactStage& stage = *run.stepper().contacts();
    const PbdSplitting& splitting = *run.stepper().solver<PbdSolver>().tearing()->splitting();
    const glm::uvec3 fill = splitting.readFill()[0];
    std::vector<uint32_t> rows = run.stepper().particles().adjacencyRows().downloadArray<uint32_t>();
    rows.resize(model.particleCount());
    // The records follow the rows before each detection: step the rows the
    // last frame's split wrote into one more detection.
    run.frames(1);
    std::vector<uint32_t> rowsNow = run.stepper().particles().adjacencyRows().downloadArray<uint32_t>();
    rowsNow.resize(model.particleCount());
    ContactModel expected = stage.model();
    followSplits(expected, rows);
    std::vector<gpu::ContactParticle> records = stage.particles().downloadArray<gpu::ContactParticle>();
    records.resize(expected.count());
    uint32_t differ = 0, used = 0, spares = 0;
    for (uint32_t k = 0; k < expected.count(); ++k) {
        const gpu::ContactParticle &gpu = records[k], &cpu = expected.particles[k];
        if ((cpu.flags & gpu::kContactSpare) == 0) continue;
        ++spares;
        if ((cpu.flags & gpu::kContactUnused) == 0) ++used;
        const bool same = gpu.flags == cpu.flags &&
                          ((cpu.flags & gpu::kContactUnused) != 0 || (gpu.rest.x == cpu.rest.x &&
                                                                       gpu.rest.y == cpu.rest.y &&
                                                                       gpu.rest.z == cpu.rest.z));
        differ += same ? 0 : 1;
    }

    const ContactLists lists = stage.readLists();
    uint32_t splitWithNeighbours = 0, unusedWithNeighbours = 0;
    for (uint32_t k = 0; k < expected.count(); ++k) {
        const uint32_t flags = expected.particles[k].flags;
        if ((flags & gpu::kContactSpare) == 0) continue;
        const bool unused = (flags & gpu::kContactUnused) != 0;
        if (unused && lists.counts[k] > 0) ++unusedWithNeighbours;
        if (!unused && lists.counts[k] > 0) ++splitWithNeighbours;
    }

    const std::vector<glm::vec4> x = run.positions();
    const ObjectRange& sheet = model.objects[0];
    const double floorY = double(model.positions[model.objects[1].firstParticle].y);
    double lowest = std::numeric_limits<double>::max(), lowestSplit = lowest;
    for (uint32_t i = sheet.firstParticle; i < sheet.firstParticle + sheet.particleCount; ++i) {
        const bool spare = i >= sheet.firstParticle + sheet.particleCount - sheet.spareParticles;
        if (spare && rowsNow[i] == i) continue;  // no split took it
        const double height = double(x[i].y) - floorY;
        lowest = std::min(lowest, height);
        if (spare) lowestSplit = std::min(lowestSplit, height);
    }
    // The sheet's closest pair that the rest-shape rule lets touch.
    ContactModel now = stage.model();
    followSplits(now, rowsNow);
    double closest = std::numeric_limits<double>::max();
    for (uint32_t k = 0; k < now.count(); ++k)
        for (uint32_t l = k + 1; l < now.count(); ++l) {
            const gpu::ContactParticle &a = now.particles[k], &b = now.particles[l];
            if (a.object != 0 || b.object != 0 || ((a.flags | b.flags) & gpu::kContactUnused) != 0) continue;
            if (glm::length(glm::vec3(a.rest) - glm::vec3(b.rest)) < a.rest.w + b.rest.w) continue;
            closest = std::min(closest, double(glm::length(glm::vec3(x[a.particle]) - glm::vec3(x[b.particle]))));
        }
    const gpu::ContactStats stats = stage.readStats();
    std::cout << fmt::format(
        "[split contacts] after {} frames: {} of {} spare particles taken ({} vertices refused); spare records "
        "differing from followSplits: {}; {} split particles in the last lists, {} unused ones; lowest particle "
        "{:.4f} m above the floor (split ones {:.4f}; at rest at least {:.4f}); closest pair of the sheet {:.3f} of "
        "2t; contact overflow substeps {}\n",
        kSplitFrames + 1, fill.x, spares, fill.y, differ, splitWithNeighbours, unusedWithNeighbours, lowest,
        lowestSplit, kRestHeight, closest / (2.0 * kSheetThickness), stats.overflowSubsteps);
    EXPECT_GT(fill.x, 0u);
    EXPECT_EQ(used, fill.x);
    EXPECT_EQ(differ, 0u);
    EXPECT_GT(splitWithNeighbours, 0u);
    EXPECT_EQ(unusedWithNeighbours, 0u);
    // Above the floor by 0.9 of the resting height over a cell's middle:
    // the PBD iterations leave a contact short of its distance by a little.
    EXPECT_GT(lowest, 0.9 * kRestHeight);
    EXPECT_GT(lowestSplit, 0.9 * kRestHeight);
    EXPECT_GT(closest, 0.9 * 2.0 * kSheetThickness);
    EXPECT_EQ(stats.overflowSubsteps, 0u);
}

}  // namespace
}  // namespace vksim::test
