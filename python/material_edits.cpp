#include "material_edits.h"

#include <map>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "solvers/pbd/pbd_materials.h"
#include "solvers/pd/pd_material_edit.h"
#include "solvers/pd/pd_materials.h"
#include "solvers/springs/spring_params_edit.h"
#include "world/world.h"

namespace vksim {
namespace {

constexpr std::string_view kPrefix = "vksim.World.set_material: ";

[[noreturn]] void refuse(const std::string& problem) { throw std::invalid_argument(std::string(kPrefix) + problem); }

template <class Map>
std::string keysOf(const Map& map) {
    std::vector<std::string> keys;
    for (const auto& [key, value] : map) keys.push_back(key);
    return fmt::format("{}", fmt::join(keys, ", "));
}

template <class Map>
auto lookup(const Map& map, const std::string& key, const std::string& what) {
    const auto found = map.find(key);
    if (found == map.end()) refuse(fmt::format("{} has no material \"{}\" (it has {})", what, key, keysOf(map)));
    return found->second;
}

void editPbdCloth(World& world, uint32_t index, const std::vector<std::pair<std::string, float>>& edits) {
    const std::map<std::string, ConstraintFamily> families{
        {"stretch", ConstraintFamily::Stretch}, {"bending", ConstraintFamily::Bending},
        {"attachment", ConstraintFamily::Attachment}};
    const std::string what = fmt::format("PBD cloth \"{}\"", world.scene().cloths[index].name);
    for (const auto& [key, value] : edits) lookup(families, key, what);
    for (const auto& [key, value] : edits) {
        const ConstraintFamily family = families.at(key);
        const ClothObject& cloth = world.scene().cloths[index];
        ConstraintParams params = family == ConstraintFamily::Stretch   ? cloth.stretch
                                  : family == ConstraintFamily::Bending ? cloth.bending
                                                                        : cloth.attachment;
        (params.model == ConstraintModel::Xpbd ? params.compliance : params.stiffness) = value;
        world.edit(PbdMaterialEdit{index, family, params});
    }
}

void editSpringCloth(World& world, uint32_t index, const std::vector<std::pair<std::string, float>>& edits) {
    const std::map<std::string, float SpringClothParams::*> fields{
        {"stretch", &SpringClothParams::stretch}, {"shear", &SpringClothParams::shear},
        {"bending", &SpringClothParams::bendingStiffness}, {"drag", &SpringClothParams::drag},
        {"compressionScale", &SpringClothParams::compressionScale}, {"slack", &SpringClothParams::slack}};
    SpringClothParams params = world.scene().cloths[index].springs;
    const std::string what = fmt::format("mass-spring cloth \"{}\"", world.scene().cloths[index].name);
    for (const auto& [key, value] : edits) params.*lookup(fields, key, what) = value;
    world.edit(SpringParamsEdit{index, params});  // one edit: all or none
}

void editPd(World& world, PdOwner owner, const std::map<std::string, PdFamily>& families,
            const std::vector<std::pair<std::string, float>>& edits) {
    const std::string what = fmt::format("projective dynamics object \"{}\"", pdOwnerName(world.scene(), owner));
    for (const auto& [key, value] : edits) lookup(families, key, what);
    for (const auto& [key, value] : edits) {
        PdParams params = pdParams(world.scene(), owner, families.at(key));
        params.stiffness = value;
        world.edit(PdMaterialEdit{owner, families.at(key), params});
    }
}

// A solid with a material: its E and nu, one edit (all or none), through its
// solver's edit whatever the solver (World::setSolidMaterial).
void editSolidMaterial(World& world, uint32_t index, const std::vector<std::pair<std::string, float>>& edits) {
    const std::map<std::string, float ElasticMaterial::*> fields{
        {"youngsModulus", &ElasticMaterial::youngsModulus}, {"poissonRatio", &ElasticMaterial::poissonRatio}};
    const SolidObject& solid = world.scene().solids[index];
    ElasticMaterial material = *solid.material;
    const std::string what = fmt::format("solid \"{}\"", solid.name);
    for (const auto& [key, value] : edits) material.*lookup(fields, key, what) = value;
    world.setSolidMaterial(index, material);
}

}  // namespace

void applyMaterialEdits(World& world, const std::string& name,
                        const std::vector<std::pair<std::string, float>>& edits) {
    const Scene& scene = world.scene();
    try {
        for (uint32_t k = 0; k < scene.cloths.size(); ++k) {
            if (scene.cloths[k].name != name) continue;
            switch (scene.cloths[k].method) {
                case SolverMethod::Pbd: return editPbdCloth(world, k, edits);
                case SolverMethod::Springs: return editSpringCloth(world, k, edits);
                case SolverMethod::Pd:
                    return editPd(world, {PdOwner::Kind::Cloth, k},
                                  {{"stretch", PdFamily::Springs}, {"strain", PdFamily::Triangles},
                                   {"bending", PdFamily::Bending}, {"attachment", PdFamily::Attachments}},
                                  edits);
            }
        }
        for (uint32_t k = 0; k < scene.solids.size(); ++k)
            if (scene.solids[k].name == name && scene.solids[k].material) return editSolidMaterial(world, k, edits);
        for (uint32_t k = 0; k < scene.solids.size(); ++k)
            if (scene.solids[k].name == name)
                return editPd(world, {PdOwner::Kind::Solid, k},
                              {{"strain", PdFamily::TetStrain}, {"volume", PdFamily::TetVolume},
                               {"attachment", PdFamily::Attachments}},
                              edits);
    } catch (const std::invalid_argument& e) {
        if (std::string_view(e.what()).starts_with(kPrefix)) throw;
        refuse(e.what());
    }
    std::vector<std::string> names;
    for (const ClothObject& cloth : scene.cloths) names.push_back(cloth.name);
    for (const SolidObject& solid : scene.solids) names.push_back(solid.name);
    refuse(fmt::format("no cloth or solid is named \"{}\" (the scene's: {})", name, fmt::join(names, ", ")));
}

}  // namespace vksim
