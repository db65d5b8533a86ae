#pragma once
// What scripts/soak.sh watches over a long headless run: every K-th frame the
// particle positions and velocities are read back (app/state_read_back.h, as
// the exporter does: the loop never stalls) and, when the slot is collected,
// reduced on the host in double precision to the cloth's
// energy, next to the process's resident memory and the device memory vksim
// holds. Prints one line per sample as it is taken.
#include <cstdint>
#include <optional>
#include <vector>

#include "app/state_read_back.h"
#include "run/frame_observer.h"

namespace vksim {

class VulkanContext;
class World;

struct SoakSample {
    uint64_t frame = 0;
    double wallSeconds = 0;       // since the sampler was made
    bool finite = true;           // every position and velocity component
    double kineticEnergy = 0;     // sum of m |v|^2 / 2 over free particles [J]
    double potentialEnergy = 0;   // sum of -m g . x over free particles [J]
    double totalEnergy() const { return kineticEnergy + potentialEnergy; }
    uint64_t residentBytes = 0;   // the process's RSS (/proc/self/statm)
    uint64_t deviceBytes = 0;     // vk/device_memory_count.h
    uint64_t deviceAllocations = 0;
};

class SoakSampler : public FrameObserver {
public:
    SoakSampler(const VulkanContext& ctx, const World& sim, uint32_t every, uint32_t frameSlots);

    void frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) override;
    void frameCollected(uint32_t slot, uint64_t frame) override;

    const std::vector<SoakSample>& samples() const { return samples_; }

private:
    const World& sim_;
    uint32_t every_;
    StateReadBack readBack_;  // positions, velocities
    std::vector<SoakSample> samples_;
    double startSeconds_;
};

// The process's resident set size in bytes (0 where /proc is missing).
uint64_t residentBytes();

}  // namespace vksim
