#include "app/pose_output.h"

#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/output_file_types.h"
#include "io/csv_field.h"
#include "io/file_names.h"
#include "shaders/rigid/rigid_types.h"
#include "solvers/rigid/rigid_solver.h"
#include "world/world.h"

namespace vksim {
namespace {

// A JSON string; names are free text (bytes that are not UTF-8 become U+FFFD).
std::string jsonString(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

PoseWriter::PoseWriter(const VulkanContext& ctx, const World& sim, const std::string& path, uint32_t frameSlots) {
    if (!isSupportedPosesPath(path))
        throw std::invalid_argument(fmt::format("poses: '{}' does not end in .csv or .json", path));
    json_ = fileExtension(path) == ".json";
    const RigidModel& rigid = sim.model().rigid;
    for (const std::string& name : rigid.names) names_.push_back(json_ ? jsonString(name) : csvField(name));
    // No bodies, nothing to read: no read-back (a buffer of 0 bytes does not exist).
    if (!rigid.empty())
        readBack_.emplace(ctx, "poses",
                          std::vector<StateReadBack::Source>{
                              {&sim.solver<RigidSolver>().states(), VkDeviceSize{rigid.bodyCount()} * sizeof(gpu::RigidBodyState)}},
                          frameSlots);
    file_ = std::make_unique<OutputFile>(path);
    file_->write(json_ ? "{\"poses\":[" : "frame,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz\n");
}

PoseWriter::~PoseWriter() { close(); }

void PoseWriter::frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
    if (readBack_ && file_) readBack_->record(cmd, slot, frame);
}

void PoseWriter::frameCollected(uint32_t slot, uint64_t frame) {
    if (!readBack_) return;
    const std::optional<StateReadBack::State> state = readBack_->take(slot, frame);
    if (!state || !file_) return;
    const std::span<const gpu::RigidBodyState> states = state->as<gpu::RigidBodyState>(0);
    std::string rows;
    for (size_t b = 0; b < states.size(); ++b) {
        const gpu::RigidBodyState& s = states[b];
        const glm::vec4 &c = s.position, &q = s.rotation, &v = s.linearVelocity, &w = s.angularVelocity;
        // "{}" of a float: the shortest text that reads back to the same float.
        if (json_)
            rows += fmt::format(
                "{}\n{{\"frame\":{},\"body\":{},\"x\":{},\"y\":{},\"z\":{},\"qx\":{},\"qy\":{},\"qz\":{},\"qw\":{},"
                "\"vx\":{},\"vy\":{},\"vz\":{},\"wx\":{},\"wy\":{},\"wz\":{}}}",
                firstRow_ ? "" : ",", frame, names_[b], c.x, c.y, c.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y,
                w.z);
        else
            rows += fmt::format("{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n", frame, names_[b], c.x, c.y, c.z, q.x,
                                q.y, q.z, q.w, v.x, v.y, v.z, w.x, w.y, w.z);
        firstRow_ = false;
    }
    file_->write(rows);
}

void PoseWriter::finish() {
    if (!file_) return;
    const std::unique_ptr<OutputFile> file = std::move(file_);
    if (json_) file->write("\n]}\n");
    file->commit();
}

void PoseWriter::close() noexcept {
    try {
        finish();
    } catch (const std::exception&) {
        // Unwinding from another error, which is the one to report; the
        // temporary file is gone and the previous file, if any, kept.
    }
}

}  // namespace vksim
