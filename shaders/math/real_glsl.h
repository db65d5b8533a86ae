// GLSL side of the shared-math convention: the .glsl files under math/, particle/, pbd/, pd/, linear/ and contacts/
// that the CPU code includes are written against `real`, `real3`, `real4` and also compile as C++ with glm in double
// precision (engine/geometry/shared_math.h), so the CPU reference runs the very same
// functions as the GPU. Rules for those files: no swizzles, no inout
// parameters (return a struct), literals as real(x), struct constructors as
// S(a, b). real2 and real3x3 (mat3 / glm::dmat3) are there too: index a
// matrix as m[column][row], build it from columns, real3x3(real(1)) is I.
#ifndef VKSIM_REAL_GLSL_H
#define VKSIM_REAL_GLSL_H
#define real float
#define real3 vec3
#define real4 vec4
#define real2 vec2
#define real3x3 mat3
#endif
