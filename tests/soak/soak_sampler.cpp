#include "soak_sampler.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <unistd.h>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "vk/device_memory_count.h"
#include "world/world.h"

namespace vksim {
namespace {

double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

bool finite(const glm::vec4& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

uint64_t residentBytes() {
    std::FILE* statm = std::fopen("/proc/self/statm", "r");
    if (!statm) return 0;
    unsigned long long sizePages = 0, residentPages = 0;
    const int read = std::fscanf(statm, "%llu %llu", &sizePages, &residentPages);
    std::fclose(statm);
    return read == 2 ? residentPages * static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

SoakSampler::SoakSampler(const VulkanContext& ctx, const World& sim, uint32_t every, uint32_t frameSlots)
    : sim_(sim),
      every_(every),
      readBack_(ctx, "soak",
                {{&sim.particles().positions(), VkDeviceSize{sim.particleCount()} * sizeof(glm::vec4)},
                 {&sim.particles().velocities(), VkDeviceSize{sim.particleCount()} * sizeof(glm::vec4)}},
                frameSlots),
      startSeconds_(nowSeconds()) {
    if (every_ == 0) throw std::invalid_argument("soak: sample every K >= 1 frames");
}

void SoakSampler::frameRecorded(VkCommandBuffer cmd, uint32_t slot, uint64_t frame) {
    if (frame % every_ == 0) readBack_.record(cmd, slot, frame);
}

void SoakSampler::frameCollected(uint32_t slot, uint64_t frame) {
    const std::optional<StateReadBack::State> state = readBack_.take(slot, frame);
    if (!state) return;
    const glm::dvec3 gravity(sim_.scene().solver.gravity);
    SoakSample sample;
    sample.frame = frame;
    sample.wallSeconds = nowSeconds() - startSeconds_;
    const std::span<const glm::vec4> positions = state->as<glm::vec4>(0), velocities = state->as<glm::vec4>(1);
    for (size_t i = 0; i < positions.size(); ++i) {
        const glm::vec4& x = positions[i];
        const glm::vec4& v = velocities[i];
        sample.finite = sample.finite && finite(x) && finite(v);
        if (x.w <= 0.0f) continue;  // pinned: infinite mass, no share of the energy that moves
        const double mass = 1.0 / double(x.w);
        const glm::dvec3 position(x), velocity(v);
        sample.kineticEnergy += 0.5 * mass * glm::dot(velocity, velocity);
        sample.potentialEnergy -= mass * glm::dot(gravity, position);
    }
    sample.residentBytes = residentBytes();
    const DeviceMemoryInUse device = deviceMemoryInUse();
    sample.deviceBytes = device.bytes;
    sample.deviceAllocations = device.allocations;
    samples_.push_back(sample);
    fmt::print("frame {:>9}  {:8.1f} s  E {:.6e} J (kinetic {:.3e})  RSS {:.2f} MiB  device {:.2f} MiB in {}{}\n",
               frame, sample.wallSeconds, sample.totalEnergy(), sample.kineticEnergy,
               double(sample.residentBytes) / double(1 << 20), double(sample.deviceBytes) / double(1 << 20),
               sample.deviceAllocations, sample.finite ? "" : "  NON-FINITE");
    std::fflush(stdout);
}

}  // namespace vksim
