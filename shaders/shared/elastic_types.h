// A tetrahedral solid's elastic material as the GPU reads it (docs/physics.md
// §16), shared by GLSL and C++: the XPBD and VBD solids read the same row.
#ifndef VKSIM_ELASTIC_TYPES_H
#define VKSIM_ELASTIC_TYPES_H
#include "gpu_compat.h"

GPU_NAMESPACE_BEGIN

// ElasticMaterialRow::model (scene/elastic_material.h, ElasticModel).
GPU_CONST(uint, kElasticNeoHookean, 0);  // stable Neo-Hookean
GPU_CONST(uint, kElasticCorotated, 1);   // fixed corotated

// One row per solid, written from the scene's E and nu (and again by a live
// edit): the Lame parameters the energies take (math/elastic_energy.glsl).
struct ElasticMaterialRow {
    uint model;  // kElasticNeoHookean or kElasticCorotated
    float mu;      // [Pa]
    float lambda;  // [Pa]
    float pad0;
};
GPU_CHECK_SIZE(ElasticMaterialRow, 16);

GPU_NAMESPACE_END

#endif
