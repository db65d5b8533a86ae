#include "bench/bench_scenes.h"

#include <fmt/format.h>

namespace vksim {
namespace {

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

    ColliderDesc sphere;
    sphere.name = "ball";
    sphere.shape = ColliderShape::Sphere;
    sphere.position = {0.0f, 0.5f, 0.0f};
    sphere.radius = 0.5f;
    sphere.friction = 0.4f;
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.4f;
    scene.colliders = {sphere, ground};
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
    ColliderDesc ground;
    ground.name = "ground";
    ground.shape = ColliderShape::Plane;
    ground.friction = 0.5f;
    scene.colliders = {block, ground};
    return scene;
}

uint64_t gridParticles(uint32_t size) { return uint64_t{size} * size; }
uint64_t barParticles(uint32_t size) { return (uint64_t{4} * size + 1) * (uint64_t{size} + 1) * (uint64_t{size} + 1); }

// Per grid vertex: 5 particle vec4s (x, p, v, contact, normal) 80 B; ~4
// distance constraints x (16 + 4) 80 B; ~3 bending constraints x (48 + 4)
// 156 B; 2 triangles x 12 B; CSR adjacency 4 + 6 x 4 B. 368 B, rounded up.
constexpr uint32_t kClothBytesPerParticle = 400;
// PD cloth, per grid vertex: particle state and normal 48 B, three q
// iterates 48 B, contact, collision target, rhs 48 B, PdRow 32 B; ~20
// off-diagonal entries (springs, triangles and the bending stencil reach the
// 2-ring) 160 B; ~26 contribution slots (8 spring, 6 triangle, 12 bending)
// of 16 B plus their 4 B gather index 520 B; the elements: 4 springs 64 B,
// 2 triangles 96 B, 3 bending 144 B; rendering 52 B. 1212 B, rounded up.
constexpr uint32_t kPdClothBytesPerParticle = 1400;
// Mass-spring cloth, per grid vertex: 7 particle vec4s 112 B; ~6 springs of
// 32 B 192 B and their 12 incidences of 8 B 96 B; ~3 hinges of 32 B and 12
// hinge incidences 144 B; ~13 quadratic entries of 16 B 208 B; MsParticle,
// vertex order and the iterate 52 B; the Newton matrix: 13 blocks of 64 B
// (the diagonal and 4 structural, 4 shear and 4 bending neighbours) 832 B,
// the row 64 B, rhs and three iterates 64 B; the line search's partials
// 40 B per 64 particles; rendering 52 B. 1817 B, rounded up.
constexpr uint32_t kSpringClothBytesPerParticle = 2000;
// PD tetrahedra, per lattice vertex (about one cube cell each): 6 strain and
// 6 volume tetrahedra of 80 B 960 B, their 48 slots of 16 + 4 B 960 B, 14
// off-diagonal entries 112 B, per-particle buffers as for cloth 176 B.
// 2208 B, rounded up.
constexpr uint32_t kTetBytesPerParticle = 2400;

const std::vector<BenchScene> kScenes{
    {"cloth-pbd", "a square cloth pinned at two corners over a sphere (PBD, 4 substeps x 8 iterations)",
     "vertices per side", {64, 128, 256, 512, 1024, 2048, 4096}, 256, clothOverSphere, gridParticles,
     kClothBytesPerParticle},
    {"cloth-pd",
     "the same cloth with projective dynamics (1 substep, 10 local/global x 20 Chebyshev-Jacobi iterations; "
     "springs, triangle strain, bending)",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 256, pdClothOverSphere, gridParticles,
     kPdClothBytesPerParticle},
    {"cloth-springs",
     "the same cloth as a mass-spring system (implicit Euler: 1 substep, 3 Newton x 40 Chebyshev-block-Jacobi "
     "iterations; structural, shear and bending springs)",
     "vertices per side", {32, 64, 128, 256, 512, 1024, 2048}, 128, springClothOverSphere, gridParticles,
     kSpringClothBytesPerParticle},
    {"tet-pd",
     "a tetrahedral bar held at one end, sagging onto a block (projective dynamics, tet strain and volume; "
     "1 substep, 10 x 20 iterations)",
     "n, for 4n x n x n cube cells of 6 tetrahedra", {2, 4, 8, 16, 32, 64}, 16, pdBar, barParticles,
     kTetBytesPerParticle},
};

}  // namespace

std::span<const BenchScene> benchScenes() { return kScenes; }

}  // namespace vksim
