#pragma once
// Scene -> SimModel, built once per topology: each solver's objects, in
// scene order within the solver, by that solver's builder (the particles and
// triangles into the shared model, the elements into its sub-model:
// pbd_model_builder.h, pd_model_builder.h, spring_model_builder.h,
// rigid_model.h), then the colliders (collider_builder.h) and the render
// topology's vertex -> triangle adjacency. The GPU solvers upload the
// result; the CPU reference solvers step it in double.
#include "model/object_builder.h"
#include "scene/scene.h"
#include "solvers/sim_model.h"

namespace vksim {

// Cloths become particle grids or meshes (cloth_geometry.h): mass spread
// evenly or by area; pinned vertices get inverse mass 0, or keep their mass
// and are held by an attachment to their initial position when
// pinsAsAttachments (not with "method": "springs"). The solvers' particle
// ranges follow one another: PBD cloths, projective dynamics cloths and
// solids, mass-spring cloths (model.objects says where each object is).
// Throws std::invalid_argument for what cannot be built, naming the scene
// file and the object's JSON path.
SimModel buildModel(const Scene& scene, ModelDiagnostics* diagnostics = nullptr);

}  // namespace vksim
