// World::saveState and World::loadState (state/saved_state.h): the world's
// sections under a header that names the model they belong to.
#include <stdexcept>

#include <fmt/format.h>

#include "io/fnv1a.h"
#include "state/saved_state.h"
#include "world/world.h"

namespace vksim {
namespace {

template <typename T>
uint64_t addValue(uint64_t hash, const T& value) {
    return fnv1a64(std::string_view(reinterpret_cast<const char*>(&value), sizeof(T)), hash);
}

// What a state depends on besides its sections' sizes: the objects (names,
// ranges, which solver steps them), their pins (inverse masses), their
// triangles and the bodies. Materials, colliders and solver settings are
// parameters, not state: a state loads into a world whose scene differs in
// those, which then steps on with its own.
uint64_t modelFingerprint(const SimModel& model) {
    uint64_t hash = kFnv1aOffset;
    for (const ObjectRange& object : model.objects) {
        hash = fnv1a64(object.name, hash);
        hash = addValue(hash, object.firstParticle);
        hash = addValue(hash, object.particleCount);
        hash = addValue(hash, object.triangleCount);
    }
    hash = addValue(hash, model.pbd.particleCount);
    hash = addValue(hash, model.pd.particleCount);
    hash = addValue(hash, model.springs.particleCount);
    // Only when there are VBD solids, so that a state saved before they
    // existed keeps its fingerprint.
    if (!model.vbd.empty()) hash = addValue(hash, model.vbd.particleCount);
    for (const glm::vec4& x : model.positions) hash = addValue(hash, x.w);
    for (const uint32_t index : model.triangles) hash = addValue(hash, index);
    for (const std::string& name : model.rigid.names) hash = fnv1a64(name + '\n', hash);
    return hash;
}

// "3 objects (cloth, ...), 1089 particles, 2 bodies, from scenes/x.json"
std::string describeModel(const SimModel& model, const std::string& scenePath) {
    std::string names;
    for (const ObjectRange& object : model.objects) names += (names.empty() ? "" : ", ") + object.name;
    return fmt::format("{} object(s) ({}), {} particles, {} bodies, from {}", model.objects.size(), names,
                       model.particleCount(), model.rigid.bodyCount(),
                       scenePath.empty() ? std::string("a scene built in memory") : scenePath);
}

}  // namespace

std::string World::saveState() const {
    SavedState state;
    state.vksimVersion = VKSIM_VERSION;
    state.modelFingerprint = modelFingerprint(model_);
    state.modelDescription = describeModel(model_, scene_.path);
    state.frame = framesRecorded_;
    state.sections = stepper_->saveSections();  // waits for the queue
    return encodeState(state);
}

void World::loadState(std::string_view bytes, std::string_view source) {
    auto state = std::make_shared<SavedState>(decodeState(bytes, source));
    if (state->vksimVersion != VKSIM_VERSION)
        throw std::invalid_argument(fmt::format("{}: a state saved by vksim {}; this is vksim {}", source,
                                                state->vksimVersion, VKSIM_VERSION));
    if (state->modelFingerprint != modelFingerprint(model_))
        throw std::invalid_argument(fmt::format("{}: a state of another model ({}); this world has {}", source,
                                                state->modelDescription, describeModel(model_, scene_.path)));
    stepper_->loadSections(state->sections, source);  // checks every section first; waits for the queue
    const uint64_t frame = state->frame;
    restartFrames(frame, std::move(state));
}

}  // namespace vksim
