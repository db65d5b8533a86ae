#pragma once
// How the viewer draws the simulated objects (keys 1-5, M, or the overlay's
// combo box), whether it draws the colliders (C), the contacts (K), the
// wind field and the tethers and attachments.
#include <array>
#include <cstdint>

namespace vksim {

enum class DisplayMode : uint32_t {
    Shaded,      // lit surfaces
    Wireframe,   // triangle edges (needs fillModeNonSolid)
    Particles,   // one point per particle
    GraphColour,  // each particle in the graph colour of its stretch constraint to its lowest-numbered neighbour
    Strain,      // stretch ratio of the particle's most deformed stretch constraint: blue short, green rest, red long
};
inline constexpr std::array<const char*, 5> kDisplayModeNames{"shaded", "wireframe", "particles", "graph colour",
                                                               "strain"};

struct DisplaySettings {
    DisplayMode mode = DisplayMode::Shaded;
    bool colliders = true;
    bool contacts = false;  // the contact pairs as lines over the scene (render/contact_lines.h)
    bool wind = false;      // the air's velocity at the particles as lines (render/wind_lines.h)
    bool anchors = false;   // tethers and attachments as lines to their anchors (render/anchor_lines.h)
};

}  // namespace vksim
