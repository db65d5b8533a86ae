// Lets one header declare structs that GLSL and C++ both see with the same
// layout. In C++ the GLSL vector types map to glm and every struct gets a
// static_assert on its size (std430 rules: keep members 16-byte friendly and
// never put a vec3 in a buffer).
#ifndef VKSIM_GPU_COMPAT_H
#define VKSIM_GPU_COMPAT_H

#ifdef __cplusplus
#include <cstdint>
#include <glm/glm.hpp>
#define GPU_NAMESPACE_BEGIN namespace vksim::gpu {
#define GPU_NAMESPACE_END }
#define GPU_CHECK_SIZE(type, bytes) static_assert(sizeof(type) == (bytes), #type " size differs from the GLSL std430 layout")
#define GPU_CONST(type, name, value) inline constexpr type name = value
namespace vksim::gpu {
using uint = uint32_t;
using vec2 = glm::vec2;
using vec4 = glm::vec4;
using uvec4 = glm::uvec4;
using mat4 = glm::mat4;
}  // namespace vksim::gpu
#else
#define GPU_NAMESPACE_BEGIN
#define GPU_NAMESPACE_END
#define GPU_CHECK_SIZE(type, bytes)
#define GPU_CONST(type, name, value) const type name = value
#endif

#endif
