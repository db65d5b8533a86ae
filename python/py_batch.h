#pragma once
// vksim.Batch: `count` copies of a scene in one World (scene/scene_batch.h),
// each copy's state gathered as NumPy arrays in the order a World of that
// copy alone has.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "diagnostics/state_hash.h"
#include "scene/scene_batch.h"
#include "scene/scene_loader.h"
#include "stepped_world.h"

namespace vksim::python {

// vksim.Batch: `count` copies of a scene in one World (scene/scene_batch.h).
class PyBatch : public SteppedWorld {
public:
    PyBatch(const py::object& scene, uint32_t count, const py::object& vary, const py::object& device, bool validate)
        : PyBatch(build(scene, count, vary), device, validate) {}

    uint32_t count() const { return count_; }
    uint32_t particlesPerCopy() const { return perCopy_; }
    py::array_t<float> positions() const { return gathered(world_->particles().readPositions()); }
    py::array_t<float> velocities() const { return gathered(world_->particles().readVelocities()); }
    // Each copy's state-hash: what a World of that copy alone prints.
    std::vector<std::string> stateHashes() const {
        const std::vector<glm::vec4> x = world_->particles().readPositions();
        std::vector<std::string> hashes;
        std::vector<glm::vec4> copy(perCopy_);
        for (uint32_t c = 0; c < count_; ++c) {
            for (uint32_t i = 0; i < perCopy_; ++i) copy[i] = x[order_[size_t(c) * perCopy_ + i]];
            hashes.push_back(formatHash(hashPositions(copy)));
        }
        return hashes;
    }

private:
    PyBatch(SceneBatch batch, const py::object& device, bool validate)
        : SteppedWorld(batch.scene, device, validate, "vksim.Batch"), count_(batch.count) {
        // Copy c's particles in model order: the order a World of that copy alone has.
        const SimModel& model = world_->model();
        std::vector<std::vector<uint32_t>> perCopy(count_);
        std::map<std::string, uint32_t> copyOf;
        for (uint32_t c = 0; c < count_; ++c)
            for (const std::string& name : batch.objectNames) copyOf[batchObjectName(name, c)] = c;
        for (const ObjectRange& object : model.objects)
            for (uint32_t i = 0; i < object.particleCount; ++i)
                perCopy[copyOf.at(object.name)].push_back(object.firstParticle + i);
        perCopy_ = uint32_t(perCopy[0].size());
        for (const std::vector<uint32_t>& indices : perCopy)
            order_.insert(order_.end(), indices.begin(), indices.end());
    }

    static SceneBatch build(const py::object& scene, uint32_t count, const py::object& vary) {
        const auto [text, source] = sceneText(scene, "vksim.Batch");
        std::vector<BatchVary> varied;
        if (!vary.is_none()) {
            const py::module_ json = py::module_::import("json");
            for (const auto& [key, values] : vary.cast<py::dict>()) {
                BatchVary v{py::str(key).cast<std::string>(), {}};
                for (const py::handle value : py::iter(values)) {
                    // NumPy scalars become Python numbers first.
                    const py::object plain = py::hasattr(value, "tolist") ? value.attr("tolist")()
                                                                          : py::reinterpret_borrow<py::object>(value);
                    v.values.push_back(nlohmann::json::parse(json.attr("dumps")(plain).cast<std::string>()));
                }
                varied.push_back(std::move(v));
            }
        }
        try {
            return buildSceneBatch(text, source, count, varied);
        } catch (const SceneError& e) {
            throw py::value_error(e.what());
        }
    }

    py::array_t<float> gathered(const std::vector<glm::vec4>& values) const {
        py::array_t<float> out({py::ssize_t(count_), py::ssize_t(perCopy_), py::ssize_t(3)});
        auto a = out.mutable_unchecked<3>();
        for (uint32_t c = 0; c < count_; ++c)
            for (uint32_t i = 0; i < perCopy_; ++i)
                for (int k = 0; k < 3; ++k) a(c, i, k) = values[order_[size_t(c) * perCopy_ + i]][k];
        return out;
    }

    uint32_t count_ = 0;
    uint32_t perCopy_ = 0;
    std::vector<uint32_t> order_;  // copy after copy, each copy's particles in its own model order
};

}  // namespace vksim::python
