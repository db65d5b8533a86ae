#pragma once
// vksim.World: a world built from a scene file or dict, its state as NumPy
// arrays, its live edits, picking and dragging, tracking and export, all
// through the engine's own API (world/world.h); this file only converts.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "diagnostics/state_hash.h"
#include "io/obj_writer.h"
#include "io/ply_writer.h"
#include "material_edits.h"
#include "scene/scene_loader.h"
#include "solvers/rigid/rigid_solver.h"
#include "stepped_world.h"

namespace vksim::python {

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
        // As the GPU holds them now: a tearing cloth drops and moves its triangles.
        const std::vector<uint32_t> triangles =
            objectSurface(*chosen, world_->triangleIndices().downloadArray<uint32_t>());
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
        const auto [text, source] = sceneText(scene, "vksim.World");
        try {
            return parseScene(text, source);
        } catch (const SceneError& e) {
            throw py::value_error(e.what());
        }
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

}  // namespace vksim::python
