#include "diagnostics/picker.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "shaders/shared/interaction_types.h"
#include "vk/barriers.h"
#include "vk/context.h"

namespace vksim {

namespace {

bool finite(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

Picker::Picker(const VulkanContext& ctx, const SimModel& model, const GpuBuffer& positions,
               const GpuBuffer& triangles)
    : ctx_(ctx),
      positions_(positions),
      triangles_(triangles),
      particleCount_(model.particleCount()),
      triangleCount_(model.triangleCount()),
      objects_(model.objects) {
    const uint32_t threads = std::max({particleCount_, triangleCount_, 1u});
    const uint32_t groups = (threads + gpu::kWorkgroupSize - 1) / gpu::kWorkgroupSize;
    partials_ = makeStorageBuffer<gpu::PickCandidates>(ctx, std::vector<gpu::PickCandidates>(groups),
                                                       "pick: workgroup minima");
    result_ = GpuBuffer(ctx, sizeof(gpu::PickResult), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, MemoryKind::HostVisible,
                        "pick: result");
    candidates_ = std::make_unique<ComputeKernel>(ctx, "interact/pick_candidates.comp", sizeof(gpu::PickPush));
    reduce_ = std::make_unique<ComputeKernel>(ctx, "interact/pick_reduce.comp", sizeof(gpu::PickPush));
}

Picker::~Picker() = default;

std::optional<PickHit> Picker::pick(const Ray& ray, float radius) const {
    if (!finite(ray.origin) || !finite(ray.direction))
        throw std::invalid_argument("pick: the ray's origin and direction must be finite");
    const float length = glm::length(ray.direction);
    if (!(length > 0.0f) || !std::isfinite(length))
        throw std::invalid_argument("pick: the ray's direction must not be zero");
    if (!(radius >= 0.0f) || !std::isfinite(radius))
        throw std::invalid_argument(fmt::format("pick: radius {} must be a finite distance >= 0", radius));

    gpu::PickPush push{};
    push.origin = glm::vec4(ray.origin, 1.0f);
    push.direction = glm::vec4(ray.direction / length, 0.0f);
    push.triangleCount = triangleCount_;
    push.particleCount = particleCount_;
    push.radius = radius;
    const uint32_t threads = std::max({particleCount_, triangleCount_, 1u});
    push.partialCount = (threads + gpu::kWorkgroupSize - 1) / gpu::kWorkgroupSize;
    ctx_.submitAndWait([&](VkCommandBuffer cmd) {
        // Positions were last written by the simulation's compute passes.
        computeToComputeBarrier(cmd);
        candidates_->dispatch(cmd, {&positions_, &triangles_, &partials_}, threads, push);
        computeToComputeBarrier(cmd);
        reduce_->dispatch(cmd, {&positions_, &triangles_, &partials_, &result_}, 1, push);
        computeToHostBarrier(cmd);
    });
    gpu::PickResult result{};
    std::memcpy(&result, result_.mapped(), sizeof(result));
    if (result.kind == gpu::kPickNone) return std::nullopt;
    PickHit hit;
    hit.particle = result.particle;
    hit.onTriangle = result.kind == gpu::kPickTriangle;
    hit.triangle = hit.onTriangle ? result.triangle : 0;
    hit.distance = result.distance;
    hit.point = glm::vec3(result.point);
    for (uint32_t o = 0; o < objects_.size(); ++o)
        if (hit.particle >= objects_[o].firstParticle &&
            hit.particle < objects_[o].firstParticle + objects_[o].particleCount)
            hit.object = o;
    return hit;
}

}  // namespace vksim
