#pragma once
// What the overlay's panels show and what they change, kept apart from ImGui
// so the viewer fills it in and acts on it in a few lines. Features that live
// in the simulation (the residual reduction, picking) come in through
// OverlayProviders; a panel whose provider is unset says "not available".
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "render/display_mode.h"
#include "scene/scene.h"
#include "state/interaction.h"  // Ray
#include "vk/gpu_timer.h"

namespace vksim {

// Mouse picking and dragging of particles (Ctrl + left button), with the ray
// from the camera through the cursor: the viewer calls beginPick on press, dragTo while the button is held, release on let go.
class PickController {
public:
    virtual ~PickController() = default;
    virtual bool beginPick(const Ray& ray) = 0;  // false: nothing under the cursor
    virtual void dragTo(const Ray& ray) = 0;
    virtual void release() = 0;
};

// One option of a choice parameter. An option the simulation cannot take
// now (dihedral bending under an implicit integrator) is listed, disabled,
// with the reason as its tooltip, so the user learns why rather than
// finding it missing.
struct LiveChoice {
    std::string name;
    std::string unavailable;  // why it cannot be picked; "" = it can
};

// One live-editable value the simulation offers (a constraint family's
// stiffness or compliance, a collider's friction, restitution or position
// coordinate, a solver's iteration count or integrator...): shown in the
// "Materials and colliders" panel as a slider, an integer slider or a combo;
// `set` applies a new value between frames and throws std::exception (what()
// shown in the panel) for one the simulation refuses.
struct LiveParameter {
    enum class Kind { Slider, Integer, Choice };

    std::string group;  // panel sub-heading: "cloth: stretch", "collider ball", ...
    std::string name;
    float value = 0.0f;  // Integer: a whole number; Choice: the index into choices
    float min = 0.0f;
    float max = 1.0f;
    bool logarithmic = false;  // compliances and stiffnesses span decades
    std::function<void(float)> set;
    Kind kind = Kind::Slider;
    std::vector<LiveChoice> choices;  // Choice only
};

// One plot of the Convergence panel: a value per solver iteration of the
// last step, or per frame (an object's energy over time), computed on the
// GPU by a reduction pass.
struct ConvergenceSeries {
    std::string label;  // "PBD mean |C|", "PD energy g(q)", ...
    std::string unit;
    std::vector<float> values;
    bool fromZero = true;  // the plot's range starts at 0 (residuals) or at the smallest value (energies)
    bool perFrame = false;  // values are frames (oldest first), not iterations
                            // of the last substep
};

struct OverlayProviders {
    // The solver's convergence for the last step: constraint residuals and,
    // where defined, energy per iteration; unset: not available. The viewer
    // calls setResidualTracking(true) when the panel opens (overlay shown)
    // and (false) when it closes, so the passes cost nothing otherwise.
    std::function<std::vector<ConvergenceSeries>()> convergence;
    std::function<void(bool)> setResidualTracking;
    PickController* picker = nullptr;
    // The simulation's live parameters, listed afresh each frame; unset: not available.
    std::function<std::vector<LiveParameter>()> parameters;
    // What the contact detection between objects found (docs/physics.md
    // §14), one line each, read while the "Contacts" panel is open; unset:
    // not available.
    std::function<std::vector<std::string>()> contacts;
};

// Requests the panels make; the viewer acts on them between frames.
struct ViewerControls {
    bool overlayVisible = true;
    bool paused = false;
    bool stepOnce = false;       // one simulation frame while paused
    uint32_t slowMotion = 1;     // one simulation frame every k display frames
    bool resetRequested = false;  // rebuild the simulation from the scene
    bool reloadRequested = false;  // read the scene file again, then reset
    std::string loadRequest;      // switch to this scene file
    bool frameRequested = false;  // frame the scene with the camera (F)
    bool cameraResetRequested = false;
    bool convergenceShown = false;  // the Convergence panel is open: the viewer switches tracking on
    bool convergenceOpenRequested = false;  // open it at the next draw (--show-convergence)
    // Why the last live parameter edit was refused; shown in the panel until
    // an edit succeeds or the simulation is rebuilt (kept here because the
    // panels themselves hold no state between frames).
    std::string parameterError;
    DisplaySettings display;
};

// What the panels show this frame.
struct OverlayView {
    std::string sceneName;
    std::string scenePath;
    uint64_t frame = 0;
    TimingReport timings;            // median/max over the last frames
    std::span<const float> stepMs;   // GPU step time per collected frame, oldest first
    std::span<const float> frameMs;  // wall-clock time between shown frames
    float sceneMs = 0.0f;            // GPU time of drawing the scene, last frame
    float overlayMs = 0.0f;          // GPU time of drawing the overlay, last frame
    SolverSettings* solver = nullptr;  // live: edits apply to the next frame
    // Timestamp runs a frame of these settings takes, and how many the timer
    // has room for: edits beyond it are refused.
    std::function<uint32_t(const SolverSettings&)> passRuns;
    uint32_t maxPassRuns = 0;
    // Where the scene has PBD objects: the path "auto" takes for these
    // settings, and why a path cannot run them (nothing where it can).
    std::function<PbdPath(const SolverSettings&)> pbdPathFor;
    std::function<std::optional<std::string>(PbdPath)> pbdPathMisfit;
    std::span<const std::string> sceneFiles;  // scenes/*.json
    std::string error;                        // the last failed load, shown until the next succeeds
    bool resetAllowed = true;                 // false while --export/--trace follow this simulation
    bool wireframeAvailable = true;
    bool wind = false;  // some object has "aero": the solver panel shows the wind's sliders
    bool anchors = false;  // some particle is tethered or attached: the view panel offers their lines
};

}  // namespace vksim
