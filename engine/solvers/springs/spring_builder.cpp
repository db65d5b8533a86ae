#include "solvers/springs/spring_builder.h"

#include <stdexcept>

#include <fmt/format.h>

#include "geometry/quadratic_bending.h"
#include "geometry/shared_math.h"
#include "geometry/triangle_mesh.h"
#include "solvers/springs/spring_materials.h"

namespace vksim {

MeshSprings buildMeshSprings(std::span<const uint32_t> triangles) {
    const MeshEdges edges = findMeshEdges(triangles);
    MeshSprings result;
    result.boundaryEdges = edges.boundaryCount;
    result.nonManifoldEdges = edges.nonManifoldCount;
    result.interiorEdges = static_cast<uint32_t>(edges.interior.size());
    for (const MeshEdge& edge : edges.edges) result.stretch.push_back({edge.v0, edge.v1});
    for (const InteriorEdge& edge : edges.interior) {
        // findMeshEdges orients an interior edge by its first triangle, which
        // is (v0, v1, opposite1) in its winding; the second is then
        // (v0, opposite0, v1) = (v1, v0, opposite0).
        const glm::uvec4 hinge(edge.v0, edge.v1, edge.opposite1, edge.opposite0);
        result.hinges.push_back(hinge);
        if (hinge.z != hinge.w) result.bend.push_back({hinge.z, hinge.w});
    }
    return result;
}

GridSprings buildGridSprings(uint32_t columns, uint32_t rows, std::span<const SpringPair> meshEdges,
                             uint32_t shearDiagonals) {
    if (columns < 2 || rows < 2)
        throw std::invalid_argument(fmt::format("buildGridSprings: a {}x{} grid has no cells", columns, rows));
    if (shearDiagonals > 2)
        throw std::invalid_argument(fmt::format("buildGridSprings: {} shear diagonals (0, 1 or 2)", shearDiagonals));
    auto vertex = [columns](uint32_t column, uint32_t row) { return row * columns + column; };
    GridSprings grid;
    for (uint32_t row = 0; row < rows; ++row)
        for (uint32_t column = 0; column + 1 < columns; ++column)
            grid.structural.push_back({vertex(column, row), vertex(column + 1, row)});
    for (uint32_t row = 0; row + 1 < rows; ++row)
        for (uint32_t column = 0; column < columns; ++column)
            grid.structural.push_back({vertex(column, row), vertex(column, row + 1)});

    if (shearDiagonals == 2) {
        for (uint32_t row = 0; row + 1 < rows; ++row)
            for (uint32_t column = 0; column + 1 < columns; ++column)
                grid.shear.push_back({vertex(column, row), vertex(column + 1, row + 1)});
        for (uint32_t row = 0; row + 1 < rows; ++row)
            for (uint32_t column = 0; column + 1 < columns; ++column)
                grid.shear.push_back({vertex(column + 1, row), vertex(column, row + 1)});
    } else if (shearDiagonals == 1) {
        // The triangulation's diagonals: the mesh edges whose ends differ in
        // both row and column. Sorted by their smaller end, which lies in the
        // cell's lower row: row-major cell order.
        for (const SpringPair& edge : meshEdges)
            if (edge[0] / columns != edge[1] / columns && edge[0] % columns != edge[1] % columns)
                grid.shear.push_back(edge);
    }

    for (uint32_t row = 0; row < rows; ++row)
        for (uint32_t column = 0; column + 2 < columns; ++column)
            grid.bend.push_back({vertex(column, row), vertex(column + 2, row)});
    for (uint32_t row = 0; row + 2 < rows; ++row)
        for (uint32_t column = 0; column < columns; ++column)
            grid.bend.push_back({vertex(column, row), vertex(column, row + 2)});
    return grid;
}

namespace {

void appendSprings(MsModel& ms, const SpringSource& source, std::span<const SpringPair> pairs, uint32_t kind) {
    for (const SpringPair& pair : pairs) {
        const double restLength = glm::length(source.rest[pair[0]] - source.rest[pair[1]]);
        gpu::MsSpring spring{};
        spring.i = source.firstParticle + pair[0];
        spring.j = source.firstParticle + pair[1];
        spring.restLength = static_cast<float>(restLength);
        spring.kind = kind;
        ms.springs.push_back(spring);  // stiffness and locking remedies: applySpringParams
    }
}

}  // namespace

void appendSpringObject(MsModel& ms, const SpringSource& source) {
    const std::string owner = fmt::format("cloth {}", source.cloth);
    validateSpringParams(source.params, owner);
    const auto vertexCount = static_cast<uint32_t>(source.rest.size());
    for (uint32_t v : source.triangles)
        if (v >= vertexCount)
            throw std::invalid_argument(fmt::format("{}: triangle vertex {} is out of range ({} vertices)", owner, v,
                                                    vertexCount));
    const bool grid = source.gridColumns != 0;
    if (grid && uint64_t{source.gridColumns} * source.gridRows != vertexCount)
        throw std::invalid_argument(fmt::format("{}: a {}x{} grid with {} vertices", owner, source.gridColumns,
                                                source.gridRows, vertexCount));
    const SpringClothParams params = effectiveSpringParams(source.params, grid);

    SpringObject object;
    object.cloth = source.cloth;
    object.firstParticle = source.firstParticle;
    object.particleCount = vertexCount;
    object.gridColumns = source.gridColumns;
    object.gridRows = grid ? source.gridRows : 0;
    object.firstSpring = static_cast<uint32_t>(ms.springs.size());
    object.firstHinge = static_cast<uint32_t>(ms.hinges.size());
    object.firstQuadratic = static_cast<uint32_t>(ms.quadratic.size());

    const MeshSprings mesh = buildMeshSprings(source.triangles);
    SpringCounts& counts = object.counts;
    counts.vertices = vertexCount;
    counts.triangles = static_cast<uint32_t>(source.triangles.size() / 3);
    counts.edges = static_cast<uint32_t>(mesh.stretch.size());
    counts.interiorEdges = mesh.interiorEdges;
    counts.boundaryEdges = mesh.boundaryEdges;
    counts.nonManifoldEdges = mesh.nonManifoldEdges;

    if (params.topology == SpringTopology::Grid) {
        const GridSprings families =
            buildGridSprings(source.gridColumns, source.gridRows, mesh.stretch, params.shearDiagonals);
        appendSprings(ms, source, families.structural, gpu::kSpringStretch);
        appendSprings(ms, source, families.shear, gpu::kSpringShear);
        appendSprings(ms, source, families.bend, gpu::kSpringBend);
        counts.stretchSprings = static_cast<uint32_t>(families.structural.size());
        counts.shearSprings = static_cast<uint32_t>(families.shear.size());
        counts.bendSprings = static_cast<uint32_t>(families.bend.size());
    } else {
        appendSprings(ms, source, mesh.stretch, gpu::kSpringStretch);
        appendSprings(ms, source, mesh.bend, gpu::kSpringBend);
        counts.stretchSprings = static_cast<uint32_t>(mesh.stretch.size());
        counts.bendSprings = static_cast<uint32_t>(mesh.bend.size());
    }
    object.springCount = static_cast<uint32_t>(ms.springs.size()) - object.firstSpring;

    for (const glm::uvec4& h : mesh.hinges) {
        gpu::MsHinge hinge{};
        hinge.v0 = source.firstParticle + h.x;
        hinge.v1 = source.firstParticle + h.y;
        hinge.v2 = source.firstParticle + h.z;
        hinge.v3 = source.firstParticle + h.w;
        hinge.restAngle =
            static_cast<float>(ref::dihedralAngle(source.rest[h.x], source.rest[h.y], source.rest[h.z], source.rest[h.w]));
        ms.hinges.push_back(hinge);
    }
    object.hingeCount = counts.hinges = static_cast<uint32_t>(mesh.hinges.size());

    const QuadraticBending quadratic = buildQuadraticBending(source.rest, mesh.hinges);
    counts.degenerateQuadratic = quadratic.degenerate;
    for (const QuadraticTerm& term : quadratic.entries) {
        gpu::MsQuadraticEntry entry{};
        entry.column = source.firstParticle + term.column;
        ms.quadratic.push_back(entry);
        ms.quadraticRows.push_back(source.firstParticle + term.row);
        ms.quadraticUnit.push_back(term.unit);
    }
    object.quadraticCount = static_cast<uint32_t>(ms.quadratic.size()) - object.firstQuadratic;

    ms.objects.push_back(object);
    applySpringParams(ms, static_cast<uint32_t>(ms.objects.size() - 1), params);
}

}  // namespace vksim
