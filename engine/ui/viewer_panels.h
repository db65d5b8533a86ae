#pragma once
// The overlay's one window, panel by panel: GPU timing (table and plot),
// simulation controls and scene picker, solver settings, display, convergence
// and picking. Pure ImGui calls between Overlay::beginFrame and record.
#include "ui/overlay_data.h"

namespace vksim {

void drawViewerPanels(const OverlayView& view, const OverlayProviders& providers, ViewerControls& controls);

}  // namespace vksim
