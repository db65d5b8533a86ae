// The Python module `vksim` (docs/python.md): its functions and the
// bindings of vksim.World (py_world.h) and vksim.Batch (py_batch.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "py_batch.h"
#include "py_world.h"
#include "vk/context.h"
#include "vk/device_memory_count.h"

namespace py = pybind11;

namespace vksim::python {
namespace {

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
    // The worlds' shared device contexts go before the interpreter finalizes
    // (stepped_world.h); a world still alive then keeps its own.
    py::module_::import("atexit").attr("register")(py::cpp_function(&vksim::python::releaseSharedContexts));
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
        .def("bodies", &PyBatch::bodies,
             "Each copy's rigid bodies: a dict of their names (the scene's), and float32 arrays of their centres of "
             "mass (count, k, 3), rotations as quaternions (x, y, z, w) (count, k, 4), linear and angular velocities "
             "(count, k, 3).")
        .def("state_hashes", &PyBatch::stateHashes,
             "Each copy's state-hash: what a World of that copy alone gives after the same frames.")
        .def("save_state", &PyBatch::saveState, "Every copy's state as bytes.")
        .def("load_state", &PyBatch::loadState, py::arg("state"), "Restores save_state()'s bytes.")
        .def("timings", &PyBatch::timings, "Per pass, the median GPU milliseconds per frame so far.")
        .def_property_readonly("validation_messages", &PyBatch::validationMessages,
                               "Validation errors and warnings so far.");
}
