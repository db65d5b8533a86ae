#pragma once
// The air around the cloth (docs/physics.md §15; docs/scene-format.md):
// the solver's "air" block (density, mean wind, gusts) and an object's
// "aero" block (its drag and lift coefficients). Plain data: the scene holds
// them, the model carries an object's per object (model/shared_model.h), and
// the wind stage (step/wind_stage.h) reads both.
#include <cstdint>

#include <glm/glm.hpp>

namespace vksim {

// Seeded value noise in space and time added to the mean wind.
struct GustSettings {
    float strength = 0.0f;  // [m/s] amplitude per component; 0: no gusts
    float scale = 1.0f;     // [m] lattice spacing in space
    float period = 1.0f;    // [s] lattice spacing in time
    uint32_t seed = 0;
    bool operator==(const GustSettings&) const = default;
};

struct AirSettings {
    float density = 1.2f;   // rho [kg/m^3], air at about 20 degrees C
    glm::vec3 wind{0.0f};   // U [m/s]
    GustSettings gusts;
    // Whether the air moves at all (the wind, or gusts).
    bool blows() const { return density > 0.0f && (wind != glm::vec3(0.0f) || gusts.strength > 0.0f); }
    bool operator==(const AirSettings&) const = default;
};

// An object's aerodynamic coefficients; it feels the wind where one is > 0.
struct AeroParams {
    float drag = 0.0f;  // C_d
    float lift = 0.0f;  // C_l
    bool feelsWind() const { return drag > 0.0f || lift > 0.0f; }
    bool operator==(const AeroParams&) const = default;
};

}  // namespace vksim
