// Common prelude of the simulation compute shaders.
#extension GL_GOOGLE_include_directive : require
#include "shared/sim_types.h"
#include "math/real_glsl.h"
layout(local_size_x = 64) in;  // = kWorkgroupSize (checked at pipeline creation)
