# --- windowed_smoke: the viewer opens a window, simulates and draws 60 frames
# with validation (synchronization validation included) and exits 0; any
# validation message makes vksim exit 3 and fails the test. Runs under a
# virtual X server (xvfb-run), so it needs no display. Skipped, visibly, where
# xvfb-run is not installed.
if(VKSIM_XVFB)
  add_test(NAME windowed_smoke
           COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/scenes/cloth_sphere.json --frames 60 --validate)
else()
  add_test(NAME windowed_smoke COMMAND ${CMAKE_COMMAND} -E echo "windowed_smoke: xvfb-run not found, skipped")
  set_tests_properties(windowed_smoke PROPERTIES SKIP_REGULAR_EXPRESSION "skipped")
endif()
# 60 validated frames take over a minute on lavapipe with two cores.
set_tests_properties(windowed_smoke PROPERTIES TIMEOUT 600 LABELS "gpu;window")
