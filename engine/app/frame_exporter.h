#pragma once
// --export DIR: the surface of every deformable object, every K-th frame, as
// DIR/<object>_<frame:05d>.obj (or .ply). Frame numbers are the simulation's
// 0-based frame index, the one the trace and the non-finite report use: file
// 00000 holds the state at the end of the first frame; frames whose index is
// a multiple of K are written.
//
// Read-back never stalls the frame loop (app/state_read_back.h): an exported
// frame ends with a copy of positions and normals into a host-visible buffer
// of its frame slot, and the files are written when that slot is collected
// after its fence.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "app/frame_observer.h"
#include "app/state_read_back.h"
#include "io/mesh_view.h"
#include "sim/sim_model.h"
#include "vk/buffer.h"

namespace vksim {

class VulkanContext;

struct ExportSettings {
    std::filesystem::path directory;
    MeshFormat format = MeshFormat::Obj;
    uint32_t every = 1;  // K: frames 0, K, 2K, ...
    // The run's length, for the longest file name (none: as many frames as
    // --frames allows); the scene file and each model object's JSON pointer
    // in it ("/objects/2"), for the message when a name makes it too long.
    std::optional<uint64_t> frames;
    std::string sceneFile;
    std::vector<std::string> objectSources;
};

class FrameExporter : public FrameObserver {
public:
    // positions, normals: the particle state buffers (vec4 per particle) the
    // copies read. Creates the directory; throws std::runtime_error
    // ("DIR: cannot create directory: REASON", "DIR: not writable") when it
    // cannot be used, or "scenes/x.json: /objects/3/name: it makes the file
    // name ... longer than the 255 bytes ..." when an object's name is too
    // long for a file name there (io/file_names.h).
    FrameExporter(const VulkanContext& ctx, const SimModel& model, const GpuBuffer& positions,
                  const GpuBuffer& normals, ExportSettings settings, uint32_t frameSlots);

    void frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) override;
    void frameCollected(uint32_t slot, uint64_t frame) override;

    // DIR/<stem>_<frame:05d><extension>; more digits past frame 99999.
    std::filesystem::path filePath(size_t object, uint64_t frame) const;
    uint64_t framesWritten() const { return framesWritten_; }

private:
    struct ExportedObject {
        std::string name;
        std::string fileStem;
        uint32_t firstParticle = 0;
        uint32_t particleCount = 0;
        std::vector<uint32_t> triangles;  // local to the object
    };
    void writeFrame(const StateReadBack::State& state);
    // Throws when an object's longest file name does not fit the directory.
    void refuseLongFileNames() const;

    ExportSettings settings_;
    std::vector<ExportedObject> objects_;
    StateReadBack readBack_;  // positions, normals
    uint64_t framesWritten_ = 0;
};

}  // namespace vksim
