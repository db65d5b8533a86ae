#pragma once
// --export DIR: the surface of every deformable object and of every rigid
// body, every K-th frame, as DIR/<name>_<frame:05d>.obj (or .ply). Frame
// numbers are the simulation's 0-based frame index, the one the trace and the
// non-finite report use: file 00000 holds the state at the end of the first
// frame; frames whose index is a multiple of K are written. A body's file is
// the surface it collides with (RigidModel::surfaces: its contact points),
// placed at the frame's pose, in world coordinates like the objects'.
//
// Read-back never stalls the frame loop (app/state_read_back.h): an exported
// frame ends with a copy of positions and normals (when the scene has
// particles) and of the body states (when it has bodies) into a host-visible
// buffer of its frame slot, and the files are written when that slot is
// collected after its fence.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "app/state_read_back.h"
#include "io/mesh_view.h"
#include "model/shared_model.h"
#include "run/frame_observer.h"

namespace vksim {

class VulkanContext;
class World;

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
    // Exports `sim`'s objects and bodies. Creates the directory; throws
    // std::runtime_error ("DIR: cannot create directory: REASON", "DIR: not
    // writable") when it cannot be used, or "scenes/x.json: /objects/3/name:
    // it makes the file name ... longer than the 255 bytes ..." when an
    // object's or body's name is too long for a file name there
    // (io/file_names.h).
    FrameExporter(const VulkanContext& ctx, const World& sim, ExportSettings settings, uint32_t frameSlots);

    void frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) override;
    void frameCollected(uint32_t slot, uint64_t frame) override;

    // DIR/<stem>_<frame:05d><extension>; more digits past frame 99999.
    // `item`: a deformable object (its index in SimModel::objects), then the
    // bodies (objects.size() + the body's index).
    std::filesystem::path filePath(size_t item, uint64_t frame) const;
    uint64_t framesWritten() const { return framesWritten_; }

private:
    struct ExportedObject {
        std::string name;
        std::string fileStem;
        ObjectRange range;
        std::vector<uint32_t> triangles;  // local to the object (objectSurface)
    };
    struct ExportedBody {
        std::string name;
        std::string fileStem;
        // Its surface in the body frame (origin at the centre of mass).
        std::vector<glm::dvec3> positions, normals;
        std::vector<uint32_t> triangles;
    };
    void writeFrame(const StateReadBack::State& state);
    void writeMesh(size_t item, uint64_t frame, const MeshView& mesh, std::string_view kind, const std::string& name,
                   const std::string& stem) const;
    // Throws when an object's or body's longest file name does not fit the directory.
    void refuseLongFileNames() const;

    ExportSettings settings_;
    std::vector<ExportedObject> objects_;
    std::vector<ExportedBody> bodies_;
    // Positions and normals when there are objects, the triangle indices
    // when the surface changes, then the body states when there are bodies;
    // none when the scene has neither.
    std::optional<StateReadBack> readBack_;
    bool surfaceChanges_ = false;  // a cloth tears: each frame's triangles are read back
    std::vector<glm::vec4> posedPositions_, posedNormals_;  // a body's surface at the frame's pose
    uint64_t framesWritten_ = 0;
};

}  // namespace vksim
