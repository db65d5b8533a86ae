#pragma once
// A tetrahedral solid's "material" block (docs/scene-format.md; docs/physics.md
// §16): an elastic energy given physically, by Young's modulus and Poisson's
// ratio, and a density that sets the mass. Plain data: the scene holds it,
// the model builders read it (geometry/elastic_energy.h has the energies).
namespace vksim {

enum class ElasticModel {
    NeoHookean,  // stable Neo-Hookean (Smith, de Goes & Kim 2018), defined for inverted elements
    Corotated,   // fixed corotated (Stomakhin et al. 2012)
};

struct ElasticMaterial {
    ElasticModel model = ElasticModel::NeoHookean;
    float youngsModulus = 1e5f;  // E [Pa], > 0
    float poissonRatio = 0.3f;   // nu, in [0, 0.5)
    float density = 1000.0f;     // rho [kg/m^3], > 0: the mass, lumped by rest volume
    bool operator==(const ElasticMaterial&) const = default;
};

}  // namespace vksim
