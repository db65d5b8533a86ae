#pragma once
// The SPIR-V of every shader in shaders/, compiled at build time and embedded
// (see cmake/Shaders.cmake). Names are paths relative to shaders/.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace vksim {

struct ShaderBlob {
    std::string_view name;  // e.g. "particle/predict.comp"
    const uint32_t* code;
    size_t wordCount;
};

std::span<const ShaderBlob> allShaders();
const ShaderBlob* findShader(std::string_view name);

}  // namespace vksim
