#include "vk/spirv_reflect.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <spirv/unified1/spirv.h>

namespace vksim {

namespace {

// The type ids the bindings' variables point to, as far as they matter here.
struct TypeInfo {
    uint32_t opcode = 0;
    uint32_t a = 0, b = 0;  // OpTypePointer: pointee; OpTypeSampledImage: image; OpTypeInt: signedness
    // OpTypeImage
    uint32_t sampledType = 0, dim = 0, sampled = 0, format = 0;
};

VkFormat uniformTexelFormat(const std::map<uint32_t, TypeInfo>& types, uint32_t sampledType) {
    const auto it = types.find(sampledType);
    if (it == types.end()) return VK_FORMAT_UNDEFINED;
    if (it->second.opcode == SpvOpTypeFloat) return VK_FORMAT_R32G32B32A32_SFLOAT;
    if (it->second.opcode == SpvOpTypeInt)
        return it->second.b ? VK_FORMAT_R32G32B32A32_SINT : VK_FORMAT_R32G32B32A32_UINT;
    return VK_FORMAT_UNDEFINED;
}

VkFormat storageTexelFormat(uint32_t spirvFormat) {
    switch (spirvFormat) {
        case SpvImageFormatRgba32f: return VK_FORMAT_R32G32B32A32_SFLOAT;
        case SpvImageFormatRgba32ui: return VK_FORMAT_R32G32B32A32_UINT;
        case SpvImageFormatRgba32i: return VK_FORMAT_R32G32B32A32_SINT;
        default: return VK_FORMAT_UNDEFINED;
    }
}

}  // namespace

ShaderInterface reflectShader(std::span<const uint32_t> spirv, const std::string& shaderName) {
    if (spirv.size() < 5 || spirv[0] != SpvMagicNumber)
        throw std::runtime_error("shader " + shaderName + " is not SPIR-V");

    struct Variable {
        uint32_t storageClass = 0;
        uint32_t type = 0;
        bool isVariable = false;
        uint32_t binding = UINT32_MAX;
        uint32_t set = 0;
    };
    std::map<uint32_t, Variable> ids;
    std::map<uint32_t, TypeInfo> types;
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
                if (count >= 4) {
                    ids[ins[2]].type = ins[1];
                    ids[ins[2]].storageClass = ins[3];
                    ids[ins[2]].isVariable = true;
                }
                break;
            case SpvOpTypePointer:
                if (count >= 4) types[ins[1]] = {SpvOpTypePointer, ins[3], 0};
                break;
            case SpvOpTypeSampledImage:
                if (count >= 3) types[ins[1]] = {SpvOpTypeSampledImage, ins[2], 0};
                break;
            case SpvOpTypeInt:
                if (count >= 4) types[ins[1]] = {SpvOpTypeInt, ins[2], ins[3]};
                break;
            case SpvOpTypeFloat:
                types[ins[1]] = {SpvOpTypeFloat, 0, 0};
                break;
            case SpvOpTypeImage:
                if (count >= 9) {
                    TypeInfo image{SpvOpTypeImage};
                    image.sampledType = ins[2];
                    image.dim = ins[3];
                    image.sampled = ins[7];
                    image.format = ins[8];
                    types[ins[1]] = image;
                }
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

    // The image type a UniformConstant variable stands for, if it is one.
    const auto imageOf = [&](const Variable& v) -> const TypeInfo* {
        auto pointer = types.find(v.type);
        if (pointer == types.end() || pointer->second.opcode != SpvOpTypePointer) return nullptr;
        auto pointee = types.find(pointer->second.a);
        if (pointee == types.end()) return nullptr;
        if (pointee->second.opcode == SpvOpTypeSampledImage) pointee = types.find(pointee->second.a);
        if (pointee == types.end() || pointee->second.opcode != SpvOpTypeImage) return nullptr;
        return &pointee->second;
    };

    for (const auto& [id, v] : ids) {
        if (!v.isVariable) continue;
        if (v.storageClass == SpvStorageClassWorkgroup) {
            result.declaresSharedMemory = true;
            continue;
        }
        if (v.storageClass == SpvStorageClassPushConstant) {
            result.usesPushConstants = true;
            continue;
        }
        ShaderBinding binding{v.binding};
        if (v.storageClass == SpvStorageClassStorageBuffer) {
            binding.kind = BindingKind::StorageBuffer;
        } else if (v.storageClass == SpvStorageClassUniformConstant) {
            const TypeInfo* image = imageOf(v);
            if (!image || image->dim != SpvDimBuffer)
                throw std::runtime_error("shader " + shaderName +
                                         " uses an image or sampler; compute kernels take buffers and texel buffers only");
            const bool storage = image->sampled == 2;
            binding.kind = storage ? BindingKind::StorageTexelBuffer : BindingKind::UniformTexelBuffer;
            binding.texelFormat =
                storage ? storageTexelFormat(image->format) : uniformTexelFormat(types, image->sampledType);
            if (binding.texelFormat == VK_FORMAT_UNDEFINED)
                throw std::runtime_error("shader " + shaderName + ": binding " + std::to_string(v.binding) +
                                         " is a texel buffer whose texels are not 4 x 32 bits (rgba32f/ui/i)");
        } else if (v.storageClass == SpvStorageClassUniform) {
            throw std::runtime_error("shader " + shaderName + " uses uniform buffers; compute kernels take storage buffers");
        } else {
            continue;
        }
        if (v.set != 0) throw std::runtime_error("shader " + shaderName + " uses descriptor set != 0");
        result.bindings.push_back(binding);
    }
    // Two blocks may alias one binding (one buffer read as two arrays, as
    // the shape-matching groups and their offsets are): it is one binding,
    // and both must be of one kind.
    std::sort(result.bindings.begin(), result.bindings.end(),
              [](const ShaderBinding& a, const ShaderBinding& b) { return a.binding < b.binding; });
    std::vector<ShaderBinding> distinct;
    for (const ShaderBinding& b : result.bindings) {
        if (!distinct.empty() && distinct.back().binding == b.binding) {
            if (distinct.back().kind != b.kind || distinct.back().texelFormat != b.texelFormat)
                throw std::runtime_error("shader " + shaderName + ": binding " + std::to_string(b.binding) +
                                         " is declared as two kinds of resource");
            continue;
        }
        distinct.push_back(b);
    }
    result.bindings = std::move(distinct);
    return result;
}

}  // namespace vksim
