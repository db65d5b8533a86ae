// The contact detection's lists (contacts/contact_detection.h) against a
// brute-force O(n^2) search in double on random point sets: the same
// neighbours for every particle, exactly; the constraints' colours a valid
// colouring, and the CPU reference's; and the same bits in two runs. The
// vertex-triangle and edge-edge detections (contacts/triangle_detection.h,
// edge_detection.h) likewise on random triangles.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <span>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "contacts/contact_reference.h"
#include "contacts/contact_reference_solve.h"
#include "contacts/contact_stage.h"
#include "geometry/shared_math.h"
#include "gpu_harness.h"

namespace vksim::test {
namespace {

struct PointSet {
    SharedModel model;
    std::vector<glm::vec4> current;  // the working positions the detection reads
};

// `objects` objects of `perObject` particles in a cube of `extent` metres at
// `centre`; object o has thickness t[o] and self contact on odd o, and one
// object in four has no contacts. The rest shape is the initial positions;
// the current ones move each particle by up to `jitter`.
PointSet randomPoints(uint32_t objects, uint32_t perObject, float extent, glm::vec3 centre, float jitter,
                      uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-0.5f, 0.5f);
    PointSet set;
    for (uint32_t o = 0; o < objects; ++o) {
        ObjectRange object;
        object.name = "object " + std::to_string(o);
        object.firstParticle = set.model.particleCount();
        object.particleCount = perObject;
        object.contacts = {
            .enabled = o % 4 != 3, .thickness = 0.004f + 0.002f * float(o % 3), .self = o % 2 == 1, .friction = 0.3f};
        for (uint32_t i = 0; i < perObject; ++i) {
            const glm::vec3 rest = centre + extent * glm::vec3(unit(rng), unit(rng), unit(rng));
            // Every tenth particle pinned, and some pinned pairs, which are never neighbours.
            const float w = i % 10 == 0 ? 0.0f : 1.0f;
            set.model.positions.emplace_back(rest, w);
            set.model.velocities.emplace_back(0.0f);
            set.current.emplace_back(rest + jitter * glm::vec3(unit(rng), unit(rng), unit(rng)), w);
        }
        set.model.objects.push_back(object);
    }
    return set;
}

// `one` `copies` times over, in the same place, each copy its own contact
// group (ObjectRange::copy), laid out as a batch lays out copies of one
// solver's objects: copy after copy (scene/scene_copies.h).
PointSet copiesOf(const PointSet& one, uint32_t copies) {
    PointSet set;
    for (uint32_t c = 0; c < copies; ++c) {
        for (ObjectRange object : one.model.objects) {
            object.firstParticle += set.model.particleCount();
            object.firstTriangle += set.model.triangleCount();
            object.copy = c;
            set.model.objects.push_back(object);
        }
        for (const uint32_t i : one.model.triangles) set.model.triangles.push_back(i + set.model.particleCount());
        set.model.positions.insert(set.model.positions.end(), one.model.positions.begin(), one.model.positions.end());
        set.model.velocities.insert(set.model.velocities.end(), one.model.velocities.begin(),
                                    one.model.velocities.end());
        set.current.insert(set.current.end(), one.current.begin(), one.current.end());
    }
    return set;
}

// `objects` objects of `groups` pairs of triangles (a, b, c) and (b, c, d),
// each pair's corners in a cube of `spread` metres (2 cm unless said) around
// a random point of a cube of `extent` metres at `centre`; thickness and
// self contact as randomPoints', every object but the last offering its
// triangles. The current positions move each particle by up to `jitter`;
// every tenth is pinned, and some triangles wholly.
PointSet randomTriangles(uint32_t objects, uint32_t groups, float extent, glm::vec3 centre, float jitter,
                         uint32_t seed, float spread = 0.02f) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-0.5f, 0.5f);
    PointSet set;
    for (uint32_t o = 0; o < objects; ++o) {
        ObjectRange object;
        object.name = "mesh " + std::to_string(o);
        object.firstParticle = set.model.particleCount();
        object.particleCount = 4 * groups;
        object.firstTriangle = set.model.triangleCount();
        object.triangleCount = 2 * groups;
        object.contacts = {.enabled = true,
                           .thickness = 0.004f + 0.002f * float(o % 3),
                           .self = o % 2 == 1,
                           .friction = 0.3f,
                           .triangles = o + 1 < objects};
        for (uint32_t g = 0; g < groups; ++g) {
            const glm::vec3 around = centre + extent * glm::vec3(unit(rng), unit(rng), unit(rng));
            const uint32_t first = object.firstParticle + 4 * g;
            for (uint32_t i = 0; i < 4; ++i) {
                const glm::vec3 rest = around + spread * glm::vec3(unit(rng), unit(rng), unit(rng));
                const float w = (first + i) % 10 == 0 || g % 17 == 0 ? 0.0f : 1.0f;
                set.model.positions.emplace_back(rest, w);
                set.model.velocities.emplace_back(0.0f);
                set.current.emplace_back(rest + jitter * glm::vec3(unit(rng), unit(rng), unit(rng)), w);
            }
            set.model.triangles.insert(set.model.triangles.end(),
                                       {first, first + 1, first + 2, first + 1, first + 2, first + 3});
        }
        set.model.objects.push_back(object);
    }
    return set;
}

// Two fine cloths offering their triangles, 4 mm thick: a lower one of
// 8 x 8 vertices 6 mm apart in the plane y = 0, an upper one of 5 x 5
// 10 mm above it (between the contact distance 2t and the detection
// distance 3t) and shifted by half a spacing; no self contact, whose
// rest-shape rule a grid 6 mm apart would decide at exactly 3t (two
// spacings) for many pairs, where float and double may differ. The current
// positions move each particle by up to 1 mm: edges (at most 8.5 mm, and
// the jitter: 10.2 mm) shorter than three thicknesses (12 mm), so the
// surface grid's cells come out the pairs' (surface_cell.comp). Every
// tenth particle is pinned.
PointSet fineCloths(uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> unit(-0.5f, 0.5f);
    const float spacing = 0.006f;
    PointSet set;
    for (const uint32_t side : {8u, 5u}) {
        const bool upper = side == 5u;
        const glm::vec3 origin = upper ? glm::vec3(0.5f * spacing, 0.01f, 0.5f * spacing + 0.01f) : glm::vec3(0.0f);
        ObjectRange object;
        object.name = upper ? "upper cloth" : "lower cloth";
        object.firstParticle = set.model.particleCount();
        object.particleCount = side * side;
        object.firstTriangle = set.model.triangleCount();
        object.triangleCount = 2 * (side - 1) * (side - 1);
        object.contacts = {.enabled = true, .thickness = 0.004f, .self = false, .friction = 0.3f, .triangles = true};
        for (uint32_t i = 0; i < side; ++i)
            for (uint32_t j = 0; j < side; ++j) {
                const glm::vec3 rest = origin + spacing * glm::vec3(float(i), 0.0f, float(j));
                const float w = (object.firstParticle + side * i + j) % 10 == 0 ? 0.0f : 1.0f;
                set.model.positions.emplace_back(rest, w);
                set.model.velocities.emplace_back(0.0f);
                set.current.emplace_back(rest + 0.001f * glm::vec3(unit(rng), unit(rng), unit(rng)), w);
            }
        for (uint32_t i = 0; i + 1 < side; ++i)
            for (uint32_t j = 0; j + 1 < side; ++j) {
                const uint32_t a = object.firstParticle + side * i + j, b = a + 1, c = a + side, d = c + 1;
                set.model.triangles.insert(set.model.triangles.end(), {a, b, c, b, d, c});
            }
        set.model.objects.push_back(object);
    }
    return set;
}

// A contact stage on a point set, with what recording its detection needs.
class DetectionRun {
public:
    DetectionRun(VulkanContext& ctx, const PointSet& set)
        : ctx_(ctx),
          stage_(ctx, set.model, ParticleRange{0, set.model.particleCount()}),
          timer_(ctx, 1, declareAndCount()),
          p_(makeStorageBuffer(ctx, std::span<const glm::vec4>(set.current), "test working positions")) {
        plan_.registerPasses(timer_);
    }
    const ContactStage& stage() const { return stage_; }
    // One detection; its lists, read back.
    ContactLists detect() {
        ctx_.submitAndWait([&](VkCommandBuffer cmd) {
            timer_.beginFrame(cmd, 0);
            StepRecorder rec(cmd, timer_, plan_);
            stage_.recordDetect(rec, p_, ContactSolve::Colours);
            timer_.endFrame(cmd);
        });
        timer_.collect(0);
        return stage_.readLists();
    }

private:
    uint32_t declareAndCount() {
        stage_.declarePasses(plan_, stage_.model().afterSolve);
        StepRecorder counter(plan_);
        stage_.recordDetect(counter, GpuBuffer(), ContactSolve::Colours);
        return counter.runs();
    }

    VulkanContext& ctx_;
    ContactStage stage_;
    StepPlan plan_;
    GpuTimer timer_;
    GpuBuffer p_;
};

class ContactDetectionTest : public GpuTest {
protected:
    void expectBruteForce(const PointSet& set, const char* label) {
        DetectionRun run(ctx(), set);
        const ContactLists lists = run.detect();
        const ContactModel& model = run.stage().model();
        const std::vector<std::vector<uint32_t>> expected = bruteForceNeighbours(model, set.current);

        uint64_t entries = 0, ambiguous = 0, most = 0;
        for (uint32_t k = 0; k < model.count(); ++k) {
            ASSERT_LE(lists.counts[k], gpu::kContactsPerParticle) << label << ": the test set is too dense";
            std::vector<uint32_t> found(lists.neighbours.begin() + lists.offsets[k],
                                        lists.neighbours.begin() + lists.offsets[k] + lists.counts[k]);
            std::vector<uint32_t> want = expected[k];
            // Pairs within float rounding of the detection distance are
            // decided by float on the GPU: leave them out of both.
            auto undecided = [&](uint32_t l) {
                return std::abs(contactCandidate(model, set.current, k, l).margin) < 1e-5;
            };
            ambiguous += static_cast<uint64_t>(std::count_if(found.begin(), found.end(), undecided));
            std::erase_if(found, undecided);
            std::erase_if(want, undecided);
            std::sort(found.begin(), found.end());
            ASSERT_EQ(found, want) << label << ": contact particle " << k;
            if (k > 0) {
                ASSERT_EQ(lists.offsets[k], lists.offsets[k - 1] + lists.counts[k - 1]);
            }
            entries += lists.counts[k];
            most = std::max<uint64_t>(most, lists.counts[k]);
        }
        // The writing run took the counting run's kept neighbours where they
        // were all, and searched again where there were more: the lists
        // above hold both.
        const auto searched = static_cast<uint32_t>(std::count_if(
            lists.counts.begin(), lists.counts.end(), [](uint32_t c) { return c > gpu::kKeptNeighbours; }));
        std::cout << fmt::format(
            "[contacts] {}: {} contact particles, {} list entries (most {} per particle), "
            "{} within float rounding of the distance; {} particles searched again (more than {})\n",
            label, model.count(), entries, most, ambiguous, searched, gpu::kKeptNeighbours);
        searchedAgain_ += searched;
        writtenFromKept_ += model.count() - searched;
        EXPECT_GT(entries, model.count()) << label << ": too sparse to test anything";
        const gpu::ContactStats stats = run.stage().readStats();
        EXPECT_EQ(stats.lastEntries, entries);
        EXPECT_EQ(stats.overflowSubsteps, 0u);

        // The constraints are the pairs (k, l < k), each once, and the
        // colours a valid colouring: no two constraints of one colour share a
        // particle.
        EXPECT_EQ(lists.constraints.size(), entries / 2);
        std::vector<std::vector<uint32_t>> coloursAt(model.count());
        uint32_t colours = 0, leftover = 0;
        for (size_t c = 0; c < lists.constraints.size(); ++c) {
            const glm::uvec2 pair = lists.constraints[c];
            ASSERT_LT(pair.x, pair.y);
            ASSERT_TRUE(std::binary_search(expected[pair.x].begin(), expected[pair.x].end(), pair.y) ||
                        std::abs(contactCandidate(model, set.current, pair.x, pair.y).margin) < 1e-5);
            const uint32_t colour = lists.colours[c];
            // Past the colours, or not reached in the rounds: the Jacobi average's.
            if (colour >= gpu::kContactColours) {
                ASSERT_TRUE(colour == gpu::kLeftoverColour || colour == gpu::kNoColour);
                ++leftover;
                continue;
            }
            colours = std::max(colours, colour + 1);
            for (uint32_t k : {pair.x, pair.y}) {
                ASSERT_EQ(std::count(coloursAt[k].begin(), coloursAt[k].end(), colour), 0)
                    << label << ": two constraints of colour " << colour << " at contact particle " << k;
                coloursAt[k].push_back(colour);
            }
        }
        std::cout << fmt::format("[contacts] {}: {} constraints in {} colours, {} left to the Jacobi average\n", label,
                                 lists.constraints.size(), colours, leftover);
        EXPECT_EQ(stats.mostColours, colours);
        EXPECT_EQ(stats.leftoverConstraints, leftover);

        // The same colours as the CPU reference's colouring of the same
        // pairs (contact_reference_solve.h), when float decided every pair
        // as double does.
        if (ambiguous == 0) {
            std::vector<glm::dvec3> p;
            std::vector<double> inverseMasses;
            for (const glm::vec4& x : set.current) {
                p.emplace_back(glm::vec3(x));
                inverseMasses.push_back(x.w);
            }
            ContactReferenceSolve reference(set.model, ParticleRange{0, set.model.particleCount()});
            reference.detect(p, inverseMasses, ContactSolve::Colours);
            ASSERT_EQ(reference.constraints().size(), lists.constraints.size()) << label;
            uint32_t differ = 0;
            for (size_t c = 0; c < lists.constraints.size(); ++c) {
                const glm::uvec2 pair = lists.constraints[c];
                const auto at =
                    std::lower_bound(reference.constraints().begin(), reference.constraints().end(), pair,
                                     [](glm::uvec2 a, glm::uvec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
                ASSERT_TRUE(at != reference.constraints().end() && *at == pair) << label;
                const uint32_t cpuColour = reference.colours()[size_t(at - reference.constraints().begin())];
                const bool bothLeftover = cpuColour >= gpu::kContactColours && lists.colours[c] >= gpu::kContactColours;
                if (cpuColour != lists.colours[c] && !bothLeftover) ++differ;
            }
            std::cout << fmt::format("[contacts] {}: {} constraints coloured unlike the CPU reference\n", label,
                                     differ);
            EXPECT_EQ(differ, 0u) << label;
        }

        // The same lists and colours, bit for bit, from a second detection.
        const ContactLists again = run.detect();
        EXPECT_EQ(again.counts, lists.counts);
        EXPECT_EQ(again.offsets, lists.offsets);
        EXPECT_EQ(again.constraints, lists.constraints);
        EXPECT_EQ(again.colours, lists.colours);
        EXPECT_EQ(std::vector<uint32_t>(again.neighbours.begin(), again.neighbours.begin() + entries),
                  std::vector<uint32_t>(lists.neighbours.begin(), lists.neighbours.begin() + entries));
    }

    // Over the sets checked, particles whose lists came from the kept
    // neighbours, and whose came from a second search.
    uint32_t writtenFromKept_ = 0, searchedAgain_ = 0;
};

TEST_F(ContactDetectionTest, ListsMatchABruteForceSearch) {
    // About a dozen neighbours each; the jitter is a thickness or two, so
    // the rest-shape rule both keeps and drops pairs of one object.
    expectBruteForce(randomPoints(8, 500, 0.22f, glm::vec3(0.3f, -0.2f, 0.1f), 0.01f, 1), "dense cube");
    // Around the origin's cell corner, where cells of negative coordinates
    // meet positive ones, and far from it (large cell indices).
    expectBruteForce(randomPoints(4, 400, 0.15f, glm::vec3(0.0f), 0.004f, 2), "origin");
    expectBruteForce(randomPoints(4, 400, 0.15f, glm::vec3(-900.0f, 350.0f, 1200.0f), 0.004f, 3), "far away");
    EXPECT_GT(writtenFromKept_, 0u) << "no list was written from the kept neighbours";
    EXPECT_GT(searchedAgain_, 0u) << "no particle had more neighbours than were kept";
}

// A batch's copies lie in the same place: every particle meets its double
// in every other copy, and must not pair with it. Each copy finds the pairs
// of its world alone, in the same order, and colours them alike.
TEST_F(ContactDetectionTest, BatchCopiesFindAndColourThePairsOfTheirWorld) {
    const PointSet one = randomPoints(4, 300, 0.15f, glm::vec3(0.1f, 0.05f, 0.0f), 0.004f, 5);
    const PointSet three = copiesOf(one, 3);
    expectBruteForce(three, "three copies");  // the brute force pairs no particles of two copies
    DetectionRun alone(ctx(), one), batch(ctx(), three);
    const ContactLists a = alone.detect(), b = batch.detect();
    const uint32_t n = alone.stage().model().count();
    ASSERT_EQ(batch.stage().model().count(), 3 * n);
    const size_t m = a.constraints.size();
    ASSERT_GT(m, 0u);
    ASSERT_EQ(b.constraints.size(), 3 * m);
    for (uint32_t c = 0; c < 3; ++c) {
        for (size_t i = 0; i < m; ++i) {
            ASSERT_EQ(b.constraints[c * m + i], a.constraints[i] + glm::uvec2(c * n)) << "copy " << c;
            ASSERT_EQ(b.colours[c * m + i], a.colours[i]) << "copy " << c << ", constraint " << i;
        }
        for (uint32_t k = 0; k < n; ++k) {
            ASSERT_EQ(b.counts[c * n + k], a.counts[k]);
            for (uint32_t e = 0; e < a.counts[k]; ++e)
                ASSERT_EQ(b.neighbours[b.offsets[c * n + k] + e], a.neighbours[a.offsets[k] + e] + c * n);
        }
    }
}

// The vertex-triangle constraints against a brute-force search over every
// (triangle, particle) in double (contact_reference.h), on small triangles
// and on long-edged ones (the surface grid's cells sized by the longest
// edge, triangle_detection.h): the same particles
// for every triangle, exactly, with the closest point's weights to float
// rounding; the edge-edge constraints against one over every pair of edges:
// the same edges f > e for every edge e, exactly, their closest points as
// close as double's to float rounding; every constraint of the set (the
// pairs, then these) in its particles' incidence lists, each list's
// four-particle entries in ascending order after its pairs; the colours of
// the set a valid colouring of constraints that share any particle, and the
// CPU reference's; the same bits in two runs. The searches read the
// surface grid where its cells are larger than the pairs' (the random
// triangles, whose edges pass three thicknesses) and, its build skipped
// (no workgroup started), the pairs' grid where they are the same (the
// fine cloths): both give the brute force's lists. Both ways of writing
// them are checked: from the partners the counting run kept, and by a
// second search where a triangle or edge has more (gpu::kKeptPartners).
TEST_F(ContactDetectionTest, TriangleContactsMatchABruteForceSearch) {
    struct Case {
        const char* label;
        PointSet set;
        bool pairGrid;  // whether the surface grid's cells are the pairs'
    };
    // Over the cases, triangles and edges whose lists came from the kept
    // partners, and whose lists came from a second search.
    uint32_t writtenFromKept = 0, searchedAgain = 0;
    for (const Case& test :
         {Case{"triangles", randomTriangles(4, 100, 0.2f, glm::vec3(0.1f, 0.3f, -0.2f), 0.01f, 5), false},
          Case{"triangles far away", randomTriangles(3, 60, 0.15f, glm::vec3(-900.0f, 350.0f, 1200.0f), 0.004f, 6),
               false},
          // Edges of 0.02 to 1 m, 3 to 250 times the thickness (most 40 to 200): the
          // search boxes of the particle grid's cells would pass 4096 of them.
          Case{"long edges", randomTriangles(3, 30, 0.3f, glm::vec3(0.2f, -0.1f, 0.3f), 0.004f, 8, 0.6f), false},
          Case{"fine cloths", fineCloths(9), true}}) {
        const PointSet& set = test.set;
        DetectionRun run(ctx(), set);
        run.detect();
        const TriangleDetection* detection = run.stage().triangleDetection();
        ASSERT_NE(detection, nullptr);
        const TriangleContactLists lists = detection->read();
        const ContactModel& model = run.stage().model();
        std::cout << fmt::format("[contacts] {}: surface cells of {:.6f} m, the pairs' {:.6f} m; its build started {} "
                                 "workgroups, {}\n",
                                 test.label, lists.surfaceCell, model.cellSize, lists.surfaceGroups,
                                 lists.surfaceIndirect ? "indirectly" : "directly (past maxComputeWorkGroupCount)");
        // Under gpu_small_workgroup_count (VKSIM_MAX_WORKGROUP_COUNT=2)
        // every build passes the limit and runs directly, from bounds the
        // CPU knows, and so is never skipped; with a device's own limit,
        // indirectly, from the counts the GPU wrote.
        EXPECT_EQ(lists.surfaceIndirect, ctx().properties().limits.maxComputeWorkGroupCount[0] >= 65535u)
            << test.label;
        if (test.pairGrid) {
            EXPECT_EQ(lists.surfaceCell, model.cellSize) << test.label;
            if (lists.surfaceIndirect) {
                EXPECT_EQ(lists.surfaceGroups, 0u) << test.label << ": the surface grid was built";
            }
        } else {
            EXPECT_GT(lists.surfaceCell, model.cellSize) << test.label;
            EXPECT_GT(lists.surfaceGroups, 0u) << test.label << ": the surface grid was not built";
        }
        const std::vector<std::vector<uint32_t>> expected = bruteForceTriangleContacts(model, set.current);
        // Contact particle i's position, moved by `shift` where it is k, and inverse mass.
        auto stateOf = [&](uint32_t k, const glm::dvec3& shift) {
            return [&set, &model, k, shift](uint32_t i) {
                const glm::vec4 at = set.current[model.particles[i].particle];
                return std::pair(glm::dvec3(glm::vec3(at)) + (i == k ? shift : glm::dvec3(0.0)), double(at.w));
            };
        };
        auto candidate = [&](uint32_t t, uint32_t k) {
            return vertexTriangleContact(model, t, k, stateOf(k, glm::dvec3(0.0)));
        };
        // Float cannot decide a vertex within its rounding of the detection
        // distance, nor one within it of a boundary of the regions of the
        // closest point (face, edge, corner), where which triangle keeps
        // the constraint changes: double's decision then differs within a
        // move of the vertex by that rounding (4 float epsilons of its
        // largest coordinate, or of the detection distance near the origin).
        auto undecided = [&](uint32_t t, uint32_t k) {
            const TriangleCandidate here = candidate(t, k);
            if (std::abs(here.margin) < 1e-5) return true;
            const glm::vec3 at = glm::vec3(set.current[model.particles[k].particle]);
            const double reach = double(model.particles[k].rest.w) +
                                 double(model.particles[model.triangles[t].a].rest.w) + double(model.margin);
            const double step =
                4.0 * double(std::numeric_limits<float>::epsilon()) *
                std::max({double(std::abs(at.x)), double(std::abs(at.y)), double(std::abs(at.z)), reach});
            for (int axis = 0; axis < 3; ++axis)
                for (const double sign : {-1.0, 1.0}) {
                    glm::dvec3 shift(0.0);
                    shift[axis] = sign * step;
                    if (vertexTriangleContact(model, t, k, stateOf(k, shift)).neighbour != here.neighbour) return true;
                }
            return false;
        };
        std::vector<std::vector<uint32_t>> found(model.triangleCount());
        uint64_t ambiguous = 0;
        double weightError = 0.0;
        for (const gpu::TriangleContact& contact : lists.contacts) {
            found[contact.triangle].push_back(contact.vertex);
            const TriangleCandidate want = candidate(contact.triangle, contact.vertex);
            weightError = std::max(weightError, glm::length(glm::dvec3(glm::vec3(contact.weights)) - want.weights));
        }
        uint32_t most = 0;
        for (uint32_t t = 0; t < model.triangleCount(); ++t) {
            std::sort(found[t].begin(), found[t].end());
            std::vector<uint32_t> differ;
            std::set_symmetric_difference(found[t].begin(), found[t].end(), expected[t].begin(), expected[t].end(),
                                          std::back_inserter(differ));
            for (const uint32_t k : differ) {
                ASSERT_TRUE(undecided(t, k)) << test.label << ": triangle " << t << ", particle " << k << " found "
                                             << std::binary_search(found[t].begin(), found[t].end(), k)
                                             << " by the GPU";
                ++ambiguous;
            }
            most = std::max<uint32_t>(most, lists.counts[t]);
        }
        const auto count = static_cast<uint32_t>(lists.contacts.size());
        // Those whose closest point is on an edge (one weight 0): kept by one
        // triangle of the edge; none at a corner, the pairs' (ownsClosestPoint).
        const auto onEdges = std::count_if(lists.contacts.begin(), lists.contacts.end(), [](const auto& contact) {
            const glm::vec4 w = contact.weights;
            EXPECT_LE(int(w.x == 0.0f) + int(w.y == 0.0f) + int(w.z == 0.0f), 1) << "a constraint at a corner";
            return w.x == 0.0f || w.y == 0.0f || w.z == 0.0f;
        });
        std::cout << fmt::format(
            "[contacts] {}: {} contact particles, {} triangles, {} vertex-triangle constraints ({} on an edge, most "
            "{} per triangle), {} decided otherwise within float rounding; weights within {:.2e} of double's\n",
            test.label, model.count(), model.triangleCount(), count, onEdges, most, ambiguous, weightError);
        EXPECT_GT(count, model.triangleCount() / 4) << test.label << ": too sparse to test anything";
        EXPECT_LT(weightError, 1e-3);

        // The edge-edge constraints: each pair (e, f > e) once, by e.
        const std::vector<std::vector<uint32_t>> expectedEdges = bruteForceEdgeContacts(model, set.current);
        auto edgeCandidateOf = [&](uint32_t e, uint32_t f) {
            auto at = [&](uint32_t i) { return set.current[model.particles[i].particle]; };
            auto d = [&](uint32_t i) { return glm::dvec3(glm::vec3(at(i))); };
            const gpu::ContactEdge &a = model.edges[e], &b = model.edges[f];
            return edgeCandidate(model, e, f, d(a.a), d(a.b), d(b.a), d(b.b), at(a.a).w, at(a.b).w, at(b.a).w,
                                 at(b.b).w);
        };
        std::vector<std::vector<uint32_t>> foundEdges(model.edgeCount());
        uint64_t ambiguousEdges = 0;
        double distanceError = 0.0;  // |the GPU's closest points' distance - double's| / the detection distance
        for (const gpu::TriangleContact& contact : lists.edgeContacts) {
            ASSERT_EQ(contact.kind, gpu::kSurfaceEdgeEdge);
            // Its closest points inside both edges (contactEdgesCrossInside), as the GPU computed them.
            ASSERT_GT(std::min({contact.weights.x, contact.weights.y, contact.weights.z, contact.weights.w}), 0.0f)
                << test.label << ": edges " << contact.vertex << " and " << contact.triangle;
            const gpu::ContactEdge &a = model.edges[contact.vertex], &b = model.edges[contact.triangle];
            ASSERT_EQ(contact.particles, glm::uvec4(a.a, a.b, b.a, b.b));
            foundEdges[contact.vertex].push_back(contact.triangle);
            auto d = [&](uint32_t i) { return glm::dvec3(glm::vec3(set.current[model.particles[i].particle])); };
            const EdgeCandidate want = edgeCandidateOf(contact.vertex, contact.triangle);
            const double reach = double(model.particles[a.a].rest.w) + double(model.particles[b.a].rest.w) +
                                 double(model.margin);
            const double gpuDistance = glm::length(
                ref::contactEdgeOffset(glm::dvec4(contact.weights), d(a.a), d(a.b), d(b.a), d(b.b)));
            const double cpuDistance =
                glm::length(ref::contactEdgeOffset(want.weights, d(a.a), d(a.b), d(b.a), d(b.b)));
            distanceError = std::max(distanceError, std::abs(gpuDistance - cpuDistance) / reach);
        }
        uint32_t mostEdges = 0;
        for (uint32_t e = 0; e < model.edgeCount(); ++e) {
            std::vector<uint32_t> want = expectedEdges[e];
            // Float decides neither the detection distance to its rounding
            // nor, to 1e-3 of an edge (contactClosestOnSegments), whether a
            // closest point lies at its end, where the constraint is left
            // out: double's lists differ there (the GPU's own closest
            // points are checked against the rule above).
            auto edgeUndecided = [&](uint32_t f) {
                const EdgeCandidate near = edgeCandidateOf(e, f);
                const glm::dvec4 w = near.weights;
                return std::abs(near.margin) < 1e-5 || std::min({w[0], w[1], w[2], w[3]}) < 1e-3;
            };
            std::sort(foundEdges[e].begin(), foundEdges[e].end());
            std::vector<uint32_t> differ;
            std::set_symmetric_difference(foundEdges[e].begin(), foundEdges[e].end(), want.begin(), want.end(),
                                          std::back_inserter(differ));
            for (const uint32_t f : differ) {
                ASSERT_TRUE(edgeUndecided(f)) << test.label << ": edges " << e << " and " << f << " found "
                                              << std::binary_search(foundEdges[e].begin(), foundEdges[e].end(), f)
                                              << " by the GPU";
                ++ambiguousEdges;
            }
            mostEdges = std::max<uint32_t>(mostEdges, lists.edgeCounts[e]);
        }
        const auto edgeCount = static_cast<uint32_t>(lists.edgeContacts.size());
        std::cout << fmt::format(
            "[contacts] {}: {} edges, {} edge-edge constraints (most {} per edge), {} decided otherwise within float "
            "rounding; closest points' distance within {:.2e} of double's, of the detection distance\n",
            test.label, model.edgeCount(), edgeCount, mostEdges, ambiguousEdges, distanceError);
        // The writing run took the counting run's kept partners where they
        // were all (1 to kKeptPartners), and searched again where there were
        // more: the lists above hold both.
        auto tally = [&](std::span<const uint32_t> counts, uint32_t& kept, uint32_t& searched) {
            kept = uint32_t(std::count_if(counts.begin(), counts.end(),
                                          [](uint32_t c) { return c > 0 && c <= gpu::kKeptPartners; }));
            searched = uint32_t(
                std::count_if(counts.begin(), counts.end(), [](uint32_t c) { return c > gpu::kKeptPartners; }));
        };
        uint32_t keptTriangles = 0, searchedTriangles = 0, keptEdges = 0, searchedEdges = 0;
        tally(lists.counts, keptTriangles, searchedTriangles);
        tally(lists.edgeCounts, keptEdges, searchedEdges);
        std::cout << fmt::format(
            "[contacts] {}: written from the kept partners: {} triangles and {} edges; searched again (more than {}): "
            "{} triangles and {} edges\n",
            test.label, keptTriangles, keptEdges, gpu::kKeptPartners, searchedTriangles, searchedEdges);
        writtenFromKept += std::min(keptTriangles, keptEdges);
        searchedAgain += std::min(searchedTriangles, searchedEdges);
        EXPECT_GT(edgeCount, model.edgeCount() / 8) << test.label << ": too sparse to test anything";
        // Float's closest points on segments of a few centimetres: 1e-7 relative, well under this.
        EXPECT_LT(distanceError, 1e-4);

        const gpu::ContactStats stats = run.stage().readStats();
        EXPECT_EQ(stats.lastTriangleContacts, count);
        EXPECT_EQ(stats.lastEdgeContacts, edgeCount);
        EXPECT_EQ(stats.triangleOverflowSubsteps, 0u);
        EXPECT_EQ(stats.oversizedTriangles, 0u);
        EXPECT_EQ(stats.oversizedEdges, 0u);
        std::vector<gpu::TriangleContact> fourParticle = lists.contacts;
        fourParticle.insert(fourParticle.end(), lists.edgeContacts.begin(), lists.edgeContacts.end());
        const auto all = static_cast<uint32_t>(fourParticle.size());

        // The constraint set (contact_constraints.h): the pairs, then these.
        // Each particle's incidence list holds its pairs, then its
        // vertex-triangle constraints ascending; each constraint is in the
        // lists of its particles, two for a pair, four for these.
        const ContactLists pairLists = run.stage().readLists();
        const ContactSetLists setLists = run.stage().readSet();
        const uint32_t pairs = setLists.pairs;
        ASSERT_EQ(pairs, pairLists.constraints.size());
        ASSERT_EQ(setLists.colours.size(), size_t{pairs} + all);
        auto particlesOf = [&](uint32_t c, uint32_t* out) -> uint32_t {
            if (c < pairs) {
                out[0] = pairLists.constraints[c].x;
                out[1] = pairLists.constraints[c].y;
                return 2;
            }
            const gpu::TriangleContact& contact = fourParticle[c - pairs];
            for (uint32_t role = 0; role < 4; ++role) out[role] = contact.particles[role];
            return 4;
        };
        uint64_t entries = 0;
        for (uint32_t k = 0; k < model.count(); ++k) {
            const uint32_t start = setLists.incidenceStart[k], end = start + setLists.incidenceCount[k];
            entries += end - start;
            for (uint32_t e = start; e < end; ++e) {
                const uint32_t c = setLists.incidence[e] / 4, role = setLists.incidence[e] % 4;
                if (e > start && c >= pairs) {
                    ASSERT_LT(setLists.incidence[e - 1], setLists.incidence[e]);
                }
                ASSERT_LT(c, pairs + all);
                uint32_t particles[4];
                ASSERT_LT(role, particlesOf(c, particles));
                ASSERT_EQ(particles[role], k);
            }
        }
        EXPECT_EQ(entries, uint64_t{2} * pairs + uint64_t{4} * all);
        // The vertex-triangle constraints' particles: the vertex, the triangle's corners.
        for (const gpu::TriangleContact& contact : lists.contacts) {
            const gpu::ContactTriangle& tri = model.triangles[contact.triangle];
            ASSERT_EQ(contact.kind, gpu::kSurfaceVertexTriangle);
            ASSERT_EQ(contact.particles, glm::uvec4(contact.vertex, tri.a, tri.b, tri.c));
        }

        // A valid colouring of the set: no two constraints of one colour
        // share a particle, whatever their kinds.
        std::vector<std::vector<uint32_t>> coloursAt(model.count());
        uint32_t colours = 0, leftover = 0, triangleLeftover = 0;
        for (uint32_t c = 0; c < pairs + all; ++c) {
            const uint32_t colour = setLists.colours[c];
            if (colour >= gpu::kContactColours) {
                ++leftover;
                if (c >= pairs) ++triangleLeftover;
                continue;
            }
            colours = std::max(colours, colour + 1);
            uint32_t particles[4];
            const uint32_t size = particlesOf(c, particles);
            for (uint32_t i = 0; i < size; ++i) {
                const uint32_t k = particles[i];
                ASSERT_EQ(std::count(coloursAt[k].begin(), coloursAt[k].end(), colour), 0)
                    << test.label << ": two constraints of colour " << colour << " at contact particle " << k;
                coloursAt[k].push_back(colour);
            }
        }
        std::cout << fmt::format(
            "[contacts] {}: {} pairs, {} vertex-triangle and {} edge-edge constraints in {} colours, {} left to the "
            "Jacobi average ({} of four particles)\n",
            test.label, pairs, count, edgeCount, colours, leftover, triangleLeftover);
        EXPECT_GT(colours, 1u);
        EXPECT_EQ(stats.mostColours, colours);
        EXPECT_EQ(stats.leftoverConstraints, leftover);
        // The list the Jacobi average over the leftovers runs over: every
        // particle of a constraint without a colour, once, ascending.
        std::vector<uint32_t> leftoverParticles;
        for (uint32_t c = 0; c < pairs + all; ++c) {
            if (setLists.colours[c] < gpu::kContactColours) continue;
            uint32_t particles[4];
            const uint32_t size = particlesOf(c, particles);
            leftoverParticles.insert(leftoverParticles.end(), particles, particles + size);
        }
        std::sort(leftoverParticles.begin(), leftoverParticles.end());
        leftoverParticles.erase(std::unique(leftoverParticles.begin(), leftoverParticles.end()),
                                leftoverParticles.end());
        EXPECT_EQ(setLists.leftoverParticles, leftoverParticles) << test.label;
        EXPECT_GT(leftover, 0u) << test.label << ": no constraint left out: the leftovers' list is not tested";

        // The CPU reference's colours, where float decided every pair and
        // every vertex-triangle constraint as double does.
        uint64_t ambiguousPairs = 0;
        for (uint32_t k = 0; k < model.count(); ++k)
            for (uint32_t e = 0; e < pairLists.counts[k]; ++e)
                if (std::abs(contactCandidate(model, set.current, k, pairLists.neighbours[pairLists.offsets[k] + e])
                                 .margin) < 1e-5)
                    ++ambiguousPairs;
        if (ambiguous == 0 && ambiguousPairs == 0 && ambiguousEdges == 0) {
            std::vector<glm::dvec3> p;
            std::vector<double> inverseMasses;
            for (const glm::vec4& x : set.current) {
                p.emplace_back(glm::vec3(x));
                inverseMasses.push_back(x.w);
            }
            ContactReferenceSolve reference(set.model, ParticleRange{0, set.model.particleCount()});
            reference.detect(p, inverseMasses, ContactSolve::Colours);
            ASSERT_EQ(reference.constraints().size(), pairs) << test.label;
            ASSERT_EQ(reference.triangleContacts().size(), all) << test.label;
            // A pair by its particles; a four-particle constraint by its kind, vertex (or edge) and triangle (or edge).
            using Key = std::tuple<uint32_t, uint32_t, uint32_t>;
            std::map<Key, uint32_t> cpuColour;
            for (uint32_t c = 0; c < pairs; ++c)
                cpuColour[{2u, reference.constraints()[c].x, reference.constraints()[c].y}] = reference.colours()[c];
            for (uint32_t c = 0; c < all; ++c) {
                const gpu::TriangleContact& contact = reference.triangleContacts()[c];
                cpuColour[{contact.kind, contact.vertex, contact.triangle}] = reference.colours()[pairs + c];
            }
            uint32_t differ = 0;
            for (uint32_t c = 0; c < pairs + all; ++c) {
                const auto at = c < pairs ? cpuColour.find({2u, pairLists.constraints[c].x, pairLists.constraints[c].y})
                                          : cpuColour.find({fourParticle[c - pairs].kind, fourParticle[c - pairs].vertex,
                                                            fourParticle[c - pairs].triangle});
                ASSERT_TRUE(at != cpuColour.end()) << test.label;
                const bool bothLeftover =
                    at->second >= gpu::kContactColours && setLists.colours[c] >= gpu::kContactColours;
                if (at->second != setLists.colours[c] && !bothLeftover) ++differ;
            }
            std::cout << fmt::format("[contacts] {}: {} constraints coloured unlike the CPU reference\n", test.label,
                                     differ);
            EXPECT_EQ(differ, 0u) << test.label;
        } else {
            std::cout << fmt::format("[contacts] {}: {} constraints within float rounding of the distance: the CPU "
                                     "reference's colours not compared\n",
                                     test.label, ambiguousPairs + ambiguous + ambiguousEdges);
        }

        // The same lists and colours, bit for bit, from a second detection.
        run.detect();
        const TriangleContactLists again = detection->read();
        ASSERT_EQ(again.contacts.size(), lists.contacts.size());
        ASSERT_EQ(again.edgeContacts.size(), lists.edgeContacts.size());
        for (uint32_t c = 0; c < all; ++c) {
            const gpu::TriangleContact& was = fourParticle[c];
            const gpu::TriangleContact& now = c < count ? again.contacts[c] : again.edgeContacts[c - count];
            ASSERT_EQ(now.vertex, was.vertex);
            ASSERT_EQ(now.triangle, was.triangle);
            ASSERT_EQ(now.particles, was.particles);
            ASSERT_EQ(now.weights, was.weights);
        }
        const ContactSetLists setAgain = run.stage().readSet();
        EXPECT_EQ(setAgain.colours, setLists.colours);
        EXPECT_EQ(setAgain.incidenceStart, setLists.incidenceStart);
        EXPECT_EQ(setAgain.incidenceCount, setLists.incidenceCount);
        for (uint32_t k = 0; k < model.count(); ++k)
            for (uint32_t e = 0; e < setLists.incidenceCount[k]; ++e)
                ASSERT_EQ(setAgain.incidence[setLists.incidenceStart[k] + e],
                          setLists.incidence[setLists.incidenceStart[k] + e]);
    }
    EXPECT_GT(writtenFromKept, 0u) << "no case wrote triangles' and edges' constraints from the kept partners";
    EXPECT_GT(searchedAgain, 0u) << "no case searched again for triangles and edges with many constraints";
}

// Likewise with vertex-triangle and edge-edge constraints: each copy's
// triangles and edges find the constraints of its world alone, in the same
// order, and the one colouring of the set colours every kind as its world
// does.
TEST_F(ContactDetectionTest, BatchCopiesFindAndColourTheVertexTriangleContactsOfTheirWorld) {
    const PointSet one = randomTriangles(3, 60, 0.15f, glm::vec3(0.1f, 0.05f, 0.0f), 0.004f, 7);
    const PointSet three = copiesOf(one, 3);
    DetectionRun alone(ctx(), one), batch(ctx(), three);
    alone.detect();
    batch.detect();
    const TriangleContactLists a = alone.stage().triangleDetection()->read();
    const TriangleContactLists b = batch.stage().triangleDetection()->read();
    const ContactSetLists setA = alone.stage().readSet(), setB = batch.stage().readSet();
    const uint32_t n = alone.stage().model().count(), triangles = alone.stage().model().triangleCount();
    const auto m = static_cast<uint32_t>(a.contacts.size());
    const auto me = static_cast<uint32_t>(a.edgeContacts.size());
    const uint32_t edges = alone.stage().model().edgeCount();
    const uint32_t pairs = setA.pairs;
    ASSERT_GT(m, 0u);
    ASSERT_GT(me, 0u);
    ASSERT_EQ(b.contacts.size(), 3 * m);
    ASSERT_EQ(b.edgeContacts.size(), 3 * me);
    ASSERT_EQ(setB.pairs, 3 * pairs);
    std::cout << fmt::format(
        "[contacts] three copies: {} pairs, {} vertex-triangle and {} edge-edge constraints each\n", pairs, m, me);
    for (uint32_t c = 0; c < 3; ++c) {
        for (uint32_t i = 0; i < m; ++i) {
            const gpu::TriangleContact &want = a.contacts[i], &got = b.contacts[c * m + i];
            ASSERT_EQ(got.vertex, want.vertex + c * n) << "copy " << c << ", constraint " << i;
            ASSERT_EQ(got.triangle, want.triangle + c * triangles) << "copy " << c << ", constraint " << i;
            ASSERT_EQ(got.weights, want.weights) << "copy " << c << ", constraint " << i;
            ASSERT_EQ(setB.colours[3 * pairs + c * m + i], setA.colours[pairs + i])
                << "copy " << c << ", vertex-triangle constraint " << i;
        }
        for (uint32_t i = 0; i < pairs; ++i)
            ASSERT_EQ(setB.colours[c * pairs + i], setA.colours[i]) << "copy " << c << ", pair " << i;
        for (uint32_t i = 0; i < me; ++i) {
            const gpu::TriangleContact &want = a.edgeContacts[i], &got = b.edgeContacts[c * me + i];
            ASSERT_EQ(got.vertex, want.vertex + c * edges) << "copy " << c << ", edge-edge constraint " << i;
            ASSERT_EQ(got.triangle, want.triangle + c * edges) << "copy " << c << ", edge-edge constraint " << i;
            ASSERT_EQ(got.particles, want.particles + glm::uvec4(c * n)) << "copy " << c << ", constraint " << i;
            ASSERT_EQ(got.weights, want.weights) << "copy " << c << ", edge-edge constraint " << i;
            ASSERT_EQ(setB.colours[3 * pairs + 3 * m + c * me + i], setA.colours[pairs + m + i])
                << "copy " << c << ", edge-edge constraint " << i;
        }
    }
}

TEST_F(ContactDetectionTest, OneObjectWithoutSelfHasNoPairs) {
    DetectionRun run(ctx(), randomPoints(1, 300, 0.1f, glm::vec3(0.0f), 0.0f, 4));
    const ContactLists lists = run.detect();
    for (uint32_t count : lists.counts) ASSERT_EQ(count, 0u);
}

}  // namespace
}  // namespace vksim::test
