#include "scene/scene_batch.h"

#include <utility>

#include <fmt/format.h>

#include "io/quoted_input.h"
#include "scene/json_reader.h"
#include "scene/scene_loader.h"

namespace vksim {
namespace {

// The keys every copy shares: what one World has once.
constexpr std::string_view kSharedKeys[] = {"/solver", "/colliders", "/camera", "/name"};

// A body's keys a copy has its own value of: its mass, its start and its
// surface's friction (kinetic and static) and restitution (and colour). Its type, name and shape
// keys stay the scene's: they build its contact points and signed distance,
// which are the same in every copy.
constexpr std::string_view kPerCopyBodyKeys[] = {"mass",     "density",        "position",    "rotation",
                                                 "velocity", "angularVelocity", "friction",    "staticFriction",
                                                 "restitution", "color"};

// The key of "/bodies/<index>/<key>/...", empty where the pointer names
// no key of a body.
std::string_view bodyKey(std::string_view pointer) {
    constexpr std::string_view kPrefix = "/bodies/";
    if (!pointer.starts_with(kPrefix)) return {};
    pointer.remove_prefix(kPrefix.size());
    const size_t index = pointer.find('/');
    if (index == std::string_view::npos) return {};
    pointer.remove_prefix(index + 1);
    return pointer.substr(0, pointer.find('/'));
}

// A body key of kPerCopyBodyKeys, or one clear line.
void checkBodyPointer(const std::filesystem::path& source, const std::string& pointer) {
    const std::string_view key = bodyKey(pointer);
    for (const std::string_view allowed : kPerCopyBodyKeys)
        if (key == allowed) return;
    refuseBatch(source, fmt::format("vary {}: of a body only \"mass\", \"density\", \"position\", \"rotation\", "
                                    "\"velocity\", \"angularVelocity\", \"friction\", \"staticFriction\", \"restitution\" and "
                                    "\"color\" vary per copy (\"/bodies/0/mass\"); its type, name and shape are "
                                    "the scene's",
                                    quoteInput(pointer)));
}

bool under(std::string_view pointer, std::string_view key) {
    return pointer == key || (pointer.starts_with(key) && pointer[key.size()] == '/');
}

// The one key under /solver a copy has its own value of: its objects fall
// by it (ObjectRange::gravity). The others shape the step every copy takes
// in the same dispatches (time step, substeps, iterations, paths) or are
// one setting of the world's passes.
constexpr std::string_view kPerCopyGravity = "/solver/gravity";

nlohmann::json::json_pointer pointerOf(const std::filesystem::path& source, const BatchVary& vary) {
    try {
        nlohmann::json::json_pointer pointer(vary.pointer);
        if (under(vary.pointer, "/solver") && !under(vary.pointer, kPerCopyGravity))
            refuseBatch(source, fmt::format("vary {}: the copies share /solver (one World's step and dispatches "
                                            "for all); of /solver only {} varies per copy",
                                            quoteInput(vary.pointer), quoteInput(kPerCopyGravity)));
        for (const std::string_view shared : kSharedKeys)
            if (shared != "/solver" && under(vary.pointer, shared))
                refuseBatch(source, fmt::format("vary {}: the copies share {} (one World steps them together); "
                                                "vary the objects' keys",
                                                quoteInput(vary.pointer), shared));
        if (under(vary.pointer, "/bodies")) checkBodyPointer(source, vary.pointer);
        if (vary.pointer.empty()) refuseBatch(source, "vary \"\": the whole scene cannot vary");
        return pointer;
    } catch (const nlohmann::json::exception&) {
        refuseBatch(source, fmt::format("vary {}: not a JSON pointer (\"/objects/0/mass\")", quoteInput(vary.pointer)));
    }
}

Scene parseCopy(const nlohmann::json& document, const std::filesystem::path& source, uint32_t copy) {
    try {
        return parseScene(document.dump(), source);
    } catch (const SceneError& e) {
        throw SceneError(fmt::format("batch copy {}: {}", copy, e.what()));
    }
}

}  // namespace

SceneBatch buildSceneBatch(std::string_view jsonText, const std::filesystem::path& sourceName, uint32_t count,
                           const std::vector<BatchVary>& vary) {
    checkBatchCount(count, sourceName);
    // The scene as it is, for its own checks and messages first.
    const Scene base = parseScene(jsonText, sourceName);
    if (vary.empty()) return replicateScene(base, count);
    const nlohmann::json document = json_input::parseJsonText(jsonText);
    std::vector<nlohmann::json::json_pointer> pointers;
    for (const BatchVary& v : vary) {
        pointers.push_back(pointerOf(sourceName, v));
        // Missing keys are created (a default varies: "/objects/0/stretch/stiffness"
        // without a "stretch" block), in the deepest object the scene has.
        nlohmann::json::json_pointer missing = pointers.back(), held = missing.parent_pointer();
        while (!document.contains(held)) missing = std::exchange(held, held.parent_pointer());
        if (document[held].is_array())
            refuseBatch(sourceName, fmt::format("vary {}: the scene has no {}", quoteInput(v.pointer),
                                                quoteInput(missing.to_string())));
        if (!document[held].is_object())
            refuseBatch(sourceName, fmt::format("vary {}: {} is a value, not an object", quoteInput(v.pointer),
                                                quoteInput(held.to_string())));
        if (v.values.size() != count)
            refuseBatch(sourceName,
                        fmt::format("vary {}: {} values for {} copies", quoteInput(v.pointer), v.values.size(), count));
    }

    bool ownGravity = false;
    for (const BatchVary& v : vary) ownGravity = ownGravity || under(v.pointer, kPerCopyGravity);
    // The rigid solver's push holds one gravity for every body.
    if (ownGravity && !base.bodies.empty())
        refuseBatch(sourceName, fmt::format("vary {}: a batch's rigid bodies fall by the world's one gravity",
                                            quoteInput(kPerCopyGravity)));
    SceneBatch batch = emptyBatch(base, count);
    for (uint32_t copy = 0; copy < count; ++copy) {
        nlohmann::json varied = document;
        for (size_t k = 0; k < vary.size(); ++k) varied[pointers[k]] = vary[k].values[copy];
        Scene one = parseCopy(varied, sourceName, copy);
        // Every copy's objects fall by their copy's gravity, not the world's.
        if (ownGravity) {
            for (ClothObject& cloth : one.cloths) cloth.gravity = one.solver.gravity;
            for (SolidObject& solid : one.solids) solid.gravity = one.solver.gravity;
        }
        appendCopy(batch, std::move(one), copy);
    }
    return batch;
}

}  // namespace vksim
