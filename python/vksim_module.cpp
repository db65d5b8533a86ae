// The Python module `vksim` (docs/python.md): a World built from a scene
// file or dict, stepped on the GPU, its state as NumPy arrays. Everything
// here is the engine's own API (world/world.h); this file only converts.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "diagnostics/state_hash.h"
#include "io/obj_writer.h"
#include "io/ply_writer.h"
#include "material_edits.h"
#include "stepped_world.h"
#include "run/progress_bar.h"
#include "vk/device_memory_count.h"
#include "scene/scene_batch.h"
#include "scene/scene_loader.h"
#include "solvers/rigid/rigid_solver.h"
#include "vk/context.h"
#include "world/world.h"

namespace py = pybind11;

namespace vksim::python {
namespace {

// vksim.World: a world built from a scene file or dict.
class PyWorld : public SteppedWorld {
public:
    PyWorld(const py::object& scene, const py::object& device, bool validate)
        : SteppedWorld(load(scene), device, validate, "vksim.World") {}

    // The solver block's keys (docs/scene-format.md) over the running settings.
    void setSolver(const py::kwargs& values) {
        const std::string source = "vksim.World.set_solver";
        const std::string text = py::module_::import("json").attr("dumps")(values).cast<std::string>();
        try {
            world_->setSettings(parseSolverSettings(text, world_->scene().solver, source), source);
        } catch (const SceneError& e) {
            throw py::value_error(e.what());
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
    }

    void setMaterial(const std::string& name, const py::kwargs& values) {
        std::vector<std::pair<std::string, float>> edits;
        for (const auto& [key, value] : values) edits.emplace_back(py::str(key), value.cast<float>());
        try {
            applyMaterialEdits(*world_, name, edits);
        } catch (const std::invalid_argument& e) {
            throw py::value_error(e.what());
        }
    }

    std::optional<uint32_t> pick(const py::array_t<float>& origin, const py::array_t<float>& direction,
                                 float radius) const {
        const std::optional<PickHit> hit = world_->pick(Ray{vec3(origin, "origin"), vec3(direction, "direction")},
                                                        radius);
        if (!hit) return std::nullopt;
        return hit->particle;
    }
    void drag(uint32_t particle, const py::array_t<float>& target) {
        try {
            world_->drag(particle, vec3(target, "target"));
        } catch (const std::invalid_argument& e) {
            throw py::value_error(std::string("vksim.World.drag: ") + e.what());
        }
    }
    void release() { world_->release(); }

    // Residual and energy tracking (World::setResidualTracking).
    bool tracking() const { return world_->residualTracking(); }
    void setTracking(bool on) { world_->setResidualTracking(on); }
    py::dict residuals() const {
        requireTracking("residuals");
        py::dict out;
        out["pbd"] = world_->lastResidualPerIteration();
        out["pd"] = world_->lastPdResidualPerIteration();
        out["springs"] = world_->lastSpringGradientPerIteration();
        return out;
    }
    py::dict energies() const {
        requireTracking("energies");
        py::dict out;
        out["pbd"] = world_->lastPbdEnergyPerIteration();
        out["pd"] = world_->lastPdEnergyPerIteration();
        out["springs"] = world_->lastSpringObjectivePerIteration();
        out["springs_objects"] = world_->lastSpringObjectEnergies();
        return out;
    }

    // One object's surface at the current frame, as OBJ or PLY by the
    // file's extension.
    void exportMesh(const std::string& path, const py::object& objectName) const {
        const SimModel& model = world_->model();
        const ObjectRange* chosen = nullptr;
        std::vector<std::string> withSurfaces;
        for (const ObjectRange& object : model.objects) {
            if (object.triangleCount == 0) continue;
            withSurfaces.push_back(object.name);
            const bool named = !objectName.is_none() && object.name == py::str(objectName).cast<std::string>();
            if (objectName.is_none() ? withSurfaces.size() == 1 : named) chosen = &object;
        }
        if (objectName.is_none() && withSurfaces.size() != 1)
            throw py::value_error(fmt::format("vksim.World.export: name the object (one of {})",
                                              fmt::join(withSurfaces, ", ")));
        if (!chosen)
            throw py::value_error(fmt::format("vksim.World.export: no object with a surface is named \"{}\" (the "
                                              "scene's: {})",
                                              py::str(objectName).cast<std::string>(), fmt::join(withSurfaces, ", ")));
        const std::filesystem::path file(path);
        if (file.extension() != ".obj" && file.extension() != ".ply")
            throw py::value_error("vksim.World.export: " + path + ": expected a file name ending in .obj or .ply");
        const std::vector<glm::vec4> x = world_->particles().readPositions();
        const std::vector<glm::vec4> n = world_->normals().downloadArray<glm::vec4>();
        std::vector<uint32_t> triangles(3 * chosen->triangleCount);
        for (size_t k = 0; k < triangles.size(); ++k)
            triangles[k] = model.triangles[3 * chosen->firstTriangle + k] - chosen->firstParticle;
        const MeshView mesh{std::span(x).subspan(chosen->firstParticle, chosen->particleCount),
                            std::span(n).subspan(chosen->firstParticle, chosen->particleCount), triangles};
        const std::string comment = fmt::format("vksim: {} at frame {}", chosen->name, frame());
        try {
            if (file.extension() == ".obj")
                writeObj(file, mesh, chosen->name, comment);
            else
                writePly(file, mesh, comment);
        } catch (const std::runtime_error& e) {
            throw py::value_error(e.what());  // OSError would lose the one line's file name order
        }
    }
    uint32_t particleCount() const { return world_->particleCount(); }

    py::array_t<float> positions() const { return xyz(world_->particles().readPositions()); }
    py::array_t<float> velocities() const { return xyz(world_->particles().readVelocities()); }
    void setPositions(const py::array& values) { world_->setPositions(vectors(values, "positions")); }
    void setVelocities(const py::array& values) { world_->setVelocities(vectors(values, "velocities")); }

    std::string stateHash() const { return formatHash(world_->stateHash()); }

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
            py::array_t<bool> pinned(py::ssize_t(object.particleCount));
            auto p = pinned.mutable_unchecked<1>();
            for (uint32_t i = 0; i < object.particleCount; ++i)
                p(i) = model.positions[object.firstParticle + i].w == 0.0f;  // inverse mass 0
            entry["pinned"] = pinned;
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

    static glm::vec3 vec3(const py::array_t<float>& value, const char* what) {
        if (value.ndim() != 1 || value.shape(0) != 3)
            throw py::value_error(std::string("vksim.World: ") + what + ": expected 3 numbers");
        const glm::vec3 v(value.at(0), value.at(1), value.at(2));
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
            throw py::value_error(std::string("vksim.World: ") + what + ": not finite");
        return v;
    }

    void requireTracking(const char* what) const {
        if (!world_->residualTracking())
            throw py::value_error(std::string("vksim.World.") + what +
                                  ": tracking is off; set w.tracking = True before stepping");
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
};

// The scene's JSON text and its source name, from a path or a dict.
std::pair<std::string, std::string> sceneText(const py::object& scene, const char* who) {
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

py::dict deviceMemory() {
    const DeviceMemoryInUse inUse = deviceMemoryInUse();
    py::dict out;
    out["bytes"] = inUse.bytes;
    out["allocations"] = inUse.allocations;
    return out;
}

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
    using vksim::python::PyBatch;
    using vksim::python::PyWorld;
    m.doc() = "vksim: real-time physics on Vulkan compute (docs/python.md)";
    m.def("device_memory", &vksim::python::deviceMemory,
          "The device memory every live world of this process holds: {\"bytes\", \"allocations\"}.");
    m.def("devices", &vksim::python::devices,
          "The Vulkan devices: a list of dicts with index, name, type and whether vksim can use it.");
    py::class_<PyWorld>(m, "World", "A simulated world built from a scene, stepped on the GPU.")
        .def(py::init<const py::object&, const py::object&, bool>(), py::arg("scene"), py::arg("device") = py::none(),
             py::arg("validate") = false,
             "World(scene, device=None, validate=False): `scene` is a path to a scene file or a dict in the scene "
             "format (errors raise ValueError with the loader's one-line message); `device` an index or a name "
             "substring from vksim.devices(); `validate` turns on the Khronos validation layer.")
        .def("step", &PyWorld::step, py::arg("frames") = 1, py::arg("progress") = py::none(),
             "Steps `frames` frames on the GPU; returns when done. `progress`: draw a progress bar on stderr "
             "(None: when stderr is a terminal).")
        .def_property_readonly("frame", &PyWorld::frame, "Frames stepped so far (continued by load_state).")
        .def_property_readonly("time", &PyWorld::time, "Simulated seconds so far (frame x the current timeStep).")
        .def("save_state", &PyWorld::saveState,
             "The simulation's state as bytes: every particle, body and solver iterate, and the frame. "
             "Parameters (materials, settings) are not in it.")
        .def("load_state", &PyWorld::loadState, py::arg("state"),
             "Restores bytes from save_state() of a world of the same objects, bit for bit; ValueError for "
             "damaged bytes or a state of other objects, changing nothing.")
        .def("set_solver", &PyWorld::setSolver,
             "Changes solver settings from the next frame on: keyword arguments are the scene format's \"solver\" "
             "keys (substeps=8, iterations=12, pbdPath=\"perColour\", pd={\"iterations\": 5}, ...); the others keep "
             "their values. ValueError (the loader's one-line message) for a value the scene would refuse.")
        .def("set_material", &PyWorld::setMaterial, py::arg("name"),
             "Changes an object's material from the next frame on, as the viewer's sliders do: "
             "set_material(\"cloth\", stretch=0.5). The keys per kind of object are in docs/python.md.")
        .def("pick", &PyWorld::pick, py::arg("origin"), py::arg("direction"), py::arg("radius") = 0.05f,
             "The particle a ray hits (the viewer's picking), or None.")
        .def("drag", &PyWorld::drag, py::arg("particle"), py::arg("target"),
             "From the next frame on, `particle` is pulled to `target` (3 floats), as the viewer's mouse drags.")
        .def("release", &PyWorld::release, "Ends a drag.")
        .def_property("tracking", &PyWorld::tracking, &PyWorld::setTracking,
                      "Whether residuals and energies are tracked (off by default: tracking records more passes).")
        .def("residuals", &PyWorld::residuals,
             "The last substep's residual after each iteration: {\"pbd\": mean |C| [m], \"pd\": ||b - Aq|| [N], "
             "\"springs\": ||grad F|| [N]}; empty lists for solvers without objects. Needs tracking.")
        .def("energies", &PyWorld::energies,
             "The last substep's objective after each iteration [J]: {\"pbd\" (XPBD), \"pd\", \"springs\"}, "
             "and \"springs_objects\": each mass-spring object's total energy. Needs tracking.")
        .def("export", &PyWorld::exportMesh, py::arg("path"), py::arg("object") = py::none(),
             "Writes an object's surface at the current frame to `path` (.obj or .ply); `object` names it (needed "
             "when the scene has more than one).")
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
                               "Per object name: its first particle, particle count, triangles (a uint32 (m, 3) "
                               "array of indices into its particles) and pinned mask (bool, one per particle).")
        .def("bodies", &PyWorld::bodies,
             "The rigid bodies: a dict of their names, and float32 arrays of their centres of mass (k, 3), "
             "rotations as quaternions (x, y, z, w) (k, 4), linear and angular velocities (k, 3).")
        .def("timings", &PyWorld::timings, "Per pass, the median GPU milliseconds per frame so far.")
        .def_property_readonly("validation_messages", &PyWorld::validationMessages,
                               "Validation errors and warnings so far (with validate=True; else 0).");
    py::class_<PyBatch>(m, "Batch",
                        "`count` copies of a scene stepped together in one world: one dispatch per pass for all.")
        .def(py::init<const py::object&, uint32_t, const py::object&, const py::object&, bool>(), py::arg("scene"),
             py::arg("count"), py::arg("vary") = py::none(), py::arg("device") = py::none(),
             py::arg("validate") = false,
             "Batch(scene, count, vary=None, device=None, validate=False): `vary` maps JSON pointers into the scene "
             "(\"/objects/0/mass\") to one value per copy. ValueError for what the loader or the batch refuses.")
        .def_property_readonly("count", &PyBatch::count, "The copies.")
        .def_property_readonly("particles_per_copy", &PyBatch::particlesPerCopy, "Particles of one copy.")
        .def("step", &PyBatch::step, py::arg("frames") = 1, py::arg("progress") = py::none(),
             "Steps every copy `frames` frames, one submission per frame; returns when done.")
        .def_property_readonly("frame", &PyBatch::frame, "Frames stepped so far.")
        .def_property_readonly("time", &PyBatch::time, "Simulated seconds so far.")
        .def("positions", &PyBatch::positions, "Every copy's particle positions: float32 (count, n, 3).")
        .def("velocities", &PyBatch::velocities, "Every copy's particle velocities: float32 (count, n, 3).")
        .def("state_hashes", &PyBatch::stateHashes,
             "Each copy's state-hash: what a World of that copy alone gives after the same frames.")
        .def("save_state", &PyBatch::saveState, "Every copy's state as bytes.")
        .def("load_state", &PyBatch::loadState, py::arg("state"), "Restores save_state()'s bytes.")
        .def("timings", &PyBatch::timings, "Per pass, the median GPU milliseconds per frame so far.")
        .def_property_readonly("validation_messages", &PyBatch::validationMessages,
                               "Validation errors and warnings so far.");
}
