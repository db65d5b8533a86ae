// GLSL side of the shared-math convention: the files in common/ are written
// against `real`, `real3`, `real4` and also compile as C++ with glm in double
// precision (engine/sim/shared_math.h), so the CPU reference runs the very same
// functions as the GPU. Rules for those files: no swizzles, no inout
// parameters (return a struct), literals as real(x), struct constructors as
// S(a, b).
#ifndef VKSIM_REAL_GLSL_H
#define VKSIM_REAL_GLSL_H
#define real float
#define real3 vec3
#define real4 vec4
#endif
