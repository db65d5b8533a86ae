#include "solvers/pd/pd_materials.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "geometry/shared_math.h"
#include "io/quoted_input.h"

namespace vksim {
namespace {

template <typename SceneT>
auto& paramsOf(SceneT& scene, PdOwner owner, PdFamily family) {
    if (owner.kind == PdOwner::Kind::Cloth) {
        if (owner.index >= scene.cloths.size())
            throw std::invalid_argument(fmt::format("PD cloth {} out of range (the scene has {} cloths)", owner.index,
                                                    scene.cloths.size()));
        auto& cloth = scene.cloths[owner.index];
        if (cloth.method != SolverMethod::Pd)
            throw std::invalid_argument(
                fmt::format("cloth '{}' is not simulated with projective dynamics", clipInput(cloth.name)));
        switch (family) {
            case PdFamily::Springs: return cloth.pd.stretch;
            case PdFamily::Triangles: return cloth.pd.strain;
            case PdFamily::Bending: return cloth.pd.bending;
            case PdFamily::Attachments: return cloth.pd.attachment;
            default: break;
        }
        throw std::invalid_argument(fmt::format("cloth '{}' has no tetrahedra", clipInput(cloth.name)));
    }
    if (owner.index >= scene.solids.size())
        throw std::invalid_argument(
            fmt::format("solid {} out of range (the scene has {} solids)", owner.index, scene.solids.size()));
    auto& solid = scene.solids[owner.index];
    switch (family) {
        case PdFamily::TetStrain: return solid.strain;
        case PdFamily::TetVolume: return solid.volume;
        case PdFamily::Attachments: return solid.attachment;
        default: break;
    }
    throw std::invalid_argument(
        fmt::format("solid '{}' has only strain, volume and attachment parameters", clipInput(solid.name)));
}

}  // namespace

const char* pdFamilyName(PdFamily family) {
    switch (family) {
        case PdFamily::Springs: return "stretch";
        case PdFamily::Triangles: return "strain";
        case PdFamily::TetStrain: return "strain";
        case PdFamily::TetVolume: return "volume";
        case PdFamily::Bending: return "bending";
        case PdFamily::Attachments: return "attachment";
    }
    return "?";
}

const std::string& pdOwnerName(const Scene& scene, PdOwner owner) {
    return owner.kind == PdOwner::Kind::Cloth ? scene.cloths.at(owner.index).name : scene.solids.at(owner.index).name;
}

std::string describePdParams(const Scene& scene, PdOwner owner, PdFamily family) {
    return fmt::format("{} '{}' {}", owner.kind == PdOwner::Kind::Cloth ? "cloth" : "solid",
                       clipInput(pdOwnerName(scene, owner)), pdFamilyName(family));
}

const PdParams& pdParams(const Scene& scene, PdOwner owner, PdFamily family) {
    return paramsOf(scene, owner, family);
}

PdParams& pdParams(Scene& scene, PdOwner owner, PdFamily family) { return paramsOf(scene, owner, family); }

PdSolidWeights pdWeightsOf(const ElasticMaterial& material) {
    const glm::dvec2 lame = ref::lameParameters(double(material.youngsModulus), double(material.poissonRatio));
    return {{.stiffness = static_cast<float>(2.0 * lame.x), .rangeMin = 1.0f, .rangeMax = 1.0f, .enabled = true},
            {.stiffness = static_cast<float>(3.0 * lame.y), .rangeMin = 1.0f, .rangeMax = 1.0f, .enabled = true}};
}

void validatePdParams(const PdParams& params, const std::string& what) {
    if (!(params.stiffness >= 0.0f) || !std::isfinite(params.stiffness))
        throw std::invalid_argument(fmt::format("{}: stiffness must be >= 0 (got {})", what, params.stiffness));
    if (!(params.rangeMin >= 0.0f && params.rangeMin <= params.rangeMax) || !std::isfinite(params.rangeMax))
        throw std::invalid_argument(
            fmt::format("{}: needs 0 <= min <= max (got [{}, {}])", what, params.rangeMin, params.rangeMax));
}

void applyPdParams(PdModel& pd, const PdWeightGroup& group, const PdParams& params) {
    auto weight = [&](uint32_t e) {
        return static_cast<float>(double(params.stiffness) * group.unitWeights[e - group.begin]);
    };
    auto apply = [&](auto& elements, auto&& set) {
        if (group.end > elements.size() || group.unitWeights.size() != group.end - group.begin)
            throw std::logic_error("applyPdParams: weight group does not match the model");
        for (uint32_t e = group.begin; e < group.end; ++e) set(elements[e], weight(e));
    };
    switch (group.family) {
        case PdFamily::Springs: apply(pd.springs, [](gpu::PdSpring& s, float w) { s.weight = w; }); break;
        case PdFamily::Triangles:
            apply(pd.triangles, [&](gpu::PdTriangle& t, float w) {
                t.weight = w;
                t.sigmaMin = params.rangeMin;
                t.sigmaMax = params.rangeMax;
            });
            break;
        case PdFamily::TetStrain:
        case PdFamily::TetVolume:
            apply(group.family == PdFamily::TetStrain ? pd.tetStrain : pd.tetVolume,
                  [&](gpu::PdTetrahedron& t, float w) {
                      t.weight = w;
                      t.rangeMin = params.rangeMin;
                      t.rangeMax = params.rangeMax;
                  });
            break;
        case PdFamily::Bending: apply(pd.bending, [](gpu::PdBending& b, float w) { b.weight = w; }); break;
        case PdFamily::Attachments: apply(pd.attachments, [](gpu::PdAttachment& a, float w) { a.weight = w; }); break;
    }
}

const PdWeightGroup* findPdWeightGroup(const PdModel& pd, PdOwner owner, PdFamily family) {
    for (const PdWeightGroup& group : pd.weightGroups)
        if (group.owner == owner && group.family == family) return &group;
    return nullptr;
}

}  // namespace vksim
