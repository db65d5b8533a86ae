// The reflection ComputeKernel builds its descriptor set layout from
// (vk/spirv_reflect.h), on shaders built into vksim: each binding's kind,
// and a texel binding's view format.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string_view>
#include <utility>

#include "vk/shader_table.h"
#include "vk/spirv_reflect.h"

namespace vksim {
namespace {

ShaderInterface reflect(std::string_view name) {
    const ShaderBlob* blob = findShader(name);
    if (!blob) throw std::runtime_error("no shader " + std::string(name));
    return reflectShader({blob->code, blob->wordCount}, std::string(name));
}

const ShaderBinding* find(const ShaderInterface& iface, uint32_t binding) {
    for (const ShaderBinding& b : iface.bindings)
        if (b.binding == binding) return &b;
    return nullptr;
}

TEST(SpirvReflect, AKernelOfStorageBuffersHasThemAll) {
    const ShaderInterface iface = reflect("pbd/project_distance.comp");
    ASSERT_EQ(iface.bindings.size(), 4u);
    for (uint32_t i = 0; i < 4; ++i) {
        EXPECT_EQ(iface.bindings[i].binding, i);
        EXPECT_EQ(iface.bindings[i].kind, BindingKind::StorageBuffer);
        EXPECT_EQ(iface.bindings[i].texelFormat, VK_FORMAT_UNDEFINED);
    }
    EXPECT_TRUE(iface.usesPushConstants);
    EXPECT_EQ(iface.localSizeX, 64u);
}

// The CPU cluster sweep: 8 invocations and no shared memory (the workgroup
// solve it is compiled from: 16, and shared memory), its records as uniform
// texel buffers of uvec4, the
// predicted positions read as a storage texel buffer of vec4 and written
// through a storage buffer (binding 16), and the bindings of the shared
// source it never uses (velocities, shape matching) optimized away; the
// positions it reads for the colliders' static friction (the substep's start).
TEST(SpirvReflect, TheCpuClusterSweepReadsTexels) {
    const ShaderInterface iface = reflect("pbd/cluster_sweep_cpu.comp");
    // One SIMD vector of lavapipe, which is safe only without shared memory
    // (pbd/cluster_sweep_cpu.comp says why); the workgroup solve has both.
    EXPECT_EQ(iface.localSizeX, 8u);
    EXPECT_FALSE(iface.declaresSharedMemory);
    const ShaderInterface solve = reflect("pbd/solve_in_workgroup_16.comp");
    EXPECT_EQ(solve.localSizeX, 16u);
    EXPECT_TRUE(solve.declaresSharedMemory);
    for (uint32_t unused : {1u, 15u}) EXPECT_EQ(find(iface, unused), nullptr) << unused;
    const ShaderBinding* predicted = find(iface, 2);
    ASSERT_NE(predicted, nullptr);
    EXPECT_EQ(predicted->kind, BindingKind::StorageTexelBuffer);
    EXPECT_EQ(predicted->texelFormat, VK_FORMAT_R32G32B32A32_SFLOAT);
    for (uint32_t records : {3u, 6u, 7u, 8u, 9u, 19u}) {  // 3: the colliders; 19: the tetrahedra
        const ShaderBinding* b = find(iface, records);
        ASSERT_NE(b, nullptr) << records;
        EXPECT_EQ(b->kind, BindingKind::UniformTexelBuffer) << records;
        EXPECT_EQ(b->texelFormat, VK_FORMAT_R32G32B32A32_UINT) << records;
    }
    for (uint32_t buffer : {0u, 4u, 5u, 10u, 11u, 12u, 13u, 14u, 16u, 18u}) {
        const ShaderBinding* b = find(iface, buffer);
        ASSERT_NE(b, nullptr) << buffer;
        EXPECT_EQ(b->kind, BindingKind::StorageBuffer) << buffer;
    }
}

// Every kernel that reads the world's colliders reads them as uniform texels
// of uvec4 (particle/collider_texels.glsl), at the binding the engine binds
// the collider buffer to; the kernel that writes the bodies' colliders
// writes a storage buffer.
TEST(SpirvReflect, EveryColliderReaderReadsTexels) {
    const std::pair<std::string_view, uint32_t> readers[] = {
        {"particle/collide_generate.comp", 2u}, {"particle/project_collision.comp", 1u},
        {"particle/contact_velocity.comp", 2u}, {"pd/local_collisions.comp", 1u},
        {"pbd/solve_in_workgroup_256.comp", 3u}, {"pbd/solve_in_workgroup_16.comp", 3u},
        {"pbd/cluster_sweep_cpu.comp", 3u},     {"rigid/step_bodies.comp", 6u},
    };
    for (const auto& [shader, binding] : readers) {
        const ShaderInterface iface = reflect(shader);
        const ShaderBinding* colliders = find(iface, binding);
        ASSERT_NE(colliders, nullptr) << shader;
        EXPECT_EQ(colliders->kind, BindingKind::UniformTexelBuffer) << shader;
        EXPECT_EQ(colliders->texelFormat, VK_FORMAT_R32G32B32A32_UINT) << shader;
    }
    const ShaderInterface writer = reflect("rigid/body_colliders.comp");
    const ShaderBinding* written = find(writer, 2u);
    ASSERT_NE(written, nullptr);
    EXPECT_EQ(written->kind, BindingKind::StorageBuffer);
}

TEST(SpirvReflect, NotSpirvIsRefusedByName) {
    const uint32_t words[5] = {0, 0, 0, 0, 0};
    try {
        reflectShader(words, "broken.comp");
        FAIL() << "accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "shader broken.comp is not SPIR-V");
    }
}

}  // namespace
}  // namespace vksim
