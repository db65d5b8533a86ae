// Which constraint families of a kernel may meet an XPBD material: a bit
// per family (kXpbdFamily*, pbd/pbd_types.h), set at pipeline creation,
// all set unless the pipeline says otherwise. Only the CPU cluster sweep
// (pbd/cluster_sweep_cpu.comp) clears them, for the families whose
// materials are all PBD when its commands are recorded (a material edit
// records them again: World::setFamilyMaterial). lavapipe runs both sides
// of every if under masks (docs/physics.md §2, "Only the world's shapes are
// compiled in"), so a PBD cloth paid there for the multiplier's load, its
// store and XPBD's arithmetic at every projection; a cleared bit makes the
// mode a constant and removes them.
#ifndef VKSIM_XPBD_FAMILIES_GLSL
#define VKSIM_XPBD_FAMILIES_GLSL

layout(constant_id = kXpbdFamiliesConstantId) const uint kXpbdFamilies = 0xFFFFFFFFu;

// The material's mode as the projection of family `family` sees it:
// kModePbd wherever the family's bit is clear (where every material of the
// family is PBD, so the same value).
uint projectionMode(uint family, ConstraintMaterial m) {
    return (kXpbdFamilies & family) != 0u ? m.mode : kModePbd;
}

#endif
