// The Python module `vksim` (docs/python.md): a World built from a scene
// file or dict, stepped on the GPU, its state as NumPy arrays. Everything
// here is the engine's own API (world/world.h); this file only converts.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "diagnostics/state_hash.h"
#include "scene/scene_loader.h"
#include "solvers/rigid/rigid_solver.h"
#include "vk/context.h"
#include "world/world.h"

namespace py = pybind11;

namespace vksim::python {
namespace {

// A world and the device context it runs on, which it outlives in no case:
// deleting the Python object frees both.
class PyWorld {
public:
    PyWorld(const py::object& scene, const py::object& device, bool validate) {
        ContextOptions options;
        options.validation = validate;
        if (!device.is_none()) options.deviceSelector = py::str(device);
        Scene loaded = load(scene);
        ctx_ = std::make_unique<VulkanContext>(options);
        world_ = std::make_unique<World>(*ctx_, loaded, 1);
        world_->setNormalsWanted(false);
        timeStep_ = loaded.solver.timeStep;
    }

    // One submission per frame, waited for: the state is readable when it
    // returns. A frame that went non-finite raises RuntimeError with the
    // engine's one-line report (the pass and particle that went first).
    void step(uint64_t frames) {
        py::gil_scoped_release released;  // other Python threads run while the GPU steps
        for (uint64_t f = 0; f < frames; ++f) {
            ctx_->submitAndWait([&](VkCommandBuffer cmd) { world_->recordFrame(cmd, 0); });
            world_->collectTimings(0);
            world_->throwIfNonFinite(0);
            ++frame_;
        }
    }

    uint64_t frame() const { return frame_; }
    double time() const { return double(frame_) * timeStep_; }
    uint32_t particleCount() const { return world_->particleCount(); }

    py::array_t<float> positions() const { return xyz(world_->particles().readPositions()); }
    py::array_t<float> velocities() const { return xyz(world_->particles().readVelocities()); }
    void setPositions(const py::array& values) { world_->setPositions(vectors(values, "positions")); }
    void setVelocities(const py::array& values) { world_->setVelocities(vectors(values, "velocities")); }

    std::string stateHash() const { return formatHash(world_->stateHash()); }
    uint32_t validationMessages() const {
        return ctx_->validationCounts().errors.load() + ctx_->validationCounts().warnings.load();
    }

    // name -> {"first": first particle, "count": particles, "triangles": (m, 3) int32 indices into them}
    py::dict objects() const {
        py::dict out;
        const SimModel& model = world_->model();
        for (const ObjectRange& object : model.objects) {
            py::dict entry;
            entry["first"] = object.firstParticle;
            entry["count"] = object.particleCount;
            py::array_t<uint32_t> triangles({py::ssize_t(object.triangleCount), py::ssize_t(3)});
            auto t = triangles.mutable_unchecked<2>();
            for (uint32_t k = 0; k < object.triangleCount; ++k)
                for (int c = 0; c < 3; ++c)
                    t(k, c) = model.triangles[3 * (object.firstTriangle + k) + c] - object.firstParticle;
            entry["triangles"] = triangles;
            out[py::str(object.name)] = entry;
        }
        return out;
    }

    // The rigid bodies, as float32 arrays over the bodies in scene order.
    py::dict bodies() const {
        const std::vector<gpu::RigidBodyState> states = world_->solver<RigidSolver>().readStates();
        const auto count = py::ssize_t(states.size());
        py::array_t<float> position({count, py::ssize_t(3)}), rotation({count, py::ssize_t(4)});
        py::array_t<float> linear({count, py::ssize_t(3)}), angular({count, py::ssize_t(3)});
        auto x = position.mutable_unchecked<2>(), q = rotation.mutable_unchecked<2>();
        auto v = linear.mutable_unchecked<2>(), w = angular.mutable_unchecked<2>();
        for (py::ssize_t b = 0; b < count; ++b) {
            const gpu::RigidBodyState& s = states[b];
            for (int c = 0; c < 3; ++c) {
                x(b, c) = s.position[c];
                v(b, c) = s.linearVelocity[c];
                w(b, c) = s.angularVelocity[c];
            }
            for (int c = 0; c < 4; ++c) q(b, c) = s.rotation[c];
        }
        py::dict out;
        out["names"] = world_->model().rigid.names;
        out["position"] = position;
        out["rotation"] = rotation;
        out["linear_velocity"] = linear;
        out["angular_velocity"] = angular;
        return out;
    }

    // pass name -> median GPU milliseconds per frame over the frames stepped so far
    py::dict timings() const {
        py::dict out;
        const TimingReport report = world_->timer().report();
        for (const PassTiming& pass : report.passes) out[py::str(pass.name)] = pass.medianMs;
        out["step total"] = report.step.medianMs;
        return out;
    }

private:
    static Scene load(const py::object& scene) {
        try {
            if (py::isinstance<py::dict>(scene)) {
                const std::string text = py::module_::import("json").attr("dumps")(scene).cast<std::string>();
                return parseScene(text, "<dict>");
            }
            if (py::isinstance<py::str>(scene) || py::hasattr(scene, "__fspath__"))
                return loadScene(py::str(py::module_::import("os").attr("fspath")(scene)).cast<std::string>());
        } catch (const SceneError& e) {
            throw py::value_error(e.what());
        }
        throw py::type_error("vksim.World: scene must be a path or a dict in the scene format");
    }

    static py::array_t<float> xyz(const std::vector<glm::vec4>& values) {
        py::array_t<float> out({py::ssize_t(values.size()), py::ssize_t(3)});
        auto a = out.mutable_unchecked<2>();
        for (size_t i = 0; i < values.size(); ++i)
            for (int c = 0; c < 3; ++c) a(i, c) = values[i][c];
        return out;
    }

    std::vector<glm::vec3> vectors(const py::array& values, const char* what) const {
        const uint32_t n = world_->particleCount();
        if (!values.dtype().is(py::dtype::of<float>()))
            throw py::type_error(std::string("vksim.World.set_") + what + ": expected a float32 array, got " +
                                 py::str(values.dtype()).cast<std::string>());
        if (values.ndim() != 2 || values.shape(0) != n || values.shape(1) != 3) {
            const std::vector<py::ssize_t> shape(values.shape(), values.shape() + values.ndim());
            throw py::value_error(std::string("vksim.World.set_") + what + ": expected shape (" + std::to_string(n) +
                                  ", 3), got " + py::str(py::tuple(py::cast(shape))).cast<std::string>());
        }
        const auto a = py::array_t<float>(values).unchecked<2>();
        std::vector<glm::vec3> out(n);
        for (uint32_t i = 0; i < n; ++i) {
            out[i] = glm::vec3(a(i, 0), a(i, 1), a(i, 2));
            if (!std::isfinite(out[i].x) || !std::isfinite(out[i].y) || !std::isfinite(out[i].z))
                throw py::value_error(std::string("vksim.World.set_") + what + ": row " + std::to_string(i) +
                                      " is not finite");
        }
        return out;
    }

    std::unique_ptr<VulkanContext> ctx_;
    std::unique_ptr<World> world_;
    uint64_t frame_ = 0;
    double timeStep_ = 0.0;
};

py::list devices() {
    py::list out;
    for (const DeviceInfo& device : VulkanContext::listDevices()) {
        py::dict entry;
        entry["index"] = device.index;
        entry["name"] = device.name;
        entry["type"] = device.type;
        entry["usable"] = device.usable;
        out.append(entry);
    }
    return out;
}

}  // namespace
}  // namespace vksim::python

PYBIND11_MODULE(vksim, m) {
    using vksim::python::PyWorld;
    m.doc() = "vksim: real-time physics on Vulkan compute (docs/python.md)";
    m.def("devices", &vksim::python::devices,
          "The Vulkan devices: a list of dicts with index, name, type and whether vksim can use it.");
    py::class_<PyWorld>(m, "World", "A simulated world built from a scene, stepped on the GPU.")
        .def(py::init<const py::object&, const py::object&, bool>(), py::arg("scene"), py::arg("device") = py::none(),
             py::arg("validate") = false,
             "World(scene, device=None, validate=False): `scene` is a path to a scene file or a dict in the scene "
             "format (errors raise ValueError with the loader's one-line message); `device` an index or a name "
             "substring from vksim.devices(); `validate` turns on the Khronos validation layer.")
        .def("step", &PyWorld::step, py::arg("frames") = 1, "Steps `frames` frames on the GPU; returns when done.")
        .def_property_readonly("frame", &PyWorld::frame, "Frames stepped so far.")
        .def_property_readonly("time", &PyWorld::time, "Simulated seconds so far (frames x timeStep).")
        .def_property_readonly("particle_count", &PyWorld::particleCount, "Particles of every object.")
        .def("positions", &PyWorld::positions, "The particle positions: a float32 (n, 3) copy.")
        .def("velocities", &PyWorld::velocities, "The particle velocities: a float32 (n, 3) copy.")
        .def("set_positions", &PyWorld::setPositions, py::arg("positions"),
             "New particle positions, a float32 (n, 3) array; pinned particles keep their mass.")
        .def("set_velocities", &PyWorld::setVelocities, py::arg("velocities"),
             "New particle velocities, a float32 (n, 3) array; pinned particles stay at rest.")
        .def("state_hash", &PyWorld::stateHash,
             "The state-hash, 16 hex digits: what `vksim SCENE --hash` prints after the same frames.")
        .def_property_readonly("objects", &PyWorld::objects,
                               "Per object name: its first particle, particle count and triangles (a uint32 (m, 3) "
                               "array of indices into its particles).")
        .def("bodies", &PyWorld::bodies,
             "The rigid bodies: a dict of their names, and float32 arrays of their centres of mass (k, 3), "
             "rotations as quaternions (x, y, z, w) (k, 4), linear and angular velocities (k, 3).")
        .def("timings", &PyWorld::timings, "Per pass, the median GPU milliseconds per frame so far.")
        .def_property_readonly("validation_messages", &PyWorld::validationMessages,
                               "Validation errors and warnings so far (with validate=True; else 0).");
}
