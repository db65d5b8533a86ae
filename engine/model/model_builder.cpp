#include "model/model_builder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/isometric_bending.h"
#include "geometry/shared_math.h"
#include "geometry/tet_mesh.h"
#include "geometry/triangle_mesh.h"
#include "model/cloth_geometry.h"
#include "model/graph_colouring.h"
#include "model/mesh_colliders.h"
#include "model/pd_materials.h"
#include "model/pd_system.h"
#include "model/shape_match_builder.h"
#include "model/spring_builder.h"
#include "model/spring_system.h"

namespace vksim {

gpu::ConstraintMaterial toMaterial(const ConstraintParams& params) {
    return {params.model == ConstraintModel::Xpbd ? gpu::kModeXpbd : gpu::kModePbd, params.stiffness,
            params.compliance, 0.0f};
}

namespace {

glm::dvec3 positionOf(const SimModel& model, uint32_t particle) {
    return glm::dvec3(glm::vec3(model.positions[particle]));
}

// A free particle's inverse mass as the GPU holds it: finite and a normal
// 32-bit float, else the object's mass is too small for its particle count
// (1e-36 kg over 4096 particles is 2.4e-40 kg each, subnormal, whose inverse
// is infinite in float: non-finite at the first frame).
float checkedInverseMass(double inverseMass, double objectMass, uint32_t particles, const std::string& owner) {
    const auto w = static_cast<float>(inverseMass);
    if (!std::isnormal(w))  // also infinite, NaN or zero
        throw std::invalid_argument(fmt::format(
            "{}: mass {:g} kg over {} particles gives a particle an inverse mass of {:g} 1/kg, outside what a 32-bit "
            "float holds; raise the mass",
            owner, objectMass, particles, inverseMass));
    return w;
}

// Particles of a cloth: a grid's mass / n each, so the inverse mass is
// n / mass; a mesh's by area (cloth_geometry.h). Hard pins get inverse mass 0
// (and no velocity). Returns the first particle.
uint32_t appendClothParticles(SimModel& model, const ClothObject& cloth, const ClothGeometry& mesh,
                              const std::vector<bool>& pinned) {
    if (!(cloth.mass > 0.0f) || !std::isfinite(cloth.mass))
        throw std::invalid_argument(fmt::format("cloth '{}': mass must be positive (got {})", cloth.name, cloth.mass));
    const uint32_t first = model.particleCount();
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());
    const bool pinsAreHard = !cloth.pinsAsAttachments;
    const std::string owner = fmt::format("cloth '{}'", cloth.name);
    for (uint32_t v = 0; v < vertexCount; ++v) {
        bool fixed = pinsAreHard && pinned[v];
        const double freeInverse = mesh.massShares.empty() ? double(vertexCount) / double(cloth.mass)
                                                           : 1.0 / (double(cloth.mass) * mesh.massShares[v]);
        const float free = fixed ? 0.0f : checkedInverseMass(freeInverse, cloth.mass, vertexCount, owner);
        model.positions.emplace_back(glm::vec3(mesh.positions[v]), free);
        model.velocities.emplace_back(fixed ? glm::vec3(0.0f) : cloth.initialVelocity, 0.0f);
    }
    return first;
}

// The cloth's triangles (render topology), appended in global indices;
// returns the first triangle.
uint32_t appendTriangles(SimModel& model, const std::vector<uint32_t>& triangles, uint32_t firstParticle) {
    const uint32_t firstTriangle = model.triangleCount();
    for (uint32_t v : triangles) model.triangles.push_back(firstParticle + v);
    return firstTriangle;
}

void appendCloth(SimModel& model, const ClothObject& cloth, uint32_t object, ModelDiagnostics& diagnostics) {
    const ClothGeometry mesh = buildClothGeometry(cloth);
    const std::vector<bool>& pinned = mesh.pinned;
    const uint32_t first = appendClothParticles(model, cloth, mesh, pinned);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());

    if (cloth.stretch.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Stretch);
        for (auto [a, b] : mesh.stretchEdges) {
            double restLength = glm::length(positionOf(model, first + a) - positionOf(model, first + b));
            model.distance.push_back({first + a, first + b, static_cast<float>(restLength), material});
        }
    }

    const uint32_t firstTriangle = appendTriangles(model, mesh.triangles, first);

    if (cloth.bending.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Bending);
        const MeshEdges edges = findMeshEdges(std::span(model.triangles).subspan(size_t(firstTriangle) * 3));
        diagnostics.nonManifoldEdges += edges.nonManifoldCount;
        for (const InteriorEdge& edge : edges.interior) {
            glm::uvec4 particles(edge.v0, edge.v1, edge.opposite0, edge.opposite1);
            std::optional<IsometricBendingRest> rest =
                isometricBendingRest(positionOf(model, particles.x), positionOf(model, particles.y),
                                     positionOf(model, particles.z), positionOf(model, particles.w));
            if (!rest) {
                ++diagnostics.degenerateBendingEdges;
                continue;
            }
            model.bending.push_back({particles, rest->K, rest->scale, material, 0.0f, 0.0f});
        }
    }

    if (cloth.pinsAsAttachments && cloth.attachment.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Attachment);
        for (uint32_t v = 0; v < vertexCount; ++v)
            if (pinned[v]) model.attachments.push_back({glm::vec4(glm::vec3(model.positions[first + v]), 1.0f),
                                                        first + v, material, 0.0f, 0.0f});
    }

    if (cloth.shapeMatching.enabled) {
        // The masses appendClothParticles spreads, pinned vertices' too.
        std::vector<double> masses(vertexCount);
        for (uint32_t v = 0; v < vertexCount; ++v)
            masses[v] = mesh.massShares.empty() ? double(cloth.mass) / double(vertexCount)
                                                : double(cloth.mass) * mesh.massShares[v];
        appendShapeMatchGroup(model, cloth.shapeMatching, first, masses);
    }

    model.objects.push_back({cloth.name, first, vertexCount, firstTriangle,
                             static_cast<uint32_t>(mesh.triangles.size() / 3), cloth.color, cloth.drag});
}

// ---------------------------------------------------------------------------
// Projective dynamics objects (docs/physics.md §5). Rest shapes are the positions as
// uploaded (float), widened to double, like the PBD constraints'.

// Records the elements of `family` appended since `begin` as the group of
// `owner`'s params, and writes their weights and ranges (pd_materials.h).
void addWeightGroup(PdModel& pd, PdOwner owner, PdFamily family, size_t begin, std::vector<double> unitWeights,
                    const PdParams& params) {
    if (unitWeights.empty()) return;
    PdWeightGroup group{owner, family, static_cast<uint32_t>(begin),
                        static_cast<uint32_t>(begin + unitWeights.size()), std::move(unitWeights)};
    applyPdParams(pd, group, params);
    pd.weightGroups.push_back(std::move(group));
}

// The pinned vertices (of `first`'s object) as attachments to where they
// start, in one weight group of `owner`.
void addPdAttachments(SimModel& model, PdOwner owner, uint32_t first, const std::vector<bool>& pinned,
                      const PdParams& params) {
    const size_t begin = model.pd.attachments.size();
    for (uint32_t v = 0; v < pinned.size(); ++v)
        if (pinned[v])
            model.pd.attachments.push_back({glm::vec4(glm::vec3(model.positions[first + v]), 1.0f), first + v,
                                            0.0f, 0.0f, 0.0f});
    addWeightGroup(model.pd, owner, PdFamily::Attachments, begin,
                   std::vector<double>(model.pd.attachments.size() - begin, 1.0), params);
}

// Triangle strain: the rest triangle in a 2D frame (t1 along the first edge,
// t2 in the plane), Dm = [X1 - X0, X2 - X0] in that frame, g_1 and g_2 the
// rows of Dm^-1, so that F = [q1 - q0, q2 - q0] Dm^-1 = sum_k q_k g_k^T.
// Weight and range: addWeightGroup (unit weight = rest area).
gpu::PdTriangle pdTriangle(const SimModel& model, glm::uvec3 t, const std::string& owner, uint32_t index,
                           double& area) {
    const glm::dvec3 x0 = positionOf(model, t.x), e1 = positionOf(model, t.y) - x0, e2 = positionOf(model, t.z) - x0;
    const glm::dvec3 n = glm::cross(e1, e2);
    area = 0.5 * glm::length(n);
    const double longest = std::max({glm::length(e1), glm::length(e2), glm::length(e2 - e1)});
    if (!(area > 1e-12 * longest * longest))
        throw std::invalid_argument(fmt::format("{}: triangle {} (vertices {}, {}, {}) is degenerate (area {:.3g})",
                                                owner, index, t.x, t.y, t.z, area));
    const glm::dvec3 t1 = glm::normalize(e1), t2 = glm::normalize(glm::cross(n, e1));
    const glm::dmat2 Dm(glm::dvec2(glm::dot(e1, t1), 0.0), glm::dvec2(glm::dot(e2, t1), glm::dot(e2, t2)));
    const glm::dmat2 Bm = glm::inverse(Dm);  // Bm[column][row]
    gpu::PdTriangle triangle{};
    triangle.particles = glm::uvec4(t, 0u);
    triangle.gradients = glm::vec4(glm::dvec4(Bm[0][0], Bm[1][0], Bm[0][1], Bm[1][1]));
    return triangle;
}

void appendPdCloth(SimModel& model, const ClothObject& cloth, uint32_t index, ModelDiagnostics& diagnostics) {
    const PdClothParams& pd = cloth.pd;
    const std::string owner = fmt::format("cloth '{}'", cloth.name);
    validatePdParams(pd.stretch, owner + " stretch");
    validatePdParams(pd.strain, owner + " strain");
    validatePdParams(pd.bending, owner + " bending");
    validatePdParams(pd.attachment, owner + " attachment");
    const PdOwner groupOwner{PdOwner::Kind::Cloth, index};
    const ClothGeometry mesh = buildClothGeometry(cloth);
    const std::vector<bool>& pinned = mesh.pinned;
    const uint32_t first = appendClothParticles(model, cloth, mesh, pinned);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());

    if (pd.stretch.enabled) {
        const size_t begin = model.pd.springs.size();
        for (auto [a, b] : mesh.stretchEdges) {
            const double restLength = glm::length(positionOf(model, first + a) - positionOf(model, first + b));
            model.pd.springs.push_back({first + a, first + b, static_cast<float>(restLength), 0.0f});
        }
        addWeightGroup(model.pd, groupOwner, PdFamily::Springs, begin,
                       std::vector<double>(model.pd.springs.size() - begin, 1.0), pd.stretch);
    }
    if (pd.strain.enabled) {
        const size_t begin = model.pd.triangles.size();
        std::vector<double> areas(mesh.triangles.size() / 3);
        for (uint32_t t = 0; t < mesh.triangles.size() / 3; ++t) {
            const glm::uvec3 triangle(first + mesh.triangles[3 * t], first + mesh.triangles[3 * t + 1],
                                      first + mesh.triangles[3 * t + 2]);
            model.pd.triangles.push_back(pdTriangle(model, triangle, owner, t, areas[t]));
        }
        addWeightGroup(model.pd, groupOwner, PdFamily::Triangles, begin, std::move(areas), pd.strain);
    }

    const uint32_t firstTriangle = appendTriangles(model, mesh.triangles, first);

    if (pd.bending.enabled) {
        const size_t begin = model.pd.bending.size();
        std::vector<double> scales;
        const MeshEdges edges = findMeshEdges(std::span(model.triangles).subspan(size_t(firstTriangle) * 3));
        diagnostics.nonManifoldEdges += edges.nonManifoldCount;
        for (const InteriorEdge& edge : edges.interior) {
            const glm::uvec4 particles(edge.v0, edge.v1, edge.opposite0, edge.opposite1);
            const std::array<glm::dvec3, 4> x{positionOf(model, particles.x), positionOf(model, particles.y),
                                              positionOf(model, particles.z), positionOf(model, particles.w)};
            std::optional<IsometricBendingRest> rest = isometricBendingRest(x[0], x[1], x[2], x[3]);
            if (!rest) {
                ++diagnostics.degenerateBendingEdges;
                continue;
            }
            const glm::dvec4 K(rest->K);
            const double restNorm = glm::length(K.x * x[0] + K.y * x[1] + K.z * x[2] + K.w * x[3]);
            model.pd.bending.push_back({particles, rest->K, 0.0f, static_cast<float>(restNorm), 0.0f, 0.0f});
            scales.push_back(rest->scale);
        }
        addWeightGroup(model.pd, groupOwner, PdFamily::Bending, begin, std::move(scales), pd.bending);
    }

    if (cloth.pinsAsAttachments && pd.attachment.enabled)
        addPdAttachments(model, groupOwner, first, pinned, pd.attachment);

    model.objects.push_back({cloth.name, first, vertexCount, firstTriangle,
                             static_cast<uint32_t>(mesh.triangles.size() / 3), cloth.color, cloth.drag});
}

// Vertices of a box's face, from the grid numbering of buildTetBox.
bool onBoxFace(uint32_t vertex, glm::uvec3 cells, BoxFace face) {
    const uint32_t i = vertex % (cells.x + 1);
    const uint32_t j = (vertex / (cells.x + 1)) % (cells.y + 1);
    const uint32_t k = vertex / ((cells.x + 1) * (cells.y + 1));
    switch (face) {
        case BoxFace::MinusX: return i == 0;
        case BoxFace::PlusX: return i == cells.x;
        case BoxFace::MinusY: return j == 0;
        case BoxFace::PlusY: return j == cells.y;
        case BoxFace::MinusZ: return k == 0;
        case BoxFace::PlusZ: return k == cells.z;
    }
    return false;
}

// Tet strain and volume share the data: g_1..g_3 are the rows of Dm^-1,
// Dm = [X1 - X0, X2 - X0, X3 - X0], so F = sum_k q_k g_k^T. Weight and
// range: addWeightGroup (unit weight = rest volume).
gpu::PdTetrahedron pdTetrahedron(const SimModel& model, glm::uvec4 t, double& volume) {
    const glm::dvec3 x0 = positionOf(model, t.x);
    const glm::dmat3 Dm(positionOf(model, t.y) - x0, positionOf(model, t.z) - x0, positionOf(model, t.w) - x0);
    const glm::dmat3 Bm = glm::inverse(Dm);  // Bm[column][row]
    gpu::PdTetrahedron tet{};
    tet.particles = t;
    tet.g1 = glm::vec4(glm::vec3(glm::dvec3(Bm[0][0], Bm[1][0], Bm[2][0])), 0.0f);
    tet.g2 = glm::vec4(glm::vec3(glm::dvec3(Bm[0][1], Bm[1][1], Bm[2][1])), 0.0f);
    tet.g3 = glm::vec4(glm::vec3(glm::dvec3(Bm[0][2], Bm[1][2], Bm[2][2])), 0.0f);
    volume = glm::determinant(Dm) / 6.0;
    return tet;
}

// A "tetMesh" object's tetrahedra (TetGen files or a tetgen run, loaded with
// the scene) in its local frame: scaled from the files' units.
TetMesh scaledTetMesh(const SolidObject& solid, const std::string& owner) {
    if (!solid.tetMesh) throw std::invalid_argument(owner + ": no tetrahedral mesh loaded");
    if (!(solid.meshScale > 0.0f) || !std::isfinite(solid.meshScale))
        throw std::invalid_argument(fmt::format("{}: scale must be positive (got {})", owner, solid.meshScale));
    TetMesh mesh = *solid.tetMesh;
    for (glm::dvec3& p : mesh.positions) p *= double(solid.meshScale);
    return mesh;
}

void appendSolid(SimModel& model, const SolidObject& solid, uint32_t index) {
    const std::string owner = fmt::format("solid '{}'", solid.name);
    const PdOwner groupOwner{PdOwner::Kind::Solid, index};
    if (!(solid.mass > 0.0f) || !std::isfinite(solid.mass))
        throw std::invalid_argument(fmt::format("{}: mass must be positive (got {})", owner, solid.mass));
    validatePdParams(solid.strain, owner + " strain");
    validatePdParams(solid.volume, owner + " volume");
    validatePdParams(solid.attachment, owner + " attachment");
    if (solid.shape != SolidShape::Box && !solid.pinnedFaces.empty())
        throw std::invalid_argument(fmt::format("{}: only boxes have pinned faces", owner));
    const TetMesh mesh = solid.shape == SolidShape::Box    ? buildTetBox(glm::dvec3(solid.size), solid.cells)
                         : solid.shape == SolidShape::Ball ? buildTetBall(solid.radius, solid.cellsAcross)
                                                           : scaledTetMesh(solid, owner);
    const glm::dvec4 rotation = glm::dvec4(solid.rotation);
    if (!(glm::length(rotation) > 1e-12))
        throw std::invalid_argument(fmt::format("{}: rotation quaternion cannot be normalised", owner));

    const uint32_t first = model.particleCount();
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());
    std::vector<glm::dvec3> world;
    for (const glm::dvec3& local : mesh.positions)
        world.push_back(glm::dvec3(glm::vec3(glm::dvec3(solid.position) +
                                             ref::quatRotate(rotation / glm::length(rotation), local))));
    validateTets(world, mesh.tets, owner);
    const std::vector<double> masses = lumpedTetMasses(world, mesh.tets, solid.mass);
    std::vector<bool> pinned(vertexCount, false);
    for (BoxFace face : solid.pinnedFaces)
        for (uint32_t v = 0; v < vertexCount; ++v) pinned[v] = pinned[v] || onBoxFace(v, solid.cells, face);
    if (solid.shape != SolidShape::Mesh && !solid.pinnedVertices.empty())
        throw std::invalid_argument(fmt::format("{}: only tetrahedral meshes have pinned vertices", owner));
    for (uint32_t v : solid.pinnedVertices) {
        if (v >= vertexCount)
            throw std::invalid_argument(
                fmt::format("{}: pinned vertex {} is out of range (the mesh has {})", owner, v, vertexCount));
        pinned[v] = true;
    }
    const bool pinsAreHard = !solid.pinsAsAttachments;
    for (uint32_t v = 0; v < vertexCount; ++v) {
        const bool fixed = pinsAreHard && pinned[v];
        model.positions.emplace_back(glm::vec3(world[v]),
                                     fixed ? 0.0f : checkedInverseMass(1.0 / masses[v], solid.mass, vertexCount, owner));
        model.velocities.emplace_back(fixed ? glm::vec3(0.0f) : solid.initialVelocity, 0.0f);
    }
    const size_t strainBegin = model.pd.tetStrain.size(), volumeBegin = model.pd.tetVolume.size();
    std::vector<double> volumes(mesh.tets.size());
    for (size_t e = 0; e < mesh.tets.size(); ++e) {
        const gpu::PdTetrahedron tet = pdTetrahedron(model, mesh.tets[e] + glm::uvec4(first), volumes[e]);
        if (solid.strain.enabled) model.pd.tetStrain.push_back(tet);
        if (solid.volume.enabled) model.pd.tetVolume.push_back(tet);
    }
    if (solid.strain.enabled)
        addWeightGroup(model.pd, groupOwner, PdFamily::TetStrain, strainBegin, volumes, solid.strain);
    if (solid.volume.enabled)
        addWeightGroup(model.pd, groupOwner, PdFamily::TetVolume, volumeBegin, volumes, solid.volume);
    if (solid.pinsAsAttachments && solid.attachment.enabled)
        addPdAttachments(model, groupOwner, first, pinned, solid.attachment);
    const uint32_t firstTriangle = appendTriangles(model, mesh.surface, first);
    model.objects.push_back(
        {solid.name, first, vertexCount, firstTriangle, static_cast<uint32_t>(mesh.surface.size() / 3), solid.color});
}

// ---------------------------------------------------------------------------
// Mass-spring cloths (docs/physics.md §9), after every PD particle. Rest
// lengths, angles and Bergou's matrix come from the positions as uploaded
// (float), widened to double, like the other solvers' rest shapes.

void appendSpringCloth(SimModel& model, const ClothObject& cloth, uint32_t index, ModelDiagnostics& diagnostics) {
    if (cloth.pinsAsAttachments)
        throw std::invalid_argument(fmt::format(
            R"(cloth '{}': pinsAsAttachments is not available with "method": "springs" (pinned vertices are fixed))",
            cloth.name));
    const ClothGeometry mesh = buildClothGeometry(cloth);
    const uint32_t first = appendClothParticles(model, cloth, mesh, mesh.pinned);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());
    std::vector<glm::dvec3> rest(vertexCount);
    for (uint32_t v = 0; v < vertexCount; ++v) rest[v] = positionOf(model, first + v);

    SpringSource source;
    source.cloth = index;
    source.firstParticle = first;
    source.rest = rest;
    source.triangles = mesh.triangles;
    if (!cloth.mesh) {
        source.gridColumns = cloth.grid.resolution.x;
        source.gridRows = cloth.grid.resolution.y;
    }
    source.params = cloth.springs;
    try {
        appendSpringObject(model.springs, source);
    } catch (const std::invalid_argument& error) {  // name the cloth as the other builders do
        throw std::invalid_argument(fmt::format("cloth '{}': {}", cloth.name, error.what()));
    }
    const SpringCounts& counts = model.springs.objects.back().counts;
    diagnostics.nonManifoldEdges += counts.nonManifoldEdges;
    diagnostics.degenerateBendingEdges += counts.degenerateQuadratic;

    const uint32_t firstTriangle = appendTriangles(model, mesh.triangles, first);
    model.objects.push_back({cloth.name, first, vertexCount, firstTriangle,
                             static_cast<uint32_t>(mesh.triangles.size() / 3), cloth.color});
}

}  // namespace

gpu::Collider toCollider(const ColliderDesc& desc) {
    gpu::Collider collider{};
    collider.position = glm::vec4(desc.position, -1.0f);  // unbounded until attachMeshColliders sets the bound
    float norm = glm::length(desc.rotation);
    if (!std::isfinite(norm) || norm < 1e-6f)
        throw std::invalid_argument(fmt::format("collider '{}': rotation quaternion cannot be normalised", desc.name));
    collider.rotation = desc.rotation / norm;
    collider.linearVelocity = glm::vec4(desc.linearVelocity, 0.0f);
    collider.angularVelocity = glm::vec4(desc.angularVelocity, 0.0f);
    switch (desc.shape) {
        case ColliderShape::Plane:
            collider.type = gpu::kColliderPlane;
            collider.size = glm::vec4(0.0f);
            break;
        case ColliderShape::Sphere:
            collider.type = gpu::kColliderSphere;
            collider.size = glm::vec4(desc.radius, 0.0f, 0.0f, 0.0f);
            break;
        case ColliderShape::Box:
            collider.type = gpu::kColliderBox;
            collider.size = glm::vec4(desc.halfExtents, 0.0f);
            break;
        case ColliderShape::Capsule:
            collider.type = gpu::kColliderCapsule;
            collider.size = glm::vec4(desc.radius, desc.halfLength, 0.0f, 0.0f);
            break;
        case ColliderShape::Mesh:  // size.x, the grid's offset, is set by attachMeshColliders
            collider.type = gpu::kColliderMesh;
            collider.size = glm::vec4(0.0f, desc.meshScale, 0.0f, 0.0f);
            break;
    }
    collider.thickness = desc.thickness;
    collider.friction = desc.friction;
    collider.restitution = desc.restitution;
    return collider;
}

namespace {

// Runs `append` for the object at `source` ("/objects/2") of `scene`; what it
// refuses is reported as "<scene file>: <source>: <problem>", the form of the
// loader's errors (a scene built in code has neither, and keeps the bare problem).
template <typename Append>
void forObject(const Scene& scene, const std::string& source, Append&& append) {
    try {
        append();
    } catch (const std::invalid_argument& error) {
        std::string where = scene.path.empty() ? std::string() : scene.path + ": ";
        if (!source.empty()) where += source + ": ";
        if (where.empty()) throw;
        throw std::invalid_argument(where + error.what());
    }
}


// docs/physics.md §1: the PBD families sorted by colour, each on its own or
// all together. Together, the bending constraints are coloured first: at a
// grid's interior vertex they are 16 of its 24 constraints, and the greedy
// colouring wastes fewest colours placing the most constrained family first
// (the default cloth: 25 colours; distance first, 26, the families' own
// count). Then the colours are swept last first: the greedy puts the
// distance constraints in the colours the bending ones left, mostly the
// last, and sweeping those first projects the stiff family before most of
// the soft one, as the families' own order does. Swept in colouring order,
// a swinging XPBD cloth's objective stood well above the families' order's
// after 12 iterations of one substep; swept last first, below it, its mean
// |C| slightly above (docs/physics.md §1, "One colouring across the
// families"; tests/unit/colour_steps_test.cpp).
void colourPbdConstraints(SimModel& model, PbdColouring colouring) {
    auto distanceParticles = [](const gpu::DistanceConstraint& c) { return std::array{c.p0, c.p1}; };
    auto bendingParticles = [](const gpu::BendingConstraint& c) {
        return std::array{c.particles.x, c.particles.y, c.particles.z, c.particles.w};
    };
    auto attachmentParticles = [](const gpu::AttachmentConstraint& c) { return std::array{c.particle}; };
    model.colouring = colouring;
    if (colouring == PbdColouring::PerFamily) {
        model.distanceGroups = colourAndSortByColour(model.distance, distanceParticles);
        model.bendingGroups = colourAndSortByColour(model.bending, bendingParticles);
        model.attachmentGroups = colourAndSortByColour(model.attachments, attachmentParticles);
        return;
    }
    const std::vector<uint32_t> bending = constraintParticles(model.bending, bendingParticles);
    const std::vector<uint32_t> distance = constraintParticles(model.distance, distanceParticles);
    const std::vector<uint32_t> attachments = constraintParticles(model.attachments, attachmentParticles);
    const std::span<const uint32_t> families[] = {bending, distance, attachments};
    const uint32_t arities[] = {4, 2, 1};
    std::vector<Colouring> colourings = colourAcrossFamilies(families, arities);
    for (Colouring& colouring : colourings)
        for (uint32_t& colour : colouring.colourOf)
            if (colour != kOverflow) colour = colouring.colourCount - 1 - colour;
    model.bendingGroups = sortByColour(model.bending, colourings[0]);
    model.distanceGroups = sortByColour(model.distance, colourings[1]);
    model.attachmentGroups = sortByColour(model.attachments, colourings[2]);
}

}  // namespace

SimModel buildModel(const Scene& scene, ModelDiagnostics* diagnostics) {
    if (scene.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument(fmt::format("scene '{}': {} colliders, at most {} are supported", scene.name,
                                                scene.colliders.size(), gpu::kMaxColliders));
    SimModel model;
    ModelDiagnostics found;
    // One material row per family of every cloth, at materialIndex(cloth index, family).
    for (const ClothObject& cloth : scene.cloths) {
        model.materials.push_back(toMaterial(cloth.stretch));
        model.materials.push_back(toMaterial(cloth.bending));
        model.materials.push_back(toMaterial(cloth.attachment));
    }
    // PBD particles first, then projective dynamics ones (SimModel::pd).
    for (uint32_t object = 0; object < scene.cloths.size(); ++object)
        if (scene.cloths[object].method == SolverMethod::Pbd)
            forObject(scene, scene.cloths[object].source, [&] { appendCloth(model, scene.cloths[object], object, found); });
    model.pd.firstParticle = model.particleCount();
    for (uint32_t object = 0; object < scene.cloths.size(); ++object)
        if (scene.cloths[object].method == SolverMethod::Pd)
            forObject(scene, scene.cloths[object].source,
                      [&] { appendPdCloth(model, scene.cloths[object], object, found); });
    for (uint32_t object = 0; object < scene.solids.size(); ++object)
        forObject(scene, scene.solids[object].source, [&] { appendSolid(model, scene.solids[object], object); });
    model.pd.particleCount = model.particleCount() - model.pd.firstParticle;
    if (!model.pd.empty()) buildPdSystem(model.pd, model.positions);
    // Mass-spring particles last (SimModel::springs).
    model.springs.firstParticle = model.particleCount();
    for (uint32_t object = 0; object < scene.cloths.size(); ++object)
        if (scene.cloths[object].method == SolverMethod::Springs)
            forObject(scene, scene.cloths[object].source,
                      [&] { appendSpringCloth(model, scene.cloths[object], object, found); });
    model.springs.particleCount = model.particleCount() - model.springs.firstParticle;
    if (!model.springs.empty()) buildSpringSystem(model.springs);

    colourPbdConstraints(model, scene.solver.pbd.colouring);

    for (const ColliderDesc& desc : scene.colliders) model.colliders.push_back(toCollider(desc));
    attachMeshColliders(scene.colliders, model);
    // Its messages name the body's JSON path themselves.
    forObject(scene, "", [&] { model.rigid = buildRigidModel(scene.bodies); });
    attachMeshBodies(scene.bodies, model);

    VertexTriangles adjacency = vertexTriangleAdjacency(model.triangles, model.particleCount());
    model.adjacencyOffsets = std::move(adjacency.offsets);
    model.adjacentTriangles = std::move(adjacency.triangles);

    if (diagnostics) *diagnostics = found;
    return model;
}

}  // namespace vksim
