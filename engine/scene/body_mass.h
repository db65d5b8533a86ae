#pragma once
// The mass, centre of mass and inertia tensor of a scene's rigid body, from
// its shape (analytic for the primitives, the polyhedral integrals for a
// mesh, mass_properties.h) and its mass or density. The scene loader calls it
// to refuse a body it cannot step (with the JSON path), the model builder to
// build the body.
#include "geometry/body_shape.h"
#include "geometry/mass_properties.h"
#include "scene/scene.h"

namespace vksim {

// The body's surface in its shape frame (the frame "position" and
// "rotation" place, before re-centring): a mesh body's welded surface scaled
// by its "scale", or the tessellated primitive. Its vertices are the contact points.
BodySurface bodyShapeSurface(const BodyDesc& body);

// Mass [kg], centre of mass in the shape frame, inertia about it [kg m^2].
// Throws std::invalid_argument for a surface that is wound inward or
// encloses no volume, or an inertia too degenerate to invert.
BodyMass bodyMass(const BodyDesc& body);

}  // namespace vksim
