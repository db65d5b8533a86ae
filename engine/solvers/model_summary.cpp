#include "solvers/model_summary.h"

#include <fmt/format.h>

namespace vksim {
namespace {

std::string describeFamily(const char* name, size_t constraintCount, const ColourGroups& groups,
                           PbdColouring colouring) {
    std::string line = fmt::format("  {:<11} {:>7} constraints", name, constraintCount);
    if (constraintCount == 0) return line + "\n";
    line += fmt::format(" in {} {}colours:", groups.colours.size(),
                        colouring == PbdColouring::AcrossFamilies ? "shared " : "");
    for (const ColourRange& color : groups.colours) line += fmt::format(" {}", color.count);
    if (groups.overflow.count > 0) line += fmt::format(" + {} in the overflow group", groups.overflow.count);
    return line + "\n";
}

}  // namespace

std::string describeModel(const SimModel& model, const ModelDiagnostics& diagnostics) {
    size_t pinned = 0, spare = 0;
    for (const glm::vec4& position : model.positions) pinned += position.w == 0.0f ? 1 : 0;
    // Tearing's spare particles (docs/physics.md §1, "Splitting vertices") are inert, not pinned.
    for (const gpu::SplitCloth& cloth : model.pbd.splitCloths) spare += cloth.spareCount;
    const std::string spares = spare > 0 ? fmt::format(", {} spare for split vertices", spare) : "";
    std::string text = fmt::format("model: {} particles ({} pinned{}), {} triangles, objects {}, colliders {}\n",
                                   model.particleCount(), pinned - spare, spares, model.triangleCount(),
                                   model.objects.size(), model.colliders.size());
    text += describeFamily("distance", model.pbd.distance.size(), model.pbd.distanceGroups, model.pbd.colouring);
    text += describeFamily("bending", model.pbd.bending.size(), model.pbd.bendingGroups, model.pbd.colouring);
    text += describeFamily("attachment", model.pbd.attachments.size(), model.pbd.attachmentGroups, model.pbd.colouring);
    // Tethers are attachments with a length (docs/physics.md §1, "Tethers").
    size_t tethers = 0;
    for (const gpu::AttachmentConstraint& a : model.pbd.attachments) tethers += a.maxDistance > 0.0f ? 1 : 0;
    if (tethers > 0) text += fmt::format("    of which {} tethers\n", tethers);
    // Cloth attached to bodies and colliders (docs/physics.md §1, "Attachments
    // to bodies and colliders"); no line without them.
    if (!model.frameAttachments.empty()) {
        size_t motion = 0;
        for (const gpu::FrameAttachment& a : model.frameAttachments) motion += a.local.w > 0.0f ? 1 : 0;
        text += fmt::format("  attached to bodies and colliders: {} particles ({} within a radius)\n",
                            model.frameAttachments.size(), motion);
    }
    // XPBD solids' tetrahedra (docs/physics.md §16, "XPBD for solids"); no line without them.
    if (!model.pbd.tetrahedra.empty()) {
        text += describeFamily("tetrahedron", model.pbd.tetrahedra.size(), model.pbd.tetrahedronGroups,
                               model.pbd.colouring);
        size_t withVolume = 0;
        for (const gpu::TetrahedronConstraint& t : model.pbd.tetrahedra)
            withVolume += t.volumeMaterial != gpu::kNoVolumeConstraint ? 1 : 0;
        text += fmt::format("    in {} XPBD solid(s){}\n", model.pbd.elasticMaterials.size(),
                            withVolume > 0 ? fmt::format(", {} with the PBD volume constraint", withVolume) : "");
    }
    if (!model.pd.empty()) {
        const PdModel& pd = model.pd;
        text += fmt::format("  projective dynamics: particles {}..{}, {} springs, {} triangles, {} tet strain, {} tet "
                            "volume, {} bending, {} attachments; global matrix {} x {} with {} off-diagonal entries\n",
                            pd.firstParticle, pd.firstParticle + pd.particleCount - 1, pd.springs.size(),
                            pd.triangles.size(), pd.tetStrain.size(), pd.tetVolume.size(), pd.bending.size(),
                            pd.attachments.size(), pd.particleCount, pd.particleCount, pd.offDiagonal.size());
    }
    if (!model.springs.empty()) {
        const MsModel& ms = model.springs;
        SpringCounts total;
        for (const SpringObject& object : ms.objects) {
            total.stretchSprings += object.counts.stretchSprings;
            total.shearSprings += object.counts.shearSprings;
            total.bendSprings += object.counts.bendSprings;
        }
        text += fmt::format("  mass-spring: particles {}..{}, {} springs ({} stretch, {} shear, {} bend), {} hinges, "
                            "{} quadratic bending entries; Newton matrix {} blocks; {} vertex colours\n",
                            ms.firstParticle, ms.firstParticle + ms.particleCount - 1, ms.springs.size(),
                            total.stretchSprings, total.shearSprings, total.bendSprings, ms.hinges.size(),
                            ms.quadratic.size(), ms.blockColumns.size(), ms.vertexColours.size());
    }
    if (!model.vbd.empty()) {
        const VbdModel& vbd = model.vbd;
        text += fmt::format("  vertex block descent: particles {}..{}, {} tets in {} solids; {} vertex colours\n",
                            vbd.firstParticle, vbd.firstParticle + vbd.particleCount - 1, vbd.tets.size(),
                            vbd.objects.size(), vbd.vertexColours.size());
    }
    for (const std::string& warning : modelWarnings(diagnostics)) text += "  warning: " + warning + "\n";
    return text;
}

std::vector<std::string> modelWarnings(const ModelDiagnostics& diagnostics) {
    std::vector<std::string> warnings;
    if (diagnostics.degenerateBendingEdges > 0)
        warnings.push_back(fmt::format("no bending across {} edges next to degenerate triangles",
                                       diagnostics.degenerateBendingEdges));
    if (diagnostics.nonManifoldEdges > 0)
        warnings.push_back(fmt::format("no bending across {} non-manifold edges", diagnostics.nonManifoldEdges));
    if (diagnostics.startingOverlaps > 0)
        warnings.push_back(fmt::format(
            "{} pairs of contact particles start inside their contact distance, the deepest {:.3g} m apart of "
            "{:.3g} m, between '{}' and '{}': surfaces that start inside one another stay tangled; move them apart",
            diagnostics.startingOverlaps, diagnostics.overlapDistance, diagnostics.overlapContactDistance,
            diagnostics.overlapA, diagnostics.overlapB));
    return warnings;
}

}  // namespace vksim
