#include "bench/bench_scenes.h"

#include <cmath>

#include <fmt/format.h>

#include "scene/scene_copies.h"
#include <glm/glm.hpp>
#include <glm/gtc/constants.hpp>

namespace vksim {
namespace {

ColliderDesc groundPlane(float friction) {
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.friction = friction;
    return ground;
}

ColliderDesc ballCollider(glm::vec3 position, float radius, float friction) {
    ColliderDesc ball;
    ball.name = "ball";
    ball.shape = ColliderShape::Sphere;
    ball.position = position;
    ball.radius = radius;
    ball.friction = friction;
    return ball;
}

// cloth-pbd: the default scene's setting at any resolution: a 2 m square
// cloth pinned at two corners, over a sphere and the ground. It starts 2 cm
// above the sphere, so contacts are being resolved in the measured frames.
Scene clothOverSphere(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("cloth-pbd {}x{}", size, size);
    scene.path = "(bench)";
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.size = {2.0f, 2.0f};
    cloth.grid.resolution = {size, size};
    cloth.position = {0.0f, 1.02f, 0.0f};
    cloth.mass = 1.0f;
    cloth.pinned = {{0, 0}, {size - 1, 0}};
    cloth.bending.stiffness = 0.1f;
    scene.cloths.push_back(cloth);

    scene.colliders = {ballCollider({0.0f, 0.5f, 0.0f}, 0.5f, 0.4f), groundPlane(0.4f)};
    return scene;
}

// contacts-fold: a square cloth with self-contact (docs/physics.md §14),
// standing on one edge and tipping over onto itself on the ground; each
// particle a sphere of 0.55 times the vertex spacing. Per-colour path,
// contacts by colours.
Scene contactsFold(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("contacts-fold {}x{}", size, size);
    scene.path = "(bench)";
    ClothObject cloth;
    cloth.name = "cloth";
    cloth.grid.size = {0.8f, 0.8f};
    cloth.grid.resolution = {size, size};
    cloth.position = {0.0f, 0.42f, 0.0f};
    const float tilt = glm::radians(80.0f);  // about x
    cloth.rotation = glm::vec4(std::sin(0.5f * tilt), 0.0f, 0.0f, std::cos(0.5f * tilt));
    cloth.mass = 0.3f;
    cloth.bending.stiffness = 0.02f;
    const float spacing = 0.8f / float(size - 1);
    cloth.contacts = {.enabled = true, .thickness = 0.55f * spacing, .self = true, .friction = 0.4f};
    scene.cloths.push_back(cloth);
    scene.colliders = {groundPlane(0.6f)};
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

// contacts-fold-off: the same cloth without contacts (it falls through
// itself): the frame the contacts' cost is measured against.
Scene contactsFoldOff(uint32_t size) {
    Scene scene = contactsFold(size);
    scene.name = fmt::format("contacts-fold-off {}x{}", size, size);
    scene.cloths[0].contacts.enabled = false;
    return scene;
}

// contacts-fold-triangles: the same cloth with vertex-triangle contacts
// ("triangles": true) besides the pairs, one constraint set: what they add
// to contacts-fold's frame.
Scene contactsFoldTriangles(uint32_t size) {
    Scene scene = contactsFold(size);
    scene.name = fmt::format("contacts-fold-triangles {}x{}", size, size);
    scene.cloths[0].contacts.triangles = true;
    return scene;
}

// contacts-pile: `size` cloths of 24 x 24 dropped in a stack onto a ball,
// touching each other (not themselves).
Scene contactsPile(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("contacts-pile {}", size);
    scene.path = "(bench)";
    for (uint32_t c = 0; c < size; ++c) {
        ClothObject cloth;
        cloth.name = fmt::format("cloth {}", c);
        cloth.grid.size = {0.9f, 0.9f};
        cloth.grid.resolution = {24, 24};
        cloth.position = {0.03f * float(c % 3), 0.75f + 0.08f * float(c), -0.02f * float(c % 2)};
        const float turn = 0.4f * float(c);  // about y
        cloth.rotation = glm::vec4(0.0f, std::sin(0.5f * turn), 0.0f, std::cos(0.5f * turn));
        cloth.mass = 0.2f;
        cloth.bending.stiffness = 0.05f;
        cloth.contacts = {.enabled = true, .thickness = 0.02f, .self = false, .friction = 0.4f};
        scene.cloths.push_back(cloth);
    }
    scene.colliders = {ballCollider({0.0f, 0.3f, 0.0f}, 0.3f, 0.5f), groundPlane(0.6f)};
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

// cloth-pbd-per-colour: the same scene on the per-colour path.
Scene clothOverSpherePerColour(uint32_t size) {
    Scene scene = clothOverSphere(size);
    scene.name = fmt::format("cloth-pbd-per-colour {}x{}", size, size);
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

// cloth-pbd-clusters: the same scene on the cluster path, on every device
// (where "auto" takes one workgroup instead, to compare).
Scene clothOverSphereClusters(uint32_t size) {
    Scene scene = clothOverSphere(size);
    scene.name = fmt::format("cloth-pbd-clusters {}x{}", size, size);
    scene.solver.pbd.path = PbdPath::Clusters;
    return scene;
}

// cloth-shared-colours: the same scene with one colouring across the
// constraint families ("pbdColouring": "acrossFamilies"), on the default path.
Scene clothOverSphereSharedColours(uint32_t size) {
    Scene scene = clothOverSphere(size);
    scene.name = fmt::format("cloth-shared-colours {}x{}", size, size);
    scene.solver.pbd.colouring = PbdColouring::AcrossFamilies;
    return scene;
}

// cloth-shared-colours-per-colour: the same on the per-colour path.
Scene clothOverSphereSharedColoursPerColour(uint32_t size) {
    Scene scene = clothOverSphereSharedColours(size);
    scene.name = fmt::format("cloth-shared-colours-per-colour {}x{}", size, size);
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

// cloth-small-steps: the same cloth as Macklin et al. 2019 ("Small Steps in
// Physics Simulation") advise: many substeps of one iteration each, 30 x 1
// instead of 4 x 8 (the same 1/60 s frame). Each substep predicts and
// collides again, so a frame costs more particle passes for the same number
// of constraint projections, and the solve converges better per projection.
Scene clothSmallSteps(uint32_t size) {
    Scene scene = clothOverSphere(size);
    scene.name = fmt::format("cloth-small-steps {}x{}", size, size);
    scene.solver.substeps = 30;
    scene.solver.pbd.iterations = 1;
    return scene;
}

// cloth-small-steps-per-colour: the same on the per-colour path.
Scene clothSmallStepsPerColour(uint32_t size) {
    Scene scene = clothSmallSteps(size);
    scene.name = fmt::format("cloth-small-steps-per-colour {}x{}", size, size);
    scene.solver.pbd.path = PbdPath::PerColour;
    return scene;
}

// cloth-wind: cloth-pbd-per-colour in a gusty wind (docs/physics.md §15),
// tethered: the cloth with "aero" (drag 1, lift 0.5) in a 6 m/s wind with
// gusts of 2 m/s, every free particle tethered to the nearer of its two
// pinned corners (Euclidean, docs/physics.md §1 "Tethers": one attachment
// constraint each). On the per-colour path, so that the stretch projection
// has passes of its own ("stretch colour c") to weigh the wind and tether
// passes against.
Scene clothWind(uint32_t size) {
    Scene scene = clothOverSpherePerColour(size);
    scene.name = fmt::format("cloth-wind {}x{}", size, size);
    scene.cloths.front().aero = AeroParams{.drag = 1.0f, .lift = 0.5f};
    scene.cloths.front().tethers = TetherParams{.mode = TetherMode::Euclidean};
    scene.solver.air.wind = glm::vec3(6.0f, 0.0f, 2.0f);
    scene.solver.air.gusts = GustSettings{.strength = 2.0f, .scale = 0.5f, .period = 1.0f, .seed = 1};
    return scene;
}

// cloth-tearing: cloth-pbd-per-colour that tears (docs/physics.md §1,
// "Tearing") past a strain of 5 %, which the cloth reaches at its two pins as
// it drapes: the tear pass runs once per frame beside the stretch colours.
Scene clothTearing(uint32_t size) {
    Scene scene = clothOverSpherePerColour(size);
    scene.name = fmt::format("cloth-tearing {}x{}", size, size);
    scene.cloths.front().tearing = TearingParams{.enabled = true, .strain = 0.05f};
    return scene;
}

// cloth-tearing-split: cloth-tearing with a quarter of its vertices in
// reserve ("capacity"), so that its torn vertices split (docs/physics.md §1,
// "Tearing", "Splitting vertices"): the split pass after the tear pass.
Scene clothTearingSplit(uint32_t size) {
    Scene scene = clothTearing(size);
    scene.name = fmt::format("cloth-tearing-split {}x{}", size, size);
    scene.cloths.front().tearing.capacity = 0.25f;
    return scene;
}

// cloth-character: scenes/cloth_character.json at another cape resolution:
// a character of kinematic capsules (docs/physics.md §17) walks a circle of
// 1.2 m in 8 s, swinging its limbs, wearing an N x N cape attached along its
// top row to the torso, its next three rows held within 3, 6 and 12 cm
// (docs/physics.md §1, "Attachments to bodies and colliders"), in still air
// (drag and lift). On the per-colour path, so that the stretch projection
// has passes of its own to weigh the keyframe and attachment passes against.
namespace character {

glm::vec4 turn(glm::vec3 axis, float degrees) {
    const float half = glm::radians(degrees) * 0.5f;
    return glm::vec4(std::sin(half) * axis, std::cos(half));
}

ColliderDesc capsule(std::string name, float radius, float halfLength, std::string parent, glm::vec3 position) {
    ColliderDesc c;
    c.name = std::move(name);
    c.shape = ColliderShape::Capsule;
    c.radius = radius;
    c.halfLength = halfLength;
    c.parent = std::move(parent);
    c.position = position;
    c.thickness = 0.01f;
    return c;
}

// A limb's pivot on the torso, swinging about local X by +-degrees, one swing a 0.5 s step.
ColliderDesc pivot(std::string name, glm::vec3 position, float degrees) {
    ColliderDesc c;
    c.name = std::move(name);
    c.shape = ColliderShape::Sphere;
    c.radius = 0.05f;
    c.parent = "torso";
    KeyframeTrackDesc track{.loop = true};
    for (int k = 0; k <= 2; ++k)
        track.frames.push_back({0.5 * k, position, turn({1.0f, 0.0f, 0.0f}, k == 1 ? -degrees : degrees)});
    c.keyframes = track;
    return c;
}

}  // namespace character

Scene clothCharacter(uint32_t size) {
    using namespace character;
    Scene scene;
    scene.name = fmt::format("cloth-character {}x{}", size, size);
    scene.path = "(bench)";
    scene.solver.substeps = 8;
    scene.solver.pbd.iterations = 8;
    scene.solver.pbd.path = PbdPath::PerColour;
    const float radius = 1.2f;
    ColliderDesc torso = capsule("torso", 0.16f, 0.2f, "", glm::vec3(0.0f));
    torso.friction = 0.4f;
    KeyframeTrackDesc walk{.loop = true};
    constexpr int kFrames = 16;
    for (int k = 0; k <= kFrames; ++k) {
        const float theta = 2.0f * glm::pi<float>() * float(k) / kFrames;
        walk.frames.push_back({8.0 * k / kFrames, {radius * std::cos(theta), 1.0f, radius * std::sin(theta)},
                               turn({0.0f, 1.0f, 0.0f}, -glm::degrees(theta))});
    }
    torso.keyframes = walk;
    ColliderDesc head;
    head.name = "head";
    head.shape = ColliderShape::Sphere;
    head.radius = 0.11f;
    head.parent = "torso";
    head.position = {0.0f, 0.5f, 0.0f};
    scene.colliders = {groundPlane(0.6f), torso, head,
                       pivot("left shoulder", {0.23f, 0.24f, 0.0f}, 35.0f),
                       pivot("right shoulder", {-0.23f, 0.24f, 0.0f}, -35.0f),
                       capsule("left arm", 0.045f, 0.2f, "left shoulder", {0.0f, -0.25f, 0.0f}),
                       capsule("right arm", 0.045f, 0.2f, "right shoulder", {0.0f, -0.25f, 0.0f}),
                       pivot("left hip", {0.09f, -0.3f, 0.0f}, -25.0f),
                       pivot("right hip", {-0.09f, -0.3f, 0.0f}, 25.0f),
                       capsule("left leg", 0.06f, 0.28f, "left hip", {0.0f, -0.36f, 0.0f}),
                       capsule("right leg", 0.06f, 0.28f, "right hip", {0.0f, -0.36f, 0.0f})};

    ClothObject cape;
    cape.name = "cape";
    cape.grid.size = {0.42f, 0.75f};
    cape.grid.resolution = {size, size};
    cape.rotation = turn({1.0f, 0.0f, 0.0f}, 90.0f);
    cape.position = {radius, 1.22f, -0.18f};
    cape.mass = 0.25f;
    cape.bending.stiffness = 0.01f;
    cape.aero = AeroParams{.drag = 1.2f, .lift = 0.4f};
    const float maxDistances[] = {0.0f, 0.03f, 0.06f, 0.12f};
    for (uint32_t row = 0; row < 4; ++row) {
        ClothAttachment attachment;
        attachment.target = AttachmentTarget::Collider;
        attachment.name = "torso";
        attachment.index = 1;
        attachment.maxDistance = maxDistances[row];
        for (uint32_t column = 0; column < size; ++column) attachment.vertices.push_back(row * size + column);
        cape.attachments.push_back(attachment);
    }
    scene.cloths.push_back(cape);
    return scene;
}

// cloth-pd: the same cloth with projective dynamics, with the settings of
// scenes/pd_cloth_sphere.json: one substep per frame, 10 local/global
// iterations of 20 Chebyshev-accelerated Jacobi iterations; edge springs,
// triangle strain clamped to [1, 1.05] and isometric bending.
Scene pdClothOverSphere(uint32_t size) {
    Scene scene = clothOverSphere(size);
    scene.name = fmt::format("cloth-pd {}x{}", size, size);
    scene.solver.substeps = 1;
    scene.solver.collisionMargin = 0.02f;
    scene.solver.pd.localIterations = 10;
    scene.solver.pd.jacobiIterations = 20;
    ClothObject& cloth = scene.cloths.front();
    cloth.method = SolverMethod::Pd;
    cloth.pd.stretch.stiffness = 5000.0f;
    cloth.pd.strain = {.stiffness = 200.0f, .rangeMin = 1.0f, .rangeMax = 1.05f, .enabled = true};
    cloth.pd.bending.stiffness = 0.002f;
    scene.colliders.front().thickness = 0.01f;
    return scene;
}

// cloth-pd-tiled: cloth-pd with the tiled matrix-vector product
// ("jacobiPath": "tiled"), beside cloth-pd's path ("auto": a dispatch per
// iteration from 256 particles) for comparison.
Scene pdClothOverSphereTiled(uint32_t size) {
    Scene scene = pdClothOverSphere(size);
    scene.name = fmt::format("cloth-pd-tiled {}x{}", size, size);
    scene.solver.pd.jacobiPath = PdJacobiPath::Tiled;
    return scene;
}

// cloth-springs: the same cloth as a mass-spring system (docs/physics.md
// §9) with the solver's default springs (structural 2000 N/m, both shear
// diagonals 500 N/m, skip-one bending springs 50 N/m), stepped by implicit
// Euler: one substep, 3 Newton iterations of 40 Chebyshev-accelerated
// block-Jacobi iterations each. The spring stiffnesses do not change with the
// resolution (the sheet's stiffness does not either), so finer grids make
// the Newton systems stiffer and the Jacobi solves less accurate.
Scene springClothOverSphere(uint32_t size) {
    Scene scene = clothOverSphere(size);
    scene.name = fmt::format("cloth-springs {}x{}", size, size);
    scene.solver.substeps = 1;
    scene.solver.springs.integrator = SpringIntegrator::ImplicitEuler;
    scene.solver.springs.newtonIterations = 3;
    scene.solver.springs.jacobiIterations = 40;
    scene.solver.springs.chebyshev = true;
    ClothObject& cloth = scene.cloths.front();
    cloth.method = SolverMethod::Springs;
    cloth.springs = SpringClothParams{};
    return scene;
}

// tet-pd: a soft bar as in scenes/pd_bar.json, 2 m x 0.5 m x 0.5 m of
// 4n x n x n cube cells (6 tetrahedra each, strain and volume elements),
// its -x face held by attachments (so every PD pass family but the cloth
// ones runs), its free end sagging onto a block 1 cm below it, over the
// ground. 10 local/global iterations of 20 Jacobi iterations, one substep.
Scene pdBar(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("tet-pd {}x{}x{} cells", 4 * size, size, size);
    scene.path = "(bench)";
    scene.solver.substeps = 1;
    scene.solver.collisionMargin = 0.02f;
    scene.solver.pd.localIterations = 10;
    scene.solver.pd.jacobiIterations = 20;
    SolidObject bar;
    bar.name = "bar";
    bar.shape = SolidShape::Box;
    bar.size = {2.0f, 0.5f, 0.5f};
    bar.cells = {4 * size, size, size};
    bar.position = {0.0f, 1.0f, 0.0f};
    bar.mass = 50.0f;
    bar.pinnedFaces = {BoxFace::MinusX};
    bar.pinsAsAttachments = true;
    bar.attachment.stiffness = 1e5f;
    bar.strain = {.stiffness = 1e6f};
    bar.volume = {.stiffness = 1e6f, .rangeMin = 0.98f, .rangeMax = 1.02f, .enabled = true};
    scene.solids.push_back(bar);

    ColliderDesc block;
    block.name = "block";
    block.shape = ColliderShape::Box;
    block.position = {0.8f, 0.5f, 0.0f};
    block.halfExtents = {0.2f, 0.24f, 0.5f};  // top at 0.74 m, the bar's underside at 0.75 m
    block.friction = 0.5f;
    scene.colliders = {block, groundPlane(0.5f)};
    return scene;
}

// tet-solids (docs/physics.md §16): the three solvers of solids on the same
// mesh, side by side in one world: three bars of 1 m x 0.25 m x 0.25 m, 4n x
// n x n cube cells of 6 tetrahedra each, of one stable Neo-Hookean material
// (E = 1 MPa, nu = 0.4, 1000 kg/m^3), their -x faces pinned, sagging over
// the ground. 4 substeps; XPBD 10 iterations ("pbdPath": "auto"), VBD 10
// sweeps, PD 5 local/global x 20 Jacobi iterations. Each solver's passes
// carry its prefix ("pbd: ", "vbd: ", "pd: "), so the report splits the
// step between them.
Scene tetSolids(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("tet-solids 3 x {}x{}x{} cells", 4 * size, size, size);
    scene.path = "(bench)";
    scene.solver.substeps = 4;
    scene.solver.pbd.iterations = 10;
    scene.solver.vbd.iterations = 10;
    scene.solver.pd.localIterations = 5;
    scene.solver.pd.jacobiIterations = 20;
    const std::pair<SolidMethod, const char*> methods[] = {
        {SolidMethod::Xpbd, "xpbd"}, {SolidMethod::Vbd, "vbd"}, {SolidMethod::Pd, "pd"}};
    for (uint32_t k = 0; k < 3; ++k) {
        SolidObject bar;
        bar.name = methods[k].second;
        bar.shape = SolidShape::Box;
        bar.method = methods[k].first;
        bar.size = {1.0f, 0.25f, 0.25f};
        bar.cells = {4 * size, size, size};
        bar.position = {0.0f, 0.6f, 0.5f * (float(k) - 1.0f)};
        bar.pinnedFaces = {BoxFace::MinusX};
        bar.material = ElasticMaterial{.youngsModulus = 1e6f, .poissonRatio = 0.4f, .density = 1000.0f};
        scene.solids.push_back(bar);
    }
    scene.colliders = {groundPlane(0.5f)};
    return scene;
}

// rigid-pile: `size` bodies (boxes, balls and capsules in turn) dropped in
// layers of a 4 x 4 grid onto the ground, every body touching the ground
// and its neighbours within a second: the bodies' contacts with the
// collider and with each other (the default path: one workgroup for up to
// 4 bodies on a CPU device and 8 on a GPU, per substep above).
Scene rigidPile(uint32_t size) {
    Scene scene;
    scene.name = fmt::format("rigid-pile {}", size);
    for (uint32_t b = 0; b < size; ++b) {
        BodyDesc body;
        body.name = fmt::format("body {}", b);
        body.source = fmt::format("/bodies/{}", b);
        const uint32_t layer = b / 16, column = b % 4, row = (b / 4) % 4;
        body.position = {0.3f * float(column) - 0.45f, 0.15f + 0.3f * float(layer), 0.3f * float(row) - 0.45f};
        body.rotation = glm::vec4(glm::normalize(glm::vec3(1.0f, float(b % 3), 0.5f)) * std::sin(0.2f * float(b % 5)),
                                  std::cos(0.2f * float(b % 5)));
        body.shape = static_cast<BodyShape>(b % 3);  // box, sphere, capsule
        body.halfExtents = glm::vec3(0.1f, 0.08f, 0.12f);
        body.radius = body.shape == BodyShape::Capsule ? 0.06f : 0.1f;
        body.halfLength = 0.08f;
        body.friction = 0.5f;
        body.restitution = 0.2f;
        scene.bodies.push_back(body);
    }
    scene.colliders = {groundPlane(0.5f)};
    return scene;
}

// rigid-pile-one-workgroup: the same on the one-workgroup path.
Scene rigidPileOneWorkgroup(uint32_t size) {
    Scene scene = rigidPile(size);
    scene.name = fmt::format("rigid-pile-one-workgroup {}", size);
    scene.solver.rigid.path = RigidPath::OneWorkgroup;
    return scene;
}

// rigid-pile-per-substep: the same on the per-substep path.
Scene rigidPilePerSubstep(uint32_t size) {
    Scene scene = rigidPile(size);
    scene.name = fmt::format("rigid-pile-per-substep {}", size);
    scene.solver.rigid.path = RigidPath::PerSubstep;
    return scene;
}

uint64_t noParticles(uint32_t) { return 0; }

uint64_t gridParticles(uint32_t size) { return uint64_t{size} * size; }
uint64_t pileParticles(uint32_t cloths) { return uint64_t{cloths} * 24 * 24; }

// batch-cloth: `copies` copies of cloth-pbd at 24 x 24 in one world
// (scene/scene_batch.h), each over its own (the shared) sphere and ground.
Scene batchCloth(uint32_t copies) {
    Scene one = clothOverSphere(24);
    one.name = "batch-cloth";
    Scene scene = replicateScene(one, copies).scene;
    scene.name = fmt::format("batch-cloth {} copies", copies);
    return scene;
}
uint32_t batchCopies(uint32_t copies) { return copies; }
uint64_t barParticles(uint32_t size) { return (uint64_t{4} * size + 1) * (uint64_t{size} + 1) * (uint64_t{size} + 1); }

uint64_t threeBarParticles(uint32_t size) { return 3 * barParticles(size); }

const std::vector<BenchScene> kScenes{
    {"cloth-pbd",
     "a square cloth pinned at two corners over a sphere (PBD, 4 substeps x 8 iterations; \"pbdPath\": \"auto\": "
     "on a CPU device clusters of half a workgroup's shared memory, or of an eighth of the cloth if more, where they "
     "cut it; on a GPU clusters of 256 particles or twice two rows where they cut it in 10 or more or it does not fit "
     "one workgroup; else one workgroup per frame)",
     "vertices per side", {32, 48, 64, 128, 256, 512, 1024, 2048, 4096}, 256, clothOverSphere, gridParticles},
    {"cloth-pbd-per-colour", "cloth-pbd on the per-colour path (\"pbdPath\": \"perColour\"), for comparison",
     "vertices per side", {32, 48, 64, 128, 256, 512, 1024, 2048, 4096}, 256, clothOverSpherePerColour,
     gridParticles},
    {"cloth-pbd-clusters",
     "cloth-pbd on the cluster path (\"pbdPath\": \"clusters\": per iteration two dispatches of shared-memory "
     "clusters, then what they leave by colour)",
     "vertices per side", {32, 48, 64, 128, 256, 512, 1024, 2048, 4096}, 256, clothOverSphereClusters, gridParticles},
    {"cloth-shared-colours",
     "cloth-pbd with one colouring across the constraint families (\"pbdColouring\": \"acrossFamilies\": a grid "
     "cloth in 25 shared colours, not 8 stretch + 18 bending; \"pbdPath\": \"auto\")",
     "vertices per side", {32, 48, 64, 128, 256, 512, 1024, 2048, 4096}, 256, clothOverSphereSharedColours,
     gridParticles},
    {"cloth-shared-colours-per-colour", "cloth-shared-colours on the per-colour path, one dispatch per shared colour",
     "vertices per side", {32, 48, 64, 128, 256, 512, 1024, 2048, 4096}, 256, clothOverSphereSharedColoursPerColour,
     gridParticles},
    {"cloth-small-steps",
     "cloth-pbd at 30 substeps x 1 iteration (Macklin et al. 2019, \"Small Steps in Physics Simulation\"; "
     "\"pbdPath\": \"auto\")",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 128, clothSmallSteps, gridParticles},
    {"cloth-small-steps-per-colour", "cloth-small-steps on the per-colour path, for comparison",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 128, clothSmallStepsPerColour, gridParticles},
    {"cloth-wind",
     "cloth-pbd-per-colour with \"aero\" (drag 1, lift 0.5) in a 6 m/s wind with 2 m/s gusts, tethered to its "
     "pinned corners: the wind and tether passes beside the stretch colours",
     "vertices per side", {32, 64, 128, 256, 512, 1024}, 64, clothWind, gridParticles},
    {"cloth-tearing",
     "cloth-pbd-per-colour that tears past a strain of 5 % (\"tearing\"): the tear pass, once per frame, beside "
     "the stretch colours",
     "vertices per side", {64, 128, 256}, 64, clothTearing, gridParticles},
    {"cloth-tearing-split",
     "cloth-tearing with a quarter of its vertices in reserve (\"capacity\": 0.25): its torn vertices split, the "
     "split pass after the tear pass",
     "vertices per side", {64, 128, 256}, 64, clothTearingSplit, gridParticles},
    {"cloth-character",
     "a character of kinematic capsules walking a circle, swinging its limbs, wearing an NxN cape attached to its "
     "torso (motion constraints below; drag and lift in still air; per colour): the keyframe and attachment passes "
     "beside the stretch colours",
     "cape vertices per side", {16, 32, 64, 128, 256}, 64, clothCharacter, gridParticles},
    {"cloth-pd",
     "the same cloth with projective dynamics (1 substep, 10 local/global x 20 Chebyshev-Jacobi iterations; "
     "springs, triangle strain, bending)",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 256, pdClothOverSphere, gridParticles},
    {"cloth-pd-tiled",
     "cloth-pd with a tiled matrix-vector product (\"jacobiPath\": \"tiled\": each workgroup's 1024 rows read "
     "their neighbours from shared memory)",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 256, pdClothOverSphereTiled, gridParticles},
    {"cloth-springs",
     "the same cloth as a mass-spring system (implicit Euler: 1 substep, 3 Newton x 40 Chebyshev-block-Jacobi "
     "iterations; structural, shear and bending springs)",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 128, springClothOverSphere, gridParticles},
    {"tet-pd",
     "a tetrahedral bar held at one end, sagging onto a block (projective dynamics, tet strain and volume; "
     "1 substep, 10 x 20 iterations)",
     "n, for 4n x n x n cube cells of 6 tetrahedra", {2, 4, 8, 16, 32, 64}, 16, pdBar, barParticles},
    {"tet-solids",
     "three bars of one stable Neo-Hookean material (E = 1 MPa, nu = 0.4), 4n x n x n cube cells of 6 tetrahedra "
     "each, -x faces pinned, sagging side by side: XPBD (10 iterations), vertex block descent (10 sweeps) and "
     "projective dynamics (5 x 20 iterations) on the same mesh, 4 substeps; the passes' prefixes split the step",
     "n, for 3 bars of 4n x n x n cube cells of 6 tetrahedra", {2, 4, 8, 16, 32}, 8, tetSolids, threeBarParticles},
    {"contacts-fold",
     "a square cloth with self-contact (\"contacts\": thickness 0.55 x the vertex spacing, \"self\": true) "
     "tipping over onto itself on the ground (per-colour path, 4 substeps x 8 iterations, contacts by colours)",
     "vertices per side", {32, 64, 128, 256, 512, 1024}, 64, contactsFold, gridParticles},
    {"contacts-fold-triangles",
     "contacts-fold with vertex-triangle contacts (\"triangles\": true) besides the pairs, for comparison",
     "vertices per side", {32, 64, 128, 256, 512, 1024}, 64, contactsFoldTriangles, gridParticles},
    {"contacts-fold-off", "contacts-fold without contacts (the cloth falls through itself), for comparison",
     "vertices per side", {32, 64, 128, 256, 512, 1024}, 64, contactsFoldOff, gridParticles},
    {"contacts-pile",
     "cloths of 24 x 24 with contacts (thickness 2 cm) dropped in a stack onto a ball (per-colour path, 4 substeps x "
     "8 iterations, contacts by colours)",
     "cloths", {2, 4, 8, 16, 32}, 8, contactsPile, pileParticles},
    {"batch-cloth",
     "copies of cloth-pbd at 24 x 24 stepped together in one world (vksim.Batch): one dispatch per pass for every "
     "copy; the step time per copy against one copy's",
     "copies", {1, 16, 256, 4096}, 256, batchCloth, pileParticles, batchCopies},
    {"rigid-pile",
     "boxes, balls and capsules (98, 162 and 130 contact points) dropped in layers onto the ground (4 substeps x 4 "
     "contact iterations; \"path\": \"auto\": one workgroup for up to 4 bodies on a CPU device and 8 on a GPU, "
     "else per substep)",
     "bodies", {4, 16, 64, 256}, 64, rigidPile, noParticles},
    {"rigid-pile-one-workgroup", "rigid-pile on the one-workgroup path (\"path\": \"oneWorkgroup\"), for comparison",
     "bodies", {4, 16, 64, 256}, 64, rigidPileOneWorkgroup, noParticles},
    {"rigid-pile-per-substep", "rigid-pile on the per-substep path (\"path\": \"perSubstep\"), for comparison",
     "bodies", {4, 16, 64, 256}, 64, rigidPilePerSubstep, noParticles},
};

}  // namespace

std::span<const BenchScene> benchScenes() { return kScenes; }

}  // namespace vksim
