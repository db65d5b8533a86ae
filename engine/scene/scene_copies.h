#pragma once
// A batch: `count` copies of one scene as one scene, which one World steps
// together, one dispatch per pass for every copy (docs/python.md, "Many
// worlds in one submission"). Copy c's objects are the scene's, named
// batchObjectName(name, c), listed copy after copy, so that the model
// orders each copy's particles as a World of that copy alone orders its
// own. scene_batch.h builds one from a scene document whose copies vary.
//
// The copies share the scene's colliders and solver settings (but for
// gravity, which scene_batch.h lets each copy's objects have). Copies
// occupy the same space: each copy is a contact group, whose objects'
// "contacts" touch only its own (ObjectRange::copy), and each copy's
// rigid bodies (listed copy after copy, named as the objects) meet only
// its own bodies (BodyDesc::batchCopy) and particles (particleCopies),
// within the world's 32 colliders. The solves that take a step from an
// estimate over their system do it per copy: projective dynamics and
// mass-spring implicit Euler estimate each copy's Jacobi weights from its
// own rows (PdConstraints, SpringSolver), and implicit Euler's line search
// picks each copy's step from its own rows' sums. Every copy steps exactly
// as a World of that copy alone: the same bits (tested).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene.h"

namespace vksim {

inline constexpr uint32_t kMaxBatchCopies = 1u << 20;

struct SceneBatch {
    Scene scene;             // every copy's objects; the first copy's name, settings, colliders, camera
    uint32_t count = 0;
    std::vector<std::string> objectNames;  // one copy's object names, in scene order (cloths, then solids)
};

// `count` copies of `scene`, none varied. Throws SceneError (one line,
// naming scene.path) for a count outside [1, kMaxBatchCopies].
SceneBatch replicateScene(const Scene& scene, uint32_t count);

// "cloth#3": copy 3's object "cloth".
std::string batchObjectName(std::string_view name, uint32_t copy);

// The parts of a batch, for scene_batch.cpp: the refusals above, naming
// `source`; a batch of `base`'s settings, colliders and camera with no
// objects yet; and copy `copy`'s objects appended to it.
void checkBatchCount(uint32_t count, const std::filesystem::path& source);
SceneBatch emptyBatch(const Scene& base, uint32_t count);
void appendCopy(SceneBatch& batch, Scene copyScene, uint32_t copy);
[[noreturn]] void refuseBatch(const std::filesystem::path& source, const std::string& problem);

}  // namespace vksim
