#include "app/frame_exporter.h"

#include <unistd.h>

#include <span>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "app/command_line_values.h"
#include "io/file_names.h"
#include "io/quoted_input.h"
#include "io/obj_writer.h"
#include "io/ply_writer.h"
#include "vk/barriers.h"
#include "vk/context.h"

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

// Scene names are free text; a header or comment line must stay one line.
std::string singleLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text;
}

}  // namespace

FrameExporter::FrameExporter(const VulkanContext& ctx, const SimModel& model, const GpuBuffer& positions,
                             const GpuBuffer& normals, ExportSettings settings, uint32_t frameSlots)
    : settings_(std::move(settings)),
      readBack_(ctx, "export", positions, normals, model.particleCount(), frameSlots) {
    if (settings_.every == 0) throw std::invalid_argument("export: every must be at least 1");
    prepareDirectory(settings_.directory);

    std::vector<std::string> names;
    for (const ObjectRange& range : model.objects) names.push_back(range.name);
    const std::vector<std::string> stems = uniqueFileStems(names);
    for (size_t i = 0; i < model.objects.size(); ++i) {
        const ObjectRange& range = model.objects[i];
        ExportedObject object{range.name, stems[i], range.firstParticle, range.particleCount, {}};
        const auto first = model.triangles.begin() + 3 * static_cast<ptrdiff_t>(range.firstTriangle);
        object.triangles.assign(first, first + 3 * static_cast<ptrdiff_t>(range.triangleCount));
        for (uint32_t& index : object.triangles) {
            // Triangle indices are global; the files number vertices per object.
            if (index < range.firstParticle || index >= range.firstParticle + range.particleCount)
                throw std::logic_error(fmt::format("object '{}': a triangle uses particle {} outside its range",
                                                   range.name, index));
            index -= range.firstParticle;
        }
        objects_.push_back(std::move(object));
    }
    refuseLongFileNames();
}

void FrameExporter::refuseLongFileNames() const {
    // Frame numbers have 5 digits, more past 99999; a run without a set
    // length may go on to the last frame --frames allows.
    const uint64_t lastFrame = settings_.frames.value_or(kMaxCommandLineFrames) - 1;
    for (size_t i = 0; i < objects_.size(); ++i) {
        const std::string problem =
            fileNameLengthProblem(settings_.directory, filePath(i, lastFrame).filename().string());
        if (problem.empty()) continue;
        const std::string source = i < settings_.objectSources.size() ? settings_.objectSources[i] : "";
        throw std::runtime_error(fmt::format("{}{}: {}; shorten the name", clipInput(settings_.sceneFile),
                                             source.empty() ? "" : ": " + source + "/name", problem));
    }
}

void FrameExporter::frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
    if (frame % settings_.every == 0) readBack_.record(cmd, slot, frame);
}

void FrameExporter::frameCollected(uint32_t slot, uint64_t frame) {
    if (const std::optional<StateReadBack::State> state = readBack_.take(slot, frame)) {
        writeFrame(*state);
        ++framesWritten_;
    }
}

std::filesystem::path FrameExporter::filePath(size_t object, uint64_t frame) const {
    return settings_.directory /
           fmt::format("{}_{:05d}{}", objects_.at(object).fileStem, frame, fileExtension(settings_.format));
}

void FrameExporter::writeFrame(const StateReadBack::State& state) {
    const uint64_t frame = state.frame;
    const std::span<const glm::vec4> positions = state.first, normals = state.second;
    for (size_t i = 0; i < objects_.size(); ++i) {
        const ExportedObject& object = objects_[i];
        const MeshView mesh{positions.subspan(object.firstParticle, object.particleCount),
                            normals.subspan(object.firstParticle, object.particleCount), object.triangles};
        const std::string comment = fmt::format("vksim: object \"{}\", frame {}", singleLine(object.name), frame);
        if (settings_.format == MeshFormat::Obj)
            writeObj(filePath(i, frame), mesh, object.fileStem, comment);
        else
            writePly(filePath(i, frame), mesh, comment);
    }
}

}  // namespace vksim
