#include "ui/viewer_panels.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <filesystem>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <imgui.h>

namespace vksim {
namespace {

const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kDimColor(0.65f, 0.65f, 0.65f, 1.0f);

void notAvailable(const char* what) { ImGui::TextColored(kDimColor, "%s: not available", what); }

// A line plot from 0 (or from the smallest value) to a little above the
// largest, captioned with the last and largest values.
void plot(const char* label, std::span<const float> values, const char* unit, bool fromZero = true) {
    if (values.empty()) {
        ImGui::TextColored(kDimColor, "%s: no frames yet", label);
        return;
    }
    const auto [low, top] = std::minmax_element(values.begin(), values.end());
    const float bottom = fromZero ? 0.0f : *low;
    const std::string overlay = fmt::format("{} {:.4g} {} (max {:.4g})", label, values.back(), unit, *top);
    ImGui::PlotLines(fmt::format("##{}", label).c_str(), values.data(), int(values.size()), 0, overlay.c_str(), bottom,
                     *top + 0.1f * (*top - bottom), ImVec2(ImGui::GetContentRegionAvail().x, 40.0f));
}

void timingPanel(const OverlayView& view) {
    if (!ImGui::CollapsingHeader("GPU timing", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Text("step %.2f ms median, %.2f ms max over %u frames", view.timings.step.medianMs, view.timings.step.maxMs,
                view.timings.frames);
    ImGui::Text("draw: scene %.3f ms, overlay %.3f ms (last frame)", view.sceneMs, view.overlayMs);
    plot("step", view.stepMs, "ms");
    plot("frame", view.frameMs, "ms");
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_SizingFixedFit;
    if (!ImGui::BeginTable("passes", 5, flags, ImVec2(0.0f, 150.0f))) return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("pass", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("runs");
    ImGui::TableSetupColumn("median ms");
    ImGui::TableSetupColumn("max ms");
    ImGui::TableSetupColumn("% step");
    ImGui::TableHeadersRow();
    const double step = view.timings.step.medianMs > 0 ? view.timings.step.medianMs : 1.0;
    for (const PassTiming& pass : view.timings.passes) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(pass.name.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%u", pass.runsPerFrame);
        // Passes are timed only while the overlay shows (World::setPassTimings):
        // the first frames after it appears have none yet.
        const std::pair<const char*, double> cells[] = {
            {"%.3f", pass.medianMs}, {"%.3f", pass.maxMs}, {"%.1f", 100.0 * pass.medianMs / step}};
        for (const auto& [format, value] : cells) {
            ImGui::TableNextColumn();
            if (pass.timed)
                ImGui::Text(format, value);
            else
                ImGui::TextUnformatted("-");
        }
    }
    ImGui::EndTable();
}

void simulationPanel(const OverlayView& view, ViewerControls& controls) {
    if (!ImGui::CollapsingHeader("World", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::Text("%s, frame %llu", view.sceneName.c_str(), static_cast<unsigned long long>(view.frame));
    if (ImGui::Button(controls.paused ? "Run (Space)" : "Pause (Space)")) controls.paused = !controls.paused;
    ImGui::SameLine();
    ImGui::BeginDisabled(!controls.paused);
    if (ImGui::Button("Step (N)")) controls.stepOnce = true;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!view.resetAllowed);
    if (ImGui::Button("Reset")) controls.resetRequested = true;
    ImGui::SameLine();
    if (ImGui::Button("Reload file")) controls.reloadRequested = true;
    ImGui::EndDisabled();
    int slow = int(controls.slowMotion);
    if (ImGui::SliderInt("slow motion", &slow, 1, 16, "1/%d")) controls.slowMotion = uint32_t(std::max(slow, 1));

    ImGui::BeginDisabled(!view.resetAllowed);
    const std::string current = std::filesystem::path(view.scenePath).filename().string();
    if (ImGui::BeginCombo("scene", current.c_str())) {
        for (const std::string& file : view.sceneFiles) {
            const std::string name = std::filesystem::path(file).filename().string();
            if (ImGui::Selectable(name.c_str(), file == view.scenePath)) controls.loadRequest = file;
        }
        ImGui::EndCombo();
    }
    ImGui::EndDisabled();
    if (!view.resetAllowed) ImGui::TextColored(kDimColor, "reset and scene changes are off with --export/--trace");
    if (!view.error.empty()) ImGui::TextColored(kErrorColor, "%s", view.error.c_str());
}

// The PBD path, "auto" naming the one it takes; a path the scene cannot run
// is greyed out, its reason the tooltip. To compare the paths live: the
// timer has room for every path the scene can run (World's constructor).
bool pbdPathCombo(const OverlayView& view, SolverSettings& edited) {
    const PbdPath taken = view.pbdPathFor(edited);
    auto label = [&](PbdPath path) {
        return path == PbdPath::Auto ? fmt::format("auto ({})", kPbdPathNames[size_t(taken)])
                                     : std::string(kPbdPathNames[size_t(path)]);
    };
    bool changed = false;
    if (ImGui::BeginCombo("PBD path", label(edited.pbd.path).c_str())) {
        for (PbdPath path : {PbdPath::Auto, PbdPath::Workgroup, PbdPath::PerColour, PbdPath::Clusters}) {
            const std::optional<std::string> misfit = view.pbdPathMisfit(path);
            ImGui::BeginDisabled(misfit.has_value());
            if (ImGui::Selectable(label(path).c_str(), path == edited.pbd.path)) {
                changed = path != edited.pbd.path;
                edited.pbd.path = path;
            }
            ImGui::EndDisabled();
            if (misfit && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
                ImGui::SetTooltip("%s", misfit->c_str());
        }
        ImGui::EndCombo();
    }
    return changed;
}

// The wind's speed, its direction kept (+X from still air), and the gusts'
// strength (docs/physics.md §15): the air's two live knobs.
bool windSliders(AirSettings& air) {
    float speed = glm::length(air.wind);
    const bool windChanged = ImGui::SliderFloat("wind m/s", &speed, 0.0f, 30.0f, "%.2f");
    if (windChanged)
        air.wind = speed * (air.wind != glm::vec3(0.0f) ? glm::normalize(air.wind) : glm::vec3(1.0f, 0.0f, 0.0f));
    const bool gustsChanged = ImGui::SliderFloat("gusts m/s", &air.gusts.strength, 0.0f, 10.0f, "%.2f");
    return windChanged || gustsChanged;
}

// Edits a copy; the copy replaces the live settings only when the GPU timer
// has room for its timestamps (4x the scene's own passes).
void solverPanel(const OverlayView& view) {
    if (!view.solver || !ImGui::CollapsingHeader("Solver")) return;
    SolverSettings edited = *view.solver;
    float dtMs = edited.timeStep * 1000.0f;
    bool changed = ImGui::SliderFloat("time step ms", &dtMs, 1.0f, 33.3f, "%.2f");
    edited.timeStep = dtMs / 1000.0f;
    int substeps = int(edited.substeps);
    int iterations = int(edited.pbd.iterations);
    changed |= ImGui::SliderInt("substeps", &substeps, 1, 64);
    changed |= ImGui::SliderInt("iterations", &iterations, 1, 64);
    edited.substeps = uint32_t(std::max(substeps, 1));
    edited.pbd.iterations = uint32_t(std::max(iterations, 1));
    if (view.pbdPathFor) changed |= pbdPathCombo(view, edited);
    changed |= ImGui::DragFloat3("gravity", &edited.gravity.x, 0.05f, -50.0f, 50.0f, "%.2f");
    changed |= ImGui::SliderFloat("damping 1/s", &edited.damping, 0.0f, 10.0f, "%.3f");
    if (view.wind) changed |= windSliders(edited.air);
    int local = int(edited.pd.localIterations);
    int jacobi = int(edited.pd.jacobiIterations);
    changed |= ImGui::SliderInt("pd local iterations", &local, 1, 50);
    changed |= ImGui::SliderInt("pd Jacobi iterations", &jacobi, 1, 100);
    edited.pd.localIterations = uint32_t(std::max(local, 1));
    edited.pd.jacobiIterations = uint32_t(std::max(jacobi, 1));
    if (!changed) return;
    const uint32_t runs = view.passRuns ? view.passRuns(edited) : 0;
    if (runs <= view.maxPassRuns) *view.solver = edited;
    else
        ImGui::SetTooltip("%u timed passes per frame: more than the %u the timer holds (4x the scene's)", runs,
                          view.maxPassRuns);
}

void displayPanel(const OverlayView& view, ViewerControls& controls) {
    if (!ImGui::CollapsingHeader("Display", ImGuiTreeNodeFlags_DefaultOpen)) return;
    int mode = int(controls.display.mode);
    if (ImGui::BeginCombo("mode (M)", kDisplayModeNames[size_t(mode)])) {
        for (size_t i = 0; i < kDisplayModeNames.size(); ++i) {
            const bool disabled = DisplayMode(i) == DisplayMode::Wireframe && !view.wireframeAvailable;
            ImGui::BeginDisabled(disabled);
            if (ImGui::Selectable(kDisplayModeNames[i], int(i) == mode)) controls.display.mode = DisplayMode(i);
            ImGui::EndDisabled();
        }
        ImGui::EndCombo();
    }
    ImGui::Checkbox("colliders (C)", &controls.display.colliders);
    ImGui::Checkbox("contacts (K)", &controls.display.contacts);
    if (view.wind) ImGui::Checkbox("wind field", &controls.display.wind);
    if (view.anchors) ImGui::Checkbox("tethers and attachments", &controls.display.anchors);
    if (ImGui::Button("Frame scene (F)")) controls.frameRequested = true;
    ImGui::SameLine();
    if (ImGui::Button("Reset camera (R)")) controls.cameraResetRequested = true;
}

void convergencePanel(const OverlayProviders& providers, ViewerControls& controls, bool openRequested) {
    if (openRequested) ImGui::SetNextItemOpen(true);
    controls.convergenceShown = ImGui::CollapsingHeader("Convergence");
    if (!controls.convergenceShown) return;
    if (!providers.convergence) {
        notAvailable("constraint residual per iteration");
        return;
    }
    const std::vector<ConvergenceSeries> all = providers.convergence();
    for (const bool perFrame : {false, true}) {
        bool captioned = false;
        for (const ConvergenceSeries& series : all) {
            if (series.perFrame != perFrame) continue;
            if (!std::exchange(captioned, true))
                ImGui::TextColored(kDimColor, perFrame ? "per frame, since the panel opened (the last 600)"
                                                       : "per iteration of the last substep");
            plot(series.label.c_str(), series.values, series.unit.c_str(), series.fromZero);
        }
    }
}

// A combo of the parameter's choices; an unavailable one is greyed out with
// its reason as the tooltip. True when another choice was picked (into value).
bool choiceWidget(const LiveParameter& parameter, float& value) {
    const size_t current = size_t(std::lround(value));
    const char* preview = current < parameter.choices.size() ? parameter.choices[current].name.c_str() : "?";
    bool changed = false;
    if (!ImGui::BeginCombo(parameter.name.c_str(), preview)) return false;
    for (size_t i = 0; i < parameter.choices.size(); ++i) {
        const LiveChoice& choice = parameter.choices[i];
        ImGui::BeginDisabled(!choice.unavailable.empty());
        if (ImGui::Selectable(choice.name.c_str(), i == current) && i != current) {
            value = float(i);
            changed = true;
        }
        ImGui::EndDisabled();
        if (!choice.unavailable.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
            ImGui::SetTooltip("%s", choice.unavailable.c_str());
    }
    ImGui::EndCombo();
    return changed;
}

// The widget of the parameter's kind; true when the user changed the value.
bool parameterWidget(const LiveParameter& parameter, float& value) {
    switch (parameter.kind) {
        case LiveParameter::Kind::Integer: {
            int count = int(std::lround(value));
            const bool changed = ImGui::SliderInt(parameter.name.c_str(), &count, int(parameter.min),
                                                  int(parameter.max));
            value = float(std::clamp(count, int(parameter.min), int(parameter.max)));
            return changed;
        }
        case LiveParameter::Kind::Choice: return choiceWidget(parameter, value);
        case LiveParameter::Kind::Slider: break;
    }
    const ImGuiSliderFlags flags = parameter.logarithmic ? ImGuiSliderFlags_Logarithmic : 0;
    return ImGui::SliderFloat(parameter.name.c_str(), &value, parameter.min, parameter.max, "%.4g", flags);
}

// A refused edit (a bad value, a combination the solver cannot step, more
// timed passes than the GPU timer holds) leaves the simulation as it was and
// its reason in red above the sliders, instead of ending the viewer.
void parametersPanel(const OverlayProviders& providers, ViewerControls& controls) {
    if (!ImGui::CollapsingHeader("Materials and colliders")) return;
    if (!providers.parameters) {
        notAvailable("stiffness, compliance, friction, restitution, collider transforms");
        return;
    }
    if (!controls.parameterError.empty()) ImGui::TextColored(kErrorColor, "%s", controls.parameterError.c_str());
    std::string group;
    int id = 0;
    for (LiveParameter& parameter : providers.parameters()) {
        if (parameter.group != group) {
            group = parameter.group;
            ImGui::TextColored(kDimColor, "%s", group.c_str());
        }
        ImGui::PushID(id++);
        float value = parameter.value;
        if (parameterWidget(parameter, value) && parameter.set) {
            try {
                parameter.set(value);
                controls.parameterError.clear();
            } catch (const std::exception& e) {
                controls.parameterError = e.what();
            }
        }
        ImGui::PopID();
    }
}

void contactsPanel(const OverlayProviders& providers) {
    if (!ImGui::CollapsingHeader("Contacts")) return;
    if (!providers.contacts) {
        notAvailable("contacts");
        return;
    }
    for (const std::string& line : providers.contacts()) ImGui::TextUnformatted(line.c_str());
}

void pickingPanel(const OverlayProviders& providers) {
    if (!ImGui::CollapsingHeader("Picking")) return;
    if (!providers.picker) notAvailable("picking");
    else ImGui::TextUnformatted("Ctrl + left drag: pull a particle");
}

}  // namespace

void drawViewerPanels(const OverlayView& view, const OverlayProviders& providers, ViewerControls& controls) {
    ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
    // As tall as the open panels, up to the window's height; beyond it they scroll.
    ImGui::SetNextWindowSizeConstraints(ImVec2(400.0f, 0.0f),
                                        ImVec2(400.0f, std::max(ImGui::GetIO().DisplaySize.y - 20.0f, 100.0f)));
    ImGui::Begin("vksim (F1/Tab hides)", nullptr, ImGuiWindowFlags_AlwaysAutoResize);
    // --show-convergence: the Convergence panel open and, so that its plots
    // fit the window, the two other panels that start open closed.
    const bool convergenceRequested = std::exchange(controls.convergenceOpenRequested, false);
    if (convergenceRequested) ImGui::SetNextItemOpen(false);
    timingPanel(view);
    simulationPanel(view, controls);
    solverPanel(view);
    if (convergenceRequested) ImGui::SetNextItemOpen(false);
    displayPanel(view, controls);
    parametersPanel(providers, controls);
    convergencePanel(providers, controls, convergenceRequested);
    contactsPanel(providers);
    pickingPanel(providers);
    ImGui::End();
}

}  // namespace vksim
