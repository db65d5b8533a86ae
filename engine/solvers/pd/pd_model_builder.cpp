#include "solvers/pd/pd_model_builder.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/isometric_bending.h"
#include "geometry/shared_math.h"
#include "geometry/tet_mesh.h"
#include "geometry/triangle_mesh.h"
#include "io/quoted_input.h"
#include "model/cloth_geometry.h"
#include "model/solid_geometry.h"
#include "solvers/pd/pd_materials.h"

namespace vksim {
namespace {

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
void addPdAttachments(const SharedModel& model, PdModel& pd, PdOwner owner, uint32_t first,
                      const std::vector<bool>& pinned, const PdParams& params) {
    const size_t begin = pd.attachments.size();
    for (uint32_t v = 0; v < pinned.size(); ++v)
        if (pinned[v])
            pd.attachments.push_back({glm::vec4(glm::vec3(model.positions[first + v]), 1.0f), first + v,
                                            0.0f, 0.0f, 0.0f});
    addWeightGroup(pd, owner, PdFamily::Attachments, begin,
                   std::vector<double>(pd.attachments.size() - begin, 1.0), params);
}

// Triangle strain: the rest triangle in a 2D frame (t1 along the first edge,
// t2 in the plane), Dm = [X1 - X0, X2 - X0] in that frame, g_1 and g_2 the
// rows of Dm^-1, so that F = [q1 - q0, q2 - q0] Dm^-1 = sum_k q_k g_k^T.
// Weight and range: addWeightGroup (unit weight = rest area).
gpu::PdTriangle pdTriangle(const SharedModel& model, glm::uvec3 t, const std::string& owner, uint32_t index,
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

// Tet strain and volume share the data: g_1..g_3, so F = sum_k q_k g_k^T.
// Weight and range: addWeightGroup (unit weight = rest volume).
gpu::PdTetrahedron pdTetrahedron(const TetRest& rest, glm::uvec4 t) {
    gpu::PdTetrahedron tet{};
    tet.particles = t;
    tet.g1 = glm::vec4(glm::vec3(rest.g1), 0.0f);
    tet.g2 = glm::vec4(glm::vec3(rest.g2), 0.0f);
    tet.g3 = glm::vec4(glm::vec3(rest.g3), 0.0f);
    return tet;
}


}  // namespace

void appendPdCloth(SharedModel& model, PdModel& pd, const ClothObject& cloth, uint32_t index,
                   ModelDiagnostics& diagnostics) {
    const PdClothParams& params = cloth.pd;
    const std::string owner = fmt::format("cloth '{}'", clipInput(cloth.name));
    validatePdParams(params.stretch, owner + " stretch");
    validatePdParams(params.strain, owner + " strain");
    validatePdParams(params.bending, owner + " bending");
    validatePdParams(params.attachment, owner + " attachment");
    const PdOwner groupOwner{PdOwner::Kind::Cloth, index};
    const ClothGeometry mesh = buildClothGeometry(cloth);
    const std::vector<bool>& pinned = mesh.pinned;
    const uint32_t first = appendClothParticles(model, cloth, mesh, pinned);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());

    if (params.stretch.enabled) {
        const size_t begin = pd.springs.size();
        for (auto [a, b] : mesh.stretchEdges) {
            const double restLength = glm::length(positionOf(model, first + a) - positionOf(model, first + b));
            pd.springs.push_back({first + a, first + b, static_cast<float>(restLength), 0.0f});
        }
        addWeightGroup(pd, groupOwner, PdFamily::Springs, begin,
                       std::vector<double>(pd.springs.size() - begin, 1.0), params.stretch);
    }
    if (params.strain.enabled) {
        const size_t begin = pd.triangles.size();
        std::vector<double> areas(mesh.triangles.size() / 3);
        for (uint32_t t = 0; t < mesh.triangles.size() / 3; ++t) {
            const glm::uvec3 triangle(first + mesh.triangles[3 * t], first + mesh.triangles[3 * t + 1],
                                      first + mesh.triangles[3 * t + 2]);
            pd.triangles.push_back(pdTriangle(model, triangle, owner, t, areas[t]));
        }
        addWeightGroup(pd, groupOwner, PdFamily::Triangles, begin, std::move(areas), params.strain);
    }

    const uint32_t firstTriangle = appendTriangles(model, mesh.triangles, first);

    if (params.bending.enabled) {
        const size_t begin = pd.bending.size();
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
            pd.bending.push_back({particles, rest->K, 0.0f, static_cast<float>(restNorm), 0.0f, 0.0f});
            scales.push_back(rest->scale);
        }
        addWeightGroup(pd, groupOwner, PdFamily::Bending, begin, std::move(scales), params.bending);
    }

    if (cloth.pinsAsAttachments && params.attachment.enabled)
        addPdAttachments(model, pd, groupOwner, first, pinned, params.attachment);
    appendSolvedTethers(model, cloth, mesh, first);

    model.objects.push_back({cloth.name, first, vertexCount, firstTriangle,
                             static_cast<uint32_t>(mesh.triangles.size() / 3), cloth.color, cloth.drag,
                             cloth.contacts, cloth.aero});
}

void appendPdSolid(SharedModel& model, PdModel& pd, const SolidObject& solid, uint32_t index) {
    const std::string owner = fmt::format("solid '{}'", clipInput(solid.name));
    const PdOwner groupOwner{PdOwner::Kind::Solid, index};
    PdParams strain = solid.strain, volume = solid.volume;
    if (solid.material) {
        const PdSolidWeights weights = pdWeightsOf(*solid.material);
        strain = weights.strain;
        volume = weights.volume;
    }
    validatePdParams(strain, owner + " strain");
    validatePdParams(volume, owner + " volume");
    validatePdParams(solid.attachment, owner + " attachment");
    const SolidGeometry geometry = buildSolidGeometry(solid, owner);
    const TetMesh& mesh = geometry.mesh;
    const uint32_t first = appendSolidParticles(model, solid, geometry, owner);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());

    const size_t strainBegin = pd.tetStrain.size(), volumeBegin = pd.tetVolume.size();
    std::vector<double> volumes(mesh.tets.size());
    for (size_t e = 0; e < mesh.tets.size(); ++e) {
        const glm::uvec4 particles = mesh.tets[e] + glm::uvec4(first);
        const TetRest rest = tetRest(model, particles, owner, static_cast<uint32_t>(e));
        volumes[e] = rest.volume;
        const gpu::PdTetrahedron tet = pdTetrahedron(rest, particles);
        if (strain.enabled) pd.tetStrain.push_back(tet);
        if (volume.enabled) pd.tetVolume.push_back(tet);
    }
    if (strain.enabled) addWeightGroup(pd, groupOwner, PdFamily::TetStrain, strainBegin, volumes, strain);
    if (volume.enabled) addWeightGroup(pd, groupOwner, PdFamily::TetVolume, volumeBegin, volumes, volume);
    if (solid.pinsAsAttachments && solid.attachment.enabled)
        addPdAttachments(model, pd, groupOwner, first, geometry.pinned, solid.attachment);
    const uint32_t firstTriangle = appendTriangles(model, mesh.surface, first);
    model.objects.push_back(
        {solid.name, first, vertexCount, firstTriangle, static_cast<uint32_t>(mesh.surface.size() / 3), solid.color,
         0.0f, solid.contacts});
}


}  // namespace vksim
