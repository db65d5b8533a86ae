// The colliders a particle sees, as slots: the bits of its candidate and
// touching masks (ParticleContact). Slots [0, S) are the scene's colliders,
// [S, S + B) its batch copy's rigid bodies: copy k's bodies are colliders
// S + k B to S + (k + 1) B - 1 of the world's list (state/collider_set.h).
// A scene's world is copy 0, where a slot is its collider. A batch's
// particle thus tests the S + B colliders a world of its copy alone has,
// in that world's order, however many copies there are.
#ifndef VKSIM_COLLIDER_SLOTS_GLSL
#define VKSIM_COLLIDER_SLOTS_GLSL

#include "particle/collider_slot_types.h"

layout(constant_id = kSceneCollidersConstantId) const uint kSceneColliders = 0u;
layout(constant_id = kCopyBodyCollidersConstantId) const uint kCopyBodyColliders = 0u;

uint colliderSlots() { return kSceneColliders + kCopyBodyColliders; }

// The candidate and touching bits of the scene's colliders' slots.
uint sceneSlotBits() { return kSceneColliders >= 32u ? ~0u : (1u << kSceneColliders) - 1u; }

uint colliderOfSlot(uint slot, uint copy) {
    return slot < kSceneColliders ? slot : slot + copy * kCopyBodyColliders;
}

#endif
