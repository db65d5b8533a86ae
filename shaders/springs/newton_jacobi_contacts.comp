#version 460
// One block-Jacobi iteration of Newton's system with contacts (linear/
// block_jacobi.glsl, docs/physics.md §14): the stored blocks, plus each
// touching pair's coupling -(s n n^T + c (I - n n^T)), the contact energy's
// and the lagged friction's, which springs/newton_assemble_contacts.comp
// keeps per list entry beside the matrix, in list order. Each batch copy's
// rows take its own weights, as in springs/newton_jacobi.comp.
#define BLOCK_JACOBI_MORE_BLOCKS
#define BLOCK_JACOBI_COPY_WEIGHTS
#include "linear/block_jacobi.glsl"
#include "springs/spring_types.h"

layout(std430, binding = 8) readonly buffer RowContacts { uvec2 rowContacts[]; };
layout(std430, binding = 9) readonly buffer Couplings { MsContactCoupling couplings[]; };

vec3 moreBlocksProduct(uint i) {
    uvec2 list = rowContacts[i];
    vec3 product = vec3(0.0);
    for (uint e = list.x; e < list.x + list.y; ++e) {
        MsContactCoupling c = couplings[e];
        vec3 n = vec3(c.nx, c.ny, c.nz);
        vec3 x = current[c.row].xyz;
        product -= (c.stiffness - c.frictionCurvature) * dot(n, x) * n + c.frictionCurvature * x;
    }
    return product;
}
