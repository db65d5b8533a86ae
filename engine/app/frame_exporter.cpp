#include "app/frame_exporter.h"

#include <unistd.h>

#include <span>
#include <stdexcept>
#include <system_error>

#include <fmt/format.h>

#include "io/file_names.h"
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
        throw std::runtime_error(fmt::format("{}: cannot create directory: {}", directory.string(), error.message()));
    if (!std::filesystem::is_directory(directory))
        throw std::runtime_error(fmt::format("{}: not a directory", directory.string()));
    // Checked now rather than when the first frame arrives, so a long run
    // does not start only to fail.
    if (::access(directory.c_str(), W_OK | X_OK) != 0)
        throw std::runtime_error(fmt::format("{}: directory is not writable", directory.string()));
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
    : positions_(positions), normals_(normals), settings_(std::move(settings)), particleCount_(model.particleCount()) {
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

    const VkDeviceSize stateBytes = VkDeviceSize{particleCount_} * sizeof(glm::vec4);
    for (uint32_t i = 0; i < frameSlots; ++i)
        slots_.push_back({GpuBuffer(ctx, 2 * stateBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, MemoryKind::HostVisible,
                                    fmt::format("export read-back, frame slot {}", i)),
                          std::nullopt});
}

void FrameExporter::frameRecorded(VkCommandBuffer cmd, uint32_t slotIndex, uint64_t frame) {
    if (frame % settings_.every != 0) return;
    Slot& slot = slots_.at(slotIndex);
    if (slot.frame)
        throw std::logic_error(fmt::format("export: frame slot {} recorded again before it was collected", slotIndex));
    slot.frame = frame;
    const VkDeviceSize stateBytes = VkDeviceSize{particleCount_} * sizeof(glm::vec4);
    computeToTransferBarrier(cmd);  // the frame's last writes of positions and normals
    const VkBufferCopy positionsRegion{0, 0, stateBytes};
    const VkBufferCopy normalsRegion{0, stateBytes, stateBytes};
    vkCmdCopyBuffer(cmd, positions_.handle(), slot.readBack.handle(), 1, &positionsRegion);
    vkCmdCopyBuffer(cmd, normals_.handle(), slot.readBack.handle(), 1, &normalsRegion);
    transferToHostBarrier(cmd);         // read by frameCollected() after the slot's fence
    transferReadToComputeBarrier(cmd);  // the next frame overwrites what was copied
}

void FrameExporter::frameCollected(uint32_t slotIndex, uint64_t frame) {
    Slot& slot = slots_.at(slotIndex);
    if (!slot.frame) return;  // this frame was not exported
    if (*slot.frame != frame)
        throw std::logic_error(fmt::format("export: slot {} holds frame {}, not {}", slotIndex, *slot.frame, frame));
    writeFrame(slot, frame);
    slot.frame.reset();
    ++framesWritten_;
}

std::filesystem::path FrameExporter::filePath(size_t object, uint64_t frame) const {
    return settings_.directory /
           fmt::format("{}_{:05d}{}", objects_.at(object).fileStem, frame, fileExtension(settings_.format));
}

void FrameExporter::writeFrame(const Slot& slot, uint64_t frame) {
    const auto* state = static_cast<const glm::vec4*>(slot.readBack.mapped());
    const std::span<const glm::vec4> positions(state, particleCount_);
    const std::span<const glm::vec4> normals(state + particleCount_, particleCount_);
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
