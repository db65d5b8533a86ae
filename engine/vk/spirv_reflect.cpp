#include "vk/spirv_reflect.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <spirv/unified1/spirv.h>

namespace vksim {

ShaderInterface reflectShader(std::span<const uint32_t> spirv, const std::string& shaderName) {
    if (spirv.size() < 5 || spirv[0] != SpvMagicNumber)
        throw std::runtime_error("shader " + shaderName + " is not SPIR-V");

    struct Variable {
        uint32_t storageClass = 0;
        bool isVariable = false;
        uint32_t binding = UINT32_MAX;
        uint32_t set = 0;
    };
    std::map<uint32_t, Variable> ids;
    ShaderInterface result;

    for (size_t word = 5; word < spirv.size();) {
        const uint32_t opcode = spirv[word] & 0xFFFF;
        const uint32_t count = spirv[word] >> 16;
        if (count == 0 || word + count > spirv.size())
            throw std::runtime_error("shader " + shaderName + " has a truncated instruction");
        const uint32_t* ins = &spirv[word];
        switch (opcode) {
            case SpvOpDecorate:
                if (count >= 4 && ins[2] == SpvDecorationBinding) ids[ins[1]].binding = ins[3];
                if (count >= 4 && ins[2] == SpvDecorationDescriptorSet) ids[ins[1]].set = ins[3];
                break;
            case SpvOpVariable:
                ids[ins[2]].storageClass = ins[3];
                ids[ins[2]].isVariable = true;
                break;
            case SpvOpExecutionMode:
                if (count >= 6 && ins[2] == SpvExecutionModeLocalSize) {
                    result.localSizeX = ins[3];
                    result.localSizeY = ins[4];
                    result.localSizeZ = ins[5];
                }
                if (count >= 3 && ins[2] == SpvExecutionModeLocalSizeId)
                    throw std::runtime_error("shader " + shaderName +
                                             " sets its workgroup size with LocalSizeId; compile it for SPIR-V 1.5");
                break;
            default:
                break;
        }
        word += count;
    }

    for (const auto& [id, v] : ids) {
        if (!v.isVariable) continue;
        if (v.storageClass == SpvStorageClassPushConstant) {
            result.usesPushConstants = true;
        } else if (v.storageClass == SpvStorageClassStorageBuffer) {
            if (v.set != 0) throw std::runtime_error("shader " + shaderName + " uses descriptor set != 0");
            result.storageBufferBindings.push_back(v.binding);
        } else if (v.storageClass == SpvStorageClassUniform || v.storageClass == SpvStorageClassUniformConstant) {
            throw std::runtime_error("shader " + shaderName +
                                     " uses uniform or image resources; compute kernels take storage buffers only");
        }
    }
    // Two blocks may alias one binding (one buffer read as two arrays, as
    // the shape-matching groups and their offsets are): it is one binding.
    std::sort(result.storageBufferBindings.begin(), result.storageBufferBindings.end());
    result.storageBufferBindings.erase(
        std::unique(result.storageBufferBindings.begin(), result.storageBufferBindings.end()),
        result.storageBufferBindings.end());
    return result;
}

}  // namespace vksim
