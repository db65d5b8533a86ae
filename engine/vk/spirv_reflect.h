#pragma once
// Just enough SPIR-V reflection to check a compute kernel against the way the
// engine binds it: the kind of each descriptor binding of set 0 (storage
// buffers, and texel views of buffers), whether it declares push constants
// or shared memory, and its workgroup size.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <volk.h>

namespace vksim {

enum class BindingKind : uint8_t {
    StorageBuffer,       // `buffer` block
    UniformTexelBuffer,  // `samplerBuffer` / `usamplerBuffer`: read-only texels
    StorageTexelBuffer,  // `imageBuffer` / `uimageBuffer` with a format
};

struct ShaderBinding {
    uint32_t binding = 0;
    BindingKind kind = BindingKind::StorageBuffer;
    // Texel bindings: the view's format. Always 4 components of 32 bits: a
    // uniform texel buffer's SPIR-V declares only its sampled type (float,
    // int or uint), and the engine's texel views are vec4-sized records.
    VkFormat texelFormat = VK_FORMAT_UNDEFINED;
};

struct ShaderInterface {
    std::vector<ShaderBinding> bindings;  // sorted, distinct binding numbers in set 0
    bool usesPushConstants = false;
    bool declaresSharedMemory = false;  // a `shared` variable survived the optimizer
    uint32_t localSizeX = 1;
    uint32_t localSizeY = 1;
    uint32_t localSizeZ = 1;
};

// Throws std::runtime_error naming `shaderName` if the module is malformed or
// uses resources other than set-0 storage buffers, texel buffers of 4 x 32-bit
// texels and push constants.
ShaderInterface reflectShader(std::span<const uint32_t> spirv, const std::string& shaderName);

}  // namespace vksim
