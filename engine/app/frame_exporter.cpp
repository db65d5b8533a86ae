#include "app/frame_exporter.h"

#include <unistd.h>

#include <algorithm>
#include <span>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include <glm/gtc/quaternion.hpp>

#include "app/command_line_values.h"
#include "io/file_names.h"
#include "io/obj_writer.h"
#include "io/ply_writer.h"
#include "io/quoted_input.h"
#include "render/shape_mesh.h"
#include "solvers/rigid/rigid_solver.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "world/world.h"

namespace vksim {
namespace {

void prepareDirectory(const std::filesystem::path& directory) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error)
        throw std::runtime_error(
            fmt::format("{}: cannot create directory: {}", clipInput(directory.string()), error.message()));
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(fmt::format("{}: not a directory", clipInput(directory.string())));
    // Checked now rather than when the first frame arrives, so a long run
    // does not start only to fail.
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        throw std::runtime_error(fmt::format("{}: directory is not writable", clipInput(directory.string())));
}

// A stored (x, y, z, w) quaternion, normalised in double.
glm::dquat unitQuaternion(const glm::vec4& q) { return glm::normalize(glm::dquat(q.w, q.x, q.y, q.z)); }

// Scene names are free text; a header or comment line must stay one line.
std::string singleLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

}  // namespace

FrameExporter::FrameExporter(const VulkanContext& ctx, const World& sim, ExportSettings settings,
                             uint32_t frameSlots)
    : settings_(std::move(settings)) {
    if (settings_.every == 0) throw std::invalid_argument("export: every must be at least 1");
    prepareDirectory(settings_.directory);

    const SimModel& model = sim.model();
    const RigidModel& rigid = model.rigid;
    std::vector<std::string> names;
    for (const ObjectRange& range : model.objects) names.push_back(range.name);
    names.insert(names.end(), rigid.names.begin(), rigid.names.end());
    const std::vector<std::string> stems = uniqueFileStems(names);  // objects and bodies never share a file
    for (size_t i = 0; i < model.objects.size(); ++i) {
        const ObjectRange& range = model.objects[i];
        objects_.push_back({range.name, stems[i], range, objectSurface(range, model.triangles)});
    }
    for (uint32_t b = 0; b < rigid.bodyCount(); ++b) {
        // The shape's frame -> the body frame: p_shape + R_shape v
        // (rigid_model.h); the surface as the renderer shades it, on the
        // true shape (no inset).
        const gpu::Collider& shape = rigid.shapes[b];
        const glm::dquat shapeRotation = unitQuaternion(shape.rotation);
        const glm::dvec3 shapePosition(glm::vec3(shape.position));
        const ShapeMesh mesh =
            makeSurfaceMesh(ColliderSurface{rigid.surfaces[b].positions, rigid.surfaces[b].triangles}, 0.0f);
        ExportedBody body{rigid.names[b], stems[model.objects.size() + b], {}, {}, mesh.indices};
        for (size_t v = 0; v < mesh.positions.size(); ++v) {
            body.positions.push_back(shapePosition + shapeRotation * glm::dvec3(glm::vec3(mesh.positions[v])));
            body.normals.push_back(shapeRotation * glm::dvec3(glm::vec3(mesh.normals[v])));
        }
        bodies_.push_back(std::move(body));
    }

    // Nothing to read is no source (a buffer of 0 bytes does not exist).
    std::vector<StateReadBack::Source> sources;
    const VkDeviceSize particleBytes = VkDeviceSize{model.particleCount()} * sizeof(glm::vec4);
    if (particleBytes > 0) {
        sources.push_back({&sim.positions(), particleBytes});
        sources.push_back({&sim.normals(), particleBytes});
    }
    // A tearing cloth drops triangles and moves them to split particles:
    // its surface is read back with the frame.
    surfaceChanges_ = std::any_of(sim.scene().cloths.begin(), sim.scene().cloths.end(),
                                  [](const ClothObject& cloth) { return cloth.tearing.enabled; });
    if (surfaceChanges_)
        sources.push_back({&sim.triangleIndices(), VkDeviceSize{model.triangleCount()} * 3 * sizeof(uint32_t)});
    if (!bodies_.empty())
        sources.push_back({&sim.solver<RigidSolver>().states(), VkDeviceSize{rigid.bodyCount()} * sizeof(gpu::RigidBodyState)});
    if (!sources.empty()) readBack_.emplace(ctx, "export", std::move(sources), frameSlots);
    refuseLongFileNames();
}

void FrameExporter::refuseLongFileNames() const {
    // Frame numbers have 5 digits, more past 99999; a run without a set
    // length may go on to the last frame --frames allows.
    const uint64_t lastFrame = settings_.frames.value_or(kMaxCommandLineFrames) - 1;
    for (size_t i = 0; i < objects_.size() + bodies_.size(); ++i) {
        const std::string problem =
            fileNameLengthProblem(settings_.directory, filePath(i, lastFrame).filename().string());
        if (problem.empty()) continue;
        const std::string source = i < objects_.size()
                                       ? (i < settings_.objectSources.size() ? settings_.objectSources[i] : "")
                                       : fmt::format("/bodies/{}", i - objects_.size());
        throw std::runtime_error(fmt::format("{}{}: {}; shorten the name", clipInput(settings_.sceneFile),
                                             source.empty() ? "" : ": " + source + "/name", problem));
    }
}

void FrameExporter::frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
    if (readBack_ && frame % settings_.every == 0) readBack_->record(cmd, slot, frame);
}

void FrameExporter::frameCollected(uint32_t slot, uint64_t frame) {
    if (!readBack_) return;
    if (const std::optional<StateReadBack::State> state = readBack_->take(slot, frame)) {
        writeFrame(*state);
        ++framesWritten_;
    }
}

std::filesystem::path FrameExporter::filePath(size_t item, uint64_t frame) const {
    const std::string& stem =
        item < objects_.size() ? objects_[item].fileStem : bodies_.at(item - objects_.size()).fileStem;
    return settings_.directory / fmt::format("{}_{:05d}{}", stem, frame, fileExtension(settings_.format));
}

void FrameExporter::writeMesh(size_t item, uint64_t frame, const MeshView& mesh, std::string_view kind,
                              const std::string& name, const std::string& stem) const {
    const std::string comment = fmt::format("vksim: {} \"{}\", frame {}", kind, singleLine(name), frame);
    if (settings_.format == MeshFormat::Obj)
        writeObj(filePath(item, frame), mesh, stem, comment);
    else
        writePly(filePath(item, frame), mesh, comment);
}

void FrameExporter::writeFrame(const StateReadBack::State& state) {
    const uint64_t frame = state.frame;
    size_t source = 0;
    if (!objects_.empty()) {
        const std::span<const glm::vec4> positions = state.as<glm::vec4>(0), normals = state.as<glm::vec4>(1);
        source = 2;
        if (surfaceChanges_) {
            const std::span<const uint32_t> triangles = state.as<uint32_t>(source++);
            for (ExportedObject& object : objects_) object.triangles = objectSurface(object.range, triangles);
        }
        for (size_t i = 0; i < objects_.size(); ++i) {
            const ExportedObject& object = objects_[i];
            const ObjectRange& range = object.range;
            const MeshView mesh{positions.subspan(range.firstParticle, range.particleCount),
                                normals.subspan(range.firstParticle, range.particleCount), object.triangles};
            writeMesh(i, frame, mesh, "object", object.name, object.fileStem);
        }
    }
    if (bodies_.empty()) return;
    const std::span<const gpu::RigidBodyState> poses = state.as<gpu::RigidBodyState>(source);
    for (size_t b = 0; b < bodies_.size(); ++b) {
        // world = c + R_body (body-frame point), in double, rounded once.
        const ExportedBody& body = bodies_[b];
        const glm::dvec3 centre(glm::vec3(poses[b].position));
        const glm::dquat rotation = unitQuaternion(poses[b].rotation);
        posedPositions_.resize(body.positions.size());
        posedNormals_.resize(body.normals.size());
        for (size_t v = 0; v < body.positions.size(); ++v) {
            posedPositions_[v] = glm::vec4(glm::vec3(centre + rotation * body.positions[v]), 0.0f);
            posedNormals_[v] = glm::vec4(glm::vec3(rotation * body.normals[v]), 0.0f);
        }
        writeMesh(objects_.size() + b, frame, MeshView{posedPositions_, posedNormals_, body.triangles}, "body",
                  body.name, body.fileStem);
    }
}

}  // namespace vksim
