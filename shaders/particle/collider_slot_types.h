// Which colliders a particle sees, shared by GLSL and C++: the
// specialization constants of the kernels that test particles against the
// colliders (particle/collider_slots.glsl; state/collider_set.h sets them).
#ifndef VKSIM_COLLIDER_SLOT_TYPES_H
#define VKSIM_COLLIDER_SLOT_TYPES_H
#include "shaders/shared/sim_types.h"

GPU_NAMESPACE_BEGIN

// The scene's colliders, and the rigid bodies of one batch copy that are
// colliders of its particles (all of a scene's bodies in a scene's world).
GPU_CONST(uint, kSceneCollidersConstantId, 12);
GPU_CONST(uint, kCopyBodyCollidersConstantId, 13);

GPU_NAMESPACE_END

#endif
