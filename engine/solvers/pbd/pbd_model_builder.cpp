#include "solvers/pbd/pbd_model_builder.h"

#include <array>
#include <optional>
#include <span>

#include <fmt/format.h>

#include "geometry/isometric_bending.h"
#include "geometry/shared_math.h"
#include "io/quoted_input.h"
#include "geometry/triangle_mesh.h"
#include "model/cloth_geometry.h"
#include "model/graph_colouring.h"
#include "model/solid_geometry.h"
#include "model/tethers.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/shape_match_builder.h"

namespace vksim {

gpu::ConstraintMaterial toMaterial(const ConstraintParams& params) {
    return {params.model == ConstraintModel::Xpbd ? gpu::kModeXpbd : gpu::kModePbd, params.stiffness,
            params.compliance, 0.0f};
}

void appendPbdMaterials(PbdModel& pbd, const std::vector<ClothObject>& cloths) {
    for (const ClothObject& cloth : cloths) {
        pbd.materials.push_back(toMaterial(cloth.stretch));
        pbd.materials.push_back(toMaterial(cloth.bending));
        pbd.materials.push_back(toMaterial(cloth.attachment));
        const bool tears = cloth.tearing.enabled && cloth.method == SolverMethod::Pbd;
        pbd.tearStrains.insert(pbd.tearStrains.end(), {tears ? cloth.tearing.strain : 0.0f, 0.0f, 0.0f});
    }
}

namespace {

// A tearing cloth's spare particles for split vertices (docs/physics.md §1,
// "Tearing"; pbd_splitting.h), at the end of its range so that the range
// stays one piece (the workgroup path holds it in shared memory). Until a
// split takes one, a spare particle is inert: inverse mass 0 (no motion, no
// collision, no energy), at rest on the cloth's first vertex, in no triangle
// and no constraint. Returns how many.
uint32_t appendSpareParticles(SharedModel& model, PbdModel& pbd, const ClothObject& cloth, uint32_t first,
                              uint32_t vertexCount, uint32_t firstTriangle, uint32_t triangleCount) {
    if (!cloth.tearing.enabled || cloth.method != SolverMethod::Pbd) return 0;
    const uint32_t spares = cloth.tearing.spareParticles(vertexCount);
    if (spares == 0) return 0;
    std::vector<uint32_t> fans(vertexCount, 0);
    for (uint32_t t = firstTriangle; t < firstTriangle + triangleCount; ++t)
        for (uint32_t k = 0; k < 3; ++k) ++fans[model.triangles[3 * size_t(t) + k] - first];
    for (uint32_t v = 0; v < vertexCount; ++v)
        if (fans[v] > gpu::kSplitMaxFan)
            throw std::invalid_argument(fmt::format(
                "cloth '{}': vertex {} is in {} triangles, and splitting vertices (\"tearing\": {{\"capacity\"}}) "
                "takes at most {}; set \"capacity\": 0",
                clipInput(cloth.name), v, fans[v], gpu::kSplitMaxFan));
    const glm::vec3 rest(model.positions[first]);
    for (uint32_t k = 0; k < spares; ++k) {
        model.positions.emplace_back(rest, 0.0f);
        model.velocities.emplace_back(0.0f);
    }
    const uint32_t threads = pbd.splitCloths.empty() ? 0
                                                     : pbd.splitCloths.back().firstThread +
                                                           pbd.splitCloths.back().vertexCount +
                                                           pbd.splitCloths.back().spareCount;
    const uint32_t triangleThreads =
        pbd.splitCloths.empty() ? 0 : pbd.splitCloths.back().firstTriangleThread + pbd.splitCloths.back().triangleCount;
    pbd.splitCloths.push_back({first, vertexCount, spares, firstTriangle, triangleCount, threads, triangleThreads, 0});
    return spares;
}

}  // namespace

void appendPbdCloth(SharedModel& model, PbdModel& pbd, const ClothObject& cloth, uint32_t object,
                    ModelDiagnostics& diagnostics) {
    const ClothGeometry mesh = buildClothGeometry(cloth);
    const std::vector<bool>& pinned = mesh.pinned;
    const uint32_t first = appendClothParticles(model, cloth, mesh, pinned);
    const auto vertexCount = static_cast<uint32_t>(mesh.positions.size());

    if (cloth.stretch.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Stretch);
        for (auto [a, b] : mesh.stretchEdges) {
            double restLength = glm::length(positionOf(model, first + a) - positionOf(model, first + b));
            pbd.distance.push_back({first + a, first + b, static_cast<float>(restLength), material});
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
            pbd.bending.push_back({particles, rest->K, rest->scale, material, 0.0f, 0.0f});
        }
    }

    if (cloth.pinsAsAttachments && cloth.attachment.enabled) {
        const uint32_t material = materialIndex(object, ConstraintFamily::Attachment);
        for (uint32_t v = 0; v < vertexCount; ++v)
            if (pinned[v]) pbd.attachments.push_back({glm::vec4(glm::vec3(model.positions[first + v]), 1.0f),
                                                        first + v, material, 0.0f, 0.0f});
    }

    // Tethers (docs/physics.md §1, "Tethers"): attachments of length
    // (1 + slack) d to the nearest pin's rest position, in the attachment
    // family and its material. A pinned vertex has none, so each attachment
    // still moves a particle of its own and all of them fit one colour.
    const double tetherScale = 1.0 + double(cloth.tethers.slack);
    for (const TetherAnchor& t : findTetherAnchors(mesh.positions, mesh.triangles, pinned, cloth.tethers.mode))
        pbd.attachments.push_back({glm::vec4(glm::vec3(model.positions[first + t.anchor]), 1.0f), first + t.vertex,
                                   materialIndex(object, ConstraintFamily::Attachment),
                                   static_cast<float>(tetherScale * t.restDistance), 0.0f});

    if (cloth.shapeMatching.enabled) {
        // The masses appendClothParticles spreads, pinned vertices' too.
        std::vector<double> masses(vertexCount);
        for (uint32_t v = 0; v < vertexCount; ++v)
            masses[v] = mesh.massShares.empty() ? double(cloth.mass) / double(vertexCount)
                                                : double(cloth.mass) * mesh.massShares[v];
        appendShapeMatchGroup(model, pbd, cloth.shapeMatching, first, masses);
    }

    const auto triangleCount = static_cast<uint32_t>(mesh.triangles.size() / 3);
    const uint32_t spares = appendSpareParticles(model, pbd, cloth, first, vertexCount, firstTriangle, triangleCount);
    model.objects.push_back({cloth.name, first, vertexCount + spares, firstTriangle, triangleCount, cloth.color,
                             cloth.drag, cloth.contacts, cloth.aero});
    model.objects.back().spareParticles = spares;
}

// docs/physics.md §16, "XPBD for solids": the solid's tetrahedra with their rest shapes as
// uploaded (tetRest), all pointing at the solid's elastic row.
void appendXpbdSolid(SharedModel& model, PbdModel& pbd, const SolidObject& solid, uint32_t index) {
    const std::string owner = fmt::format("solid '{}'", clipInput(solid.name));
    if (!solid.material) throw std::invalid_argument(owner + ": \"method\": \"xpbd\" needs a \"material\"");
    const SolidGeometry geometry = buildSolidGeometry(solid, owner);
    const TetMesh& mesh = geometry.mesh;
    const uint32_t first = appendSolidParticles(model, solid, geometry, owner);
    const auto row = static_cast<uint32_t>(pbd.elasticMaterials.size());
    pbd.elasticMaterials.push_back(elasticMaterialRow(*solid.material));
    pbd.elasticMaterialSolids.push_back(index);
    uint32_t volumeMaterial = gpu::kNoVolumeConstraint;
    if (solid.volumeConstraintStiffness) {
        const float k = *solid.volumeConstraintStiffness;
        if (!(k >= 0.0f && k <= 1.0f))
            throw std::invalid_argument(fmt::format("{}: volume constraint stiffness {} is not in [0, 1]", owner, k));
        volumeMaterial = static_cast<uint32_t>(pbd.materials.size());
        pbd.materials.push_back({gpu::kModePbd, k, 0.0f, 0.0f});
    }
    for (size_t e = 0; e < mesh.tets.size(); ++e) {
        const glm::uvec4 particles = mesh.tets[e] + glm::uvec4(first);
        const TetRest rest = tetRest(model, particles, owner, static_cast<uint32_t>(e));
        pbd.tetrahedra.push_back({particles, glm::vec4(glm::vec3(rest.g1), static_cast<float>(rest.volume)),
                                  glm::vec4(glm::vec3(rest.g2), 0.0f), glm::vec4(glm::vec3(rest.g3), 0.0f), row,
                                  volumeMaterial, 0, 0});
    }
    const uint32_t firstTriangle = appendTriangles(model, mesh.surface, first);
    model.objects.push_back({solid.name, first, static_cast<uint32_t>(mesh.positions.size()), firstTriangle,
                             static_cast<uint32_t>(mesh.surface.size() / 3), solid.color, 0.0f, solid.contacts});
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
void colourPbdConstraints(PbdModel& pbd, PbdColouring colouring) {
    auto distanceParticles = [](const gpu::DistanceConstraint& c) { return std::array{c.p0, c.p1}; };
    auto bendingParticles = [](const gpu::BendingConstraint& c) {
        return std::array{c.particles.x, c.particles.y, c.particles.z, c.particles.w};
    };
    auto attachmentParticles = [](const gpu::AttachmentConstraint& c) { return std::array{c.particle}; };
    auto tetrahedronParticles = [](const gpu::TetrahedronConstraint& c) {
        return std::array{c.particles.x, c.particles.y, c.particles.z, c.particles.w};
    };
    pbd.colouring = colouring;
    if (colouring == PbdColouring::PerFamily) {
        pbd.distanceGroups = colourAndSortByColour(pbd.distance, distanceParticles);
        pbd.bendingGroups = colourAndSortByColour(pbd.bending, bendingParticles);
        pbd.attachmentGroups = colourAndSortByColour(pbd.attachments, attachmentParticles);
        pbd.tetrahedronGroups = colourAndSortByColour(pbd.tetrahedra, tetrahedronParticles);
        return;
    }
    // The tetrahedra last: a cloth and a solid share no particle, so where
    // there are no tetrahedra the cloths' colours are what they were.
    const std::vector<uint32_t> bending = constraintParticles(pbd.bending, bendingParticles);
    const std::vector<uint32_t> distance = constraintParticles(pbd.distance, distanceParticles);
    const std::vector<uint32_t> attachments = constraintParticles(pbd.attachments, attachmentParticles);
    const std::vector<uint32_t> tetrahedra = constraintParticles(pbd.tetrahedra, tetrahedronParticles);
    const std::span<const uint32_t> families[] = {bending, distance, attachments, tetrahedra};
    const uint32_t arities[] = {4, 2, 1, 4};
    std::vector<Colouring> colourings = colourAcrossFamilies(families, arities);
    for (Colouring& family : colourings)
        for (uint32_t& colour : family.colourOf)
            if (colour != kOverflow) colour = family.colourCount - 1 - colour;
    pbd.bendingGroups = sortByColour(pbd.bending, colourings[0]);
    pbd.distanceGroups = sortByColour(pbd.distance, colourings[1]);
    pbd.attachmentGroups = sortByColour(pbd.attachments, colourings[2]);
    pbd.tetrahedronGroups = sortByColour(pbd.tetrahedra, colourings[3]);
}

}  // namespace vksim
