#pragma once
// Just enough SPIR-V reflection to check a compute kernel against the way the
// engine binds it: which descriptor bindings of set 0 are storage buffers,
// whether it declares push constants, and its workgroup size.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vksim {

struct ShaderInterface {
    std::vector<uint32_t> storageBufferBindings;  // sorted, distinct binding numbers in set 0
    bool usesPushConstants = false;
    uint32_t localSizeX = 1;
    uint32_t localSizeY = 1;
    uint32_t localSizeZ = 1;
};

// Throws std::runtime_error naming `shaderName` if the module is malformed or
// uses resources other than set-0 storage buffers and push constants.
ShaderInterface reflectShader(std::span<const uint32_t> spirv, const std::string& shaderName);

}  // namespace vksim
