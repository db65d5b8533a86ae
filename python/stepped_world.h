#pragma once
// What vksim.World and vksim.Batch share: reading the scene they are given,
// and a World on the device context of its device, stepped one waited-for
// submission per frame. Deleting the Python object frees the World; the
// context is shared (sharedContext below).
#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "run/progress_bar.h"
#include "scene/scene.h"
#include "scene/scene_loader.h"
#include "solvers/model_summary.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim::python {

namespace py = pybind11;

// The scene's JSON text and its source name, from a path or a dict.
inline std::pair<std::string, std::string> sceneText(const py::object& scene, const char* who) {
    if (py::isinstance<py::dict>(scene))
        return {py::module_::import("json").attr("dumps")(scene).cast<std::string>(), "<dict>"};
    if (py::isinstance<py::str>(scene) || py::hasattr(scene, "__fspath__")) {
        const std::string path = py::str(py::module_::import("os").attr("fspath")(scene)).cast<std::string>();
        try {
            return {readSceneText(path), path};
        } catch (const SceneError& e) {
            throw py::value_error(e.what());
        }
    }
    throw py::type_error(std::string(who) + ": scene must be a path or a dict in the scene format");
}

// The device context of every World and Batch built with the same `device=`
// and `validate=`: one per process, kept from the first such world until
// the interpreter exits (releaseSharedContexts, at exit), and held by each
// world built on it. Building a World is mostly compiling its shaders, once
// per context (vk/compute_pipelines.h): a loop that builds and drops worlds
// compiles them once, not once per world. The context serialises the queue
// (VulkanContext::lockQueue), so worlds may step on several threads. A
// context whose GPU stopped answering (a GPU time-out) is not handed out
// again.
inline std::map<std::pair<std::string, bool>, std::shared_ptr<VulkanContext>>& sharedContexts() {
    static std::map<std::pair<std::string, bool>, std::shared_ptr<VulkanContext>> contexts;
    return contexts;
}

inline std::shared_ptr<VulkanContext> sharedContext(const py::object& device, bool validate) {
    const std::string selector = device.is_none() ? std::string() : std::string(py::str(device));
    std::shared_ptr<VulkanContext>& kept = sharedContexts()[{selector, validate}];
    if (!kept || kept->unresponsive()) {
        ContextOptions options;
        options.validation = validate;
        options.deviceSelector = selector;
        kept = std::make_shared<VulkanContext>(options);
    }
    return kept;
}

// Drops the module's own references; a context goes when its last world does.
inline void releaseSharedContexts() { sharedContexts().clear(); }

class SteppedWorld {
public:
    // `name`: "vksim.World" or "vksim.Batch", for messages.
    SteppedWorld(const Scene& scene, const py::object& device, bool validate, std::string name)
        : name_(std::move(name)), ctx_(sharedContext(device, validate)), messagesBefore_(contextMessages()) {
        world_ = std::make_unique<World>(*ctx_, scene, 1);
        // What the CLI prints in its model summary, as Python's warnings.
        for (const std::string& warning : modelWarnings(world_->diagnostics()))
            if (PyErr_WarnEx(PyExc_UserWarning, fmt::format("{}: {}", name_, warning).c_str(), 1) != 0)
                throw py::error_already_set();  // warnings turned into errors
    }

    // The World first: it frees its buffers on the context.
    ~SteppedWorld() { world_.reset(); }

    // One submission per frame, waited for: the state is readable when it
    // returns. A frame that went non-finite raises RuntimeError with the
    // engine's one-line report (the pass and particle that went first).
    // The progress bar (run/progress_bar.h) is drawn on stderr when
    // `progress` is True, or None and stderr is a terminal.
    void step(uint64_t frames, const py::object& progress) {
        const bool shown = progress.is_none() ? progressBarWanted(false) : progress.cast<bool>();
        std::optional<ProgressBar> bar;
        if (shown && frames > 0) bar.emplace(world_->scene().name, frames);
        py::gil_scoped_release released;  // other Python threads run while the GPU steps
        for (uint64_t f = 0; f < frames; ++f) {
            ctx_->submitAndWait([&](VkCommandBuffer cmd) { world_->recordFrame(cmd, 0); });
            world_->collectTimings(0);
            world_->throwIfNonFinite(0);
            if (bar) bar->frameCollected(0, world_->framesRecorded() - 1);
        }
    }

    uint64_t frame() const { return world_->framesRecorded(); }
    double time() const { return double(frame()) * world_->scene().solver.timeStep; }

    py::bytes saveState() const { return py::bytes(world_->saveState()); }
    void loadState(const py::bytes& state) {
        try {
            world_->loadState(std::string(state), name_ + ".load_state");
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
    }

    // pass name -> median GPU milliseconds per frame over the frames stepped so far
    py::dict timings() const {
        py::dict out;
        const TimingReport report = world_->timer().report();
        for (const PassTiming& pass : report.passes) out[py::str(pass.name)] = pass.medianMs;
        out["step total"] = report.step.medianMs;
        return out;
    }

    // The validation messages of the world's context since the world was
    // built: its own, and those of any other world on the same device and
    // validation setting stepped meanwhile.
    uint32_t validationMessages() const { return contextMessages() - messagesBefore_; }

protected:
    uint32_t contextMessages() const {
        return ctx_->validationCounts().errors.load() + ctx_->validationCounts().warnings.load();
    }

    std::string name_;
    std::shared_ptr<VulkanContext> ctx_;
    uint32_t messagesBefore_ = 0;
    std::unique_ptr<World> world_;
};

}  // namespace vksim::python
