#pragma once
// The shader math of shaders/{math,particle,pbd,pd,linear,springs,vbd,contacts,kinematic}/*.glsl compiled
// as C++ in double precision, so the CPU reference (engine/solvers/*/*_reference) and the tests run
// the very same functions as the GPU passes: vksim::ref::solveDistance is the
// solveDistance of project_distance.comp, only with real = double.
//
// How it works: the .glsl files are written against `real`, `real3`, `real4`
// and follow the rules in shaders/math/real_glsl.h (no swizzles, no inout,
// constructors as S(a, b)). Here those names are double and glm::dvec*,
// glm's GLSL-named functions (dot, cross, length, max, clamp, pow ...) are in
// scope, and `S(a, b)` on a struct is C++20 parenthesised aggregate
// initialisation (GCC >= 10, Clang >= 16). GLSL's `uint` and the constants of
// sim_types.h come from vksim::gpu, where the shaders see them as globals.
#include <cstdint>

#include <glm/glm.hpp>

#include "geometry/mesh_sdf_binding.h"
#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/elastic_types.h"
#include "shaders/rigid/rigid_types.h"
#include "shaders/shared/sim_types.h"

namespace vksim::ref {

using real = double;
using real3 = glm::dvec3;
using real4 = glm::dvec4;
using real2 = glm::dvec2;
using real3x3 = glm::dmat3;
using uint = uint32_t;
using namespace glm;

using gpu::kIntegratorExplicitEuler;
using gpu::kIntegratorForceSymplecticEuler;
using gpu::kIntegratorMidpoint;
using gpu::kIntegratorPositionVerlet;
using gpu::kIntegratorSymplecticEuler;
using gpu::kIntegratorVelocityVerlet;
using gpu::kElasticCorotated;
using gpu::kElasticNeoHookean;
using gpu::kColliderBox;
using gpu::kColliderCapsule;
using gpu::kColliderMesh;
using gpu::kColliderPlane;
using gpu::kColliderSphere;
using gpu::kModePbd;
using gpu::kModeXpbd;
using gpu::kMeshSdfHeaderFloats;
using gpu::kRigidContactQuadratic;
using gpu::kShapeMatchLinear;

// The includes are inside the namespace on purpose: every function and
// struct they define becomes vksim::ref::*. They include nothing themselves.
// GLSL has no `inline`, so the functions they define in this header get
// internal linkage instead (an unnamed namespace): every translation unit
// owns a copy and the linker sees no duplicates. A unit that uses only a few
// of them must not warn about the rest.
namespace {
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#endif
// What the GLSL passes read from their mesh SDF storage buffer.
real meshSdfGridValue(uint index) { return real(boundMeshSdfGridValue(index)); }
// First: contact_math.glsl, contact.glsl and rigid_math.glsl call it.
#include "shaders/math/coulomb_friction.glsl"
#include "shaders/contacts/contact_math.glsl"
#include "shaders/linear/chebyshev.glsl"
#include "shaders/math/ray_triangle.glsl"
#include "shaders/math/quaternion.glsl"
#include "shaders/math/sdf.glsl"
#include "shaders/math/svd3.glsl"
#include "shaders/math/elastic_energy.glsl"
#include "shaders/kinematic/keyframe_math.glsl"
#include "shaders/particle/contact.glsl"
#include "shaders/particle/frame_attachment_math.glsl"
#include "shaders/particle/particle_math.glsl"
#include "shaders/particle/tether_math.glsl"
#include "shaders/particle/wind_math.glsl"
#include "shaders/pbd/pbd_constraints.glsl"
#include "shaders/pbd/shape_matching.glsl"
#include "shaders/pbd/tet_constraints.glsl"
#include "shaders/pd/pd_projections.glsl"
#include "shaders/rigid/rigid_math.glsl"
#include "shaders/springs/spring_math.glsl"
#include "shaders/vbd/vbd_collider.glsl"
#include "shaders/vbd/vbd_guess.glsl"
#include "shaders/vbd/vbd_math.glsl"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
}  // namespace

}  // namespace vksim::ref
