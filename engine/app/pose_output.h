#pragma once
// --poses FILE.csv|FILE.json: every rigid body's pose and velocity at the end
// of every frame, one row per body per frame, in frame order then body order:
//
//   frame,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz
//
// frame: the 0-based simulation frame index (as --export and the trace
// number them); body: its name in the scene; x, y, z: its centre of mass [m]
// (rigid_model.h: not the scene's "position", the shape's origin); q: its unit
// quaternion, body -> world; v: the linear velocity of the centre of mass
// [m/s]; w: the angular velocity [rad/s], both in the world frame. Numbers
// are the GPU's floats in the shortest text that reads back to the same
// float, so a parsed file holds the simulated state bit for bit. The JSON
// file is {"poses": [{"frame": 0, "body": "box", "x": ..., ...}, ...]}
// with the same keys. A scene without bodies gives the header alone (CSV) or
// an empty list (JSON).
//
// The states are read back without stalling the frame loop
// (app/state_read_back.h) and the rows streamed to an OutputFile
// (io/write_file.h): the file appears, complete, when the run ends, and one
// that could not be written (a full disk) leaves the previous file alone.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/state_read_back.h"
#include "io/write_file.h"
#include "run/frame_observer.h"

namespace vksim {

class VulkanContext;
class World;

class PoseWriter : public FrameObserver {
public:
    // Opens `path` (throws WriteError naming it when it cannot be written;
    // std::invalid_argument for an extension other than .csv and .json) and
    // writes the header.
    PoseWriter(const VulkanContext& ctx, const World& sim, const std::string& path, uint32_t frameSlots);
    // Completes the file if finish() was not called (a run that stopped on
    // an error still leaves a file that parses); a failure then is not
    // reported.
    ~PoseWriter() override;
    PoseWriter(const PoseWriter&) = delete;
    PoseWriter& operator=(const PoseWriter&) = delete;

    void frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) override;
    // Appends the frame's rows.
    void frameCollected(uint32_t slot, uint64_t frame) override;

    // Completes the file and renames it into place; throws WriteError when a
    // write failed.
    void finish();

private:
    void close() noexcept;

    bool json_ = false;
    bool firstRow_ = true;
    std::vector<std::string> names_;        // per body, as the format writes it (quoted)
    std::optional<StateReadBack> readBack_;  // the body states; none without bodies
    std::unique_ptr<OutputFile> file_;       // null once finished
};

}  // namespace vksim
