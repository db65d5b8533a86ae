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
#include "solvers/rigid/rigid_solver.h"
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
        const std::vector<gpu::RigidBodyState> states = bodyStates();
        std::vector<std::string> hashes;
        std::vector<glm::vec4> copy(perCopy_);
        for (uint32_t c = 0; c < count_; ++c) {
            for (uint32_t i = 0; i < perCopy_; ++i) copy[i] = x[order_[size_t(c) * perCopy_ + i]];
            const std::span<const gpu::RigidBodyState> own(states.data() + size_t(c) * bodiesPerCopy_,
                                                           bodiesPerCopy_);
            hashes.push_back(formatHash(hashState(copy, own)));
        }
        return hashes;
    }

    // Each copy's rigid bodies, as World.bodies() gives them with a copy axis
    // first: the bodies of a batch are listed copy after copy.
    py::dict bodies() const {
        const std::vector<gpu::RigidBodyState> states = bodyStates();
        const auto count = py::ssize_t(count_), k = py::ssize_t(bodiesPerCopy_);
        py::array_t<float> position({count, k, py::ssize_t(3)}), rotation({count, k, py::ssize_t(4)});
        py::array_t<float> linear({count, k, py::ssize_t(3)}), angular({count, k, py::ssize_t(3)});
        auto x = position.mutable_unchecked<3>(), q = rotation.mutable_unchecked<3>();
        auto v = linear.mutable_unchecked<3>(), w = angular.mutable_unchecked<3>();
        for (py::ssize_t c = 0; c < count; ++c)
            for (py::ssize_t b = 0; b < k; ++b) {
                const gpu::RigidBodyState& s = states[size_t(c * k + b)];
                for (int i = 0; i < 3; ++i) {
                    x(c, b, i) = s.position[i];
                    v(c, b, i) = s.linearVelocity[i];
                    w(c, b, i) = s.angularVelocity[i];
                }
                for (int i = 0; i < 4; ++i) q(c, b, i) = s.rotation[i];
            }
        py::dict out;
        out["names"] = bodyNames_;
        out["position"] = position;
        out["rotation"] = rotation;
        out["linear_velocity"] = linear;
        out["angular_velocity"] = angular;
        return out;
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
        bodiesPerCopy_ = model.rigid.bodyCount() / count_;
        for (const BodyDesc& body : batch.scene.bodies)
            if (body.batchCopy == 0) bodyNames_.push_back(body.name.substr(0, body.name.rfind('#')));
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

    std::vector<gpu::RigidBodyState> bodyStates() const {
        const RigidSolver& rigid = world_->solver<RigidSolver>();
        return rigid.empty() ? std::vector<gpu::RigidBodyState>{} : rigid.readStates();
    }

    uint32_t count_ = 0;
    uint32_t perCopy_ = 0;
    uint32_t bodiesPerCopy_ = 0;
    std::vector<std::string> bodyNames_;  // one copy's, as the scene names them
    std::vector<uint32_t> order_;  // copy after copy, each copy's particles in its own model order
};

}  // namespace vksim::python
