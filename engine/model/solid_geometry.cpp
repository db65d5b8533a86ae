#include "model/solid_geometry.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "model/object_builder.h"

namespace vksim {
namespace {

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

}  // namespace

void validateElasticMaterial(const ElasticMaterial& m, const std::string& where) {
    if (!(m.youngsModulus > 0.0f) || !std::isfinite(m.youngsModulus))
        throw std::invalid_argument(fmt::format("{}: Young's modulus must be positive (got {})", where, m.youngsModulus));
    if (!(m.poissonRatio >= 0.0f && m.poissonRatio < 0.5f))
        throw std::invalid_argument(fmt::format("{}: Poisson's ratio must be in [0, 0.5) (got {})", where,
                                                m.poissonRatio));
    if (!(m.density > 0.0f) || !std::isfinite(m.density))
        throw std::invalid_argument(fmt::format("{}: density must be positive (got {})", where, m.density));
}

void checkMaterialEdit(const ElasticMaterial& current, const ElasticMaterial& next, const std::string& where) {
    validateElasticMaterial(next, where);
    if (next.density != current.density)
        throw std::invalid_argument(where + ": the density is not live (it is the particles' masses): edit the "
                                            "scene and build a new World");
}

gpu::ElasticMaterialRow elasticMaterialRow(const ElasticMaterial& material) {
    const glm::dvec2 lame = ref::lameParameters(double(material.youngsModulus), double(material.poissonRatio));
    return {material.model == ElasticModel::Corotated ? gpu::kElasticCorotated : gpu::kElasticNeoHookean,
            static_cast<float>(lame.x), static_cast<float>(lame.y), 0.0f};
}

SolidGeometry buildSolidGeometry(const SolidObject& solid, const std::string& owner) {
    if (solid.material) validateElasticMaterial(*solid.material, owner);
    if (!solid.material && (!(solid.mass > 0.0f) || !std::isfinite(solid.mass)))
        throw std::invalid_argument(fmt::format("{}: mass must be positive (got {})", owner, solid.mass));
    if (solid.shape != SolidShape::Box && !solid.pinnedFaces.empty())
        throw std::invalid_argument(fmt::format("{}: only boxes have pinned faces", owner));
    if (solid.shape != SolidShape::Mesh && !solid.pinnedVertices.empty())
        throw std::invalid_argument(fmt::format("{}: only tetrahedral meshes have pinned vertices", owner));
    SolidGeometry geometry;
    geometry.mesh = solid.shape == SolidShape::Box    ? buildTetBox(glm::dvec3(solid.size), solid.cells)
                    : solid.shape == SolidShape::Ball ? buildTetBall(solid.radius, solid.cellsAcross)
                                                      : scaledTetMesh(solid, owner);
    const glm::dvec4 rotation = glm::dvec4(solid.rotation);
    if (!(glm::length(rotation) > 1e-12))
        throw std::invalid_argument(fmt::format("{}: rotation quaternion cannot be normalised", owner));
    // Placed, then rounded to the floats the particles will hold.
    for (glm::dvec3& p : geometry.mesh.positions)
        p = glm::dvec3(glm::vec3(glm::dvec3(solid.position) + ref::quatRotate(rotation / glm::length(rotation), p)));
    validateTets(geometry.mesh.positions, geometry.mesh.tets, owner);

    if (solid.material) {
        double volume = 0.0;
        for (const glm::uvec4& t : geometry.mesh.tets)
            volume += tetVolume(geometry.mesh.positions[t.x], geometry.mesh.positions[t.y],
                                geometry.mesh.positions[t.z], geometry.mesh.positions[t.w]);
        geometry.totalMass = double(solid.material->density) * volume;
        if (!(geometry.totalMass > 0.0) || !std::isfinite(float(geometry.totalMass)))
            throw std::invalid_argument(fmt::format(
                "{}: density {} kg/m^3 times the rest volume {:.6g} m^3 gives a mass of {:.6g} kg, which a 32-bit "
                "float cannot hold as a positive number",
                owner, solid.material->density, volume, geometry.totalMass));
    } else {
        geometry.totalMass = solid.mass;
    }
    geometry.masses = lumpedTetMasses(geometry.mesh.positions, geometry.mesh.tets, geometry.totalMass);

    const auto vertexCount = static_cast<uint32_t>(geometry.mesh.positions.size());
    geometry.pinned.assign(vertexCount, false);
    for (BoxFace face : solid.pinnedFaces)
        for (uint32_t v = 0; v < vertexCount; ++v)
            geometry.pinned[v] = geometry.pinned[v] || onBoxFace(v, solid.cells, face);
    for (uint32_t v : solid.pinnedVertices) {
        if (v >= vertexCount)
            throw std::invalid_argument(
                fmt::format("{}: pinned vertex {} is out of range (the mesh has {})", owner, v, vertexCount));
        geometry.pinned[v] = true;
    }
    return geometry;
}

uint32_t appendSolidParticles(SharedModel& model, const SolidObject& solid, const SolidGeometry& geometry,
                              const std::string& owner) {
    const uint32_t first = model.particleCount();
    const auto vertexCount = static_cast<uint32_t>(geometry.mesh.positions.size());
    const bool pinsAreHard = !solid.pinsAsAttachments;
    for (uint32_t v = 0; v < vertexCount; ++v) {
        const bool fixed = pinsAreHard && geometry.pinned[v];
        model.positions.emplace_back(
            glm::vec3(geometry.mesh.positions[v]),
            fixed ? 0.0f : checkedInverseMass(1.0 / geometry.masses[v], geometry.totalMass, vertexCount, owner));
        model.velocities.emplace_back(fixed ? glm::vec3(0.0f) : solid.initialVelocity, 0.0f);
    }
    return first;
}

TetRest tetRest(const SharedModel& model, glm::uvec4 t, const std::string& owner, uint32_t index) {
    const glm::dvec3 x0 = positionOf(model, t.x);
    const glm::dmat3 Dm(positionOf(model, t.y) - x0, positionOf(model, t.z) - x0, positionOf(model, t.w) - x0);
    const double volume = glm::determinant(Dm) / 6.0;
    if (!(volume > 0.0))
        throw std::invalid_argument(fmt::format(
            "{}: tetrahedron {} (vertices {}, {}, {}, {}) has no positive volume as 32-bit floats ({:.3g} m^3)",
            owner, index, t.x, t.y, t.z, t.w, volume));
    const glm::dmat3 Bm = glm::inverse(Dm);  // Bm[column][row]
    return {glm::dvec3(Bm[0][0], Bm[1][0], Bm[2][0]), glm::dvec3(Bm[0][1], Bm[1][1], Bm[2][1]),
            glm::dvec3(Bm[0][2], Bm[1][2], Bm[2][2]), volume};
}

}  // namespace vksim
