# --- Viewer tests (label "window"): screenshots of the default scene, windowed
# under a virtual X server (xvfb-run) and headless, checked pixel by pixel by
# vksim_png_check; every display mode; the resize/minimise sequence (a gtest
# that drives the window and the viewer directly). All run with the
# validation layer: any message makes vksim exit 3 (or fails the gtest).
add_executable(vksim_png_check ${CMAKE_CURRENT_LIST_DIR}/png_check.cpp)
target_link_libraries(vksim_png_check PRIVATE vksim_app)
vksim_warnings(vksim_png_check)

set(VKSIM_SHOTS ${CMAKE_CURRENT_BINARY_DIR}/screenshots)
file(MAKE_DIRECTORY ${VKSIM_SHOTS})
set(VKSIM_DEFAULT_SCENE ${PROJECT_SOURCE_DIR}/scenes/cloth_sphere.json)
# Few frames: the cloth has fallen a little and hangs above the ball, so both
# show where the scene's camera puts them (vksim_png_check scene).
set(VKSIM_SHOT_FRAMES 10)

if(VKSIM_XVFB)
  add_test(NAME viewer_screenshot_windowed
           COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} --frames ${VKSIM_SHOT_FRAMES}
                   --no-overlay --validate --quiet --screenshot ${VKSIM_SHOTS}/windowed.png)
  set_tests_properties(viewer_screenshot_windowed PROPERTIES FIXTURES_SETUP windowed_shot)

  # The resize/minimise sequence (resize_test.cpp) and the overlay's requests
  # (viewer_controls_test.cpp), driven from test code.
  file(GLOB VKSIM_WINDOW_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*_test.cpp)
  add_executable(vksim_window_tests ${VKSIM_WINDOW_TESTS})
  target_link_libraries(vksim_window_tests PRIVATE vksim_app vksim_source_dir GTest::gtest_main)
  vksim_warnings(vksim_window_tests)
  add_test(NAME viewer_window_gtests COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim_window_tests>)
  set_tests_properties(viewer_window_gtests PROPERTIES TIMEOUT 120 LABELS "gpu;window")

  # Per-pass times in a window are those of a headless run (the passes'
  # share of the step, pass_timings_windowed.sh).
  add_test(NAME viewer_pass_timings_windowed
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/pass_timings_windowed.sh $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE}
                   ${CMAKE_CURRENT_BINARY_DIR}/pass_timings ${VKSIM_XVFB})
  set_tests_properties(viewer_pass_timings_windowed PROPERTIES TIMEOUT 120 LABELS "gpu;window")

  # Every present mode runs; one the surface lacks falls back to fifo with a notice.
  foreach(mode fifo mailbox immediate)
    add_test(NAME viewer_present_mode_${mode}
             COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/tests/cli/small_cloth.json --frames 8
                     --present-mode ${mode} --validate --quiet)
    set_tests_properties(viewer_present_mode_${mode} PROPERTIES TIMEOUT 120 LABELS "gpu;window")
  endforeach()
else()
  add_test(NAME viewer_screenshot_windowed COMMAND ${CMAKE_COMMAND} -E echo "xvfb-run not found, skipped")
  set_tests_properties(viewer_screenshot_windowed PROPERTIES SKIP_REGULAR_EXPRESSION "skipped")
endif()

add_test(NAME viewer_screenshot_headless
         COMMAND $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} --headless --frames ${VKSIM_SHOT_FRAMES} --validate
                 --quiet --screenshot ${VKSIM_SHOTS}/headless.png)
set_tests_properties(viewer_screenshot_headless PROPERTIES FIXTURES_SETUP headless_shot)

# Not blank; the ball and the cloth where the camera projection puts them.
add_test(NAME viewer_screenshot_content
         COMMAND vksim_png_check scene ${VKSIM_SHOTS}/windowed.png ${VKSIM_DEFAULT_SCENE} ${VKSIM_SHOT_FRAMES})
set_tests_properties(viewer_screenshot_content PROPERTIES FIXTURES_REQUIRED windowed_shot)
add_test(NAME viewer_screenshot_headless_content
         COMMAND vksim_png_check scene ${VKSIM_SHOTS}/headless.png ${VKSIM_DEFAULT_SCENE} ${VKSIM_SHOT_FRAMES})
set_tests_properties(viewer_screenshot_headless_content PROPERTIES FIXTURES_REQUIRED headless_shot)
# The same frame drawn by the same renderer into the swapchain and into the
# offscreen target: lavapipe rasterises both identically; 2 levels of 255
# allow for a device that rounds sRGB encoding differently between the two.
add_test(NAME viewer_screenshot_windowed_vs_headless
         COMMAND vksim_png_check diff ${VKSIM_SHOTS}/windowed.png ${VKSIM_SHOTS}/headless.png 2)
set_tests_properties(viewer_screenshot_windowed_vs_headless PROPERTIES FIXTURES_REQUIRED "windowed_shot;headless_shot")

set_tests_properties(viewer_screenshot_windowed viewer_screenshot_headless viewer_screenshot_content
                     viewer_screenshot_headless_content viewer_screenshot_windowed_vs_headless
                     PROPERTIES LABELS "gpu;window" TIMEOUT 120)

# Every display mode draws, with validation, something not blank that differs
# from the shaded picture (headless: the same renderer as the window; small
# images keep it quick).
add_test(NAME viewer_display_shaded
         COMMAND $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} --headless --frames 8 --size 480x270 --validate --quiet
                 --display shaded --screenshot ${VKSIM_SHOTS}/mode_shaded.png)
set_tests_properties(viewer_display_shaded PROPERTIES FIXTURES_SETUP shaded_shot LABELS "gpu;window" TIMEOUT 120)
foreach(mode wireframe particles graph-colour strain hide-colliders)
  if(mode STREQUAL "hide-colliders")
    set(mode_args --hide-colliders)
  else()
    set(mode_args --display ${mode})
  endif()
  add_test(NAME viewer_display_${mode}
           COMMAND ${CMAKE_COMMAND} -DVKSIM=$<TARGET_FILE:vksim> -DCHECK=$<TARGET_FILE:vksim_png_check>
                   -DSCENE=${VKSIM_DEFAULT_SCENE} "-DARGS=${mode_args}" -DOUT=${VKSIM_SHOTS}/mode_${mode}.png
                   -DREFERENCE=${VKSIM_SHOTS}/mode_shaded.png -P ${CMAKE_CURRENT_LIST_DIR}/display_mode_check.cmake)
  set_tests_properties(viewer_display_${mode} PROPERTIES FIXTURES_REQUIRED shaded_shot LABELS "gpu;window"
                       TIMEOUT 120)
endforeach()

# The contacts drawn (--show-contacts, render/contact_lines.h): two cloths
# touching from the first frame, with validation; the lines change the
# picture of the same frame drawn without them.
set(VKSIM_CONTACTS_SCENE ${PROJECT_SOURCE_DIR}/tests/cli/contacts_pair.json)
add_test(NAME viewer_display_contacts_off
         COMMAND $<TARGET_FILE:vksim> ${VKSIM_CONTACTS_SCENE} --headless --frames 8 --size 480x270 --validate --quiet
                 --screenshot ${VKSIM_SHOTS}/contacts_off.png)
set_tests_properties(viewer_display_contacts_off PROPERTIES FIXTURES_SETUP contacts_off_shot LABELS "gpu;window"
                     TIMEOUT 120)
add_test(NAME viewer_display_contacts
         COMMAND ${CMAKE_COMMAND} -DVKSIM=$<TARGET_FILE:vksim> -DCHECK=$<TARGET_FILE:vksim_png_check>
                 -DSCENE=${VKSIM_CONTACTS_SCENE} -DARGS=--show-contacts -DOUT=${VKSIM_SHOTS}/contacts_on.png
                 -DREFERENCE=${VKSIM_SHOTS}/contacts_off.png -P ${CMAKE_CURRENT_LIST_DIR}/display_mode_check.cmake)
set_tests_properties(viewer_display_contacts PROPERTIES FIXTURES_REQUIRED contacts_off_shot LABELS "gpu;window"
                     TIMEOUT 120)

# The wind field drawn (--show-wind, render/wind_lines.h): the flags in
# their gusts, with validation; the lines change the picture of the same
# frame drawn without them.
set(VKSIM_WIND_SCENE ${PROJECT_SOURCE_DIR}/scenes/flags_wind.json)
add_test(NAME viewer_display_wind_off
         COMMAND $<TARGET_FILE:vksim> ${VKSIM_WIND_SCENE} --headless --frames 8 --size 480x270 --validate --quiet
                 --screenshot ${VKSIM_SHOTS}/wind_off.png)
set_tests_properties(viewer_display_wind_off PROPERTIES FIXTURES_SETUP wind_off_shot LABELS "gpu;window"
                     TIMEOUT 120)
add_test(NAME viewer_display_wind
         COMMAND ${CMAKE_COMMAND} -DVKSIM=$<TARGET_FILE:vksim> -DCHECK=$<TARGET_FILE:vksim_png_check>
                 -DSCENE=${VKSIM_WIND_SCENE} -DARGS=--show-wind -DOUT=${VKSIM_SHOTS}/wind_on.png
                 -DREFERENCE=${VKSIM_SHOTS}/wind_off.png -P ${CMAKE_CURRENT_LIST_DIR}/display_mode_check.cmake)
set_tests_properties(viewer_display_wind PROPERTIES FIXTURES_REQUIRED wind_off_shot LABELS "gpu;window"
                     TIMEOUT 120)

# The tethers and attachments drawn (--show-anchors, render/anchor_lines.h):
# the tethered curtains, with validation; the lines change the picture of
# the same frame drawn without them.
set(VKSIM_ANCHORS_SCENE ${PROJECT_SOURCE_DIR}/scenes/cloth_tethers.json)
add_test(NAME viewer_display_anchors_off
         COMMAND $<TARGET_FILE:vksim> ${VKSIM_ANCHORS_SCENE} --headless --frames 8 --size 480x270 --validate --quiet
                 --screenshot ${VKSIM_SHOTS}/anchors_off.png)
set_tests_properties(viewer_display_anchors_off PROPERTIES FIXTURES_SETUP anchors_off_shot LABELS "gpu;window"
                     TIMEOUT 120)
add_test(NAME viewer_display_anchors
         COMMAND ${CMAKE_COMMAND} -DVKSIM=$<TARGET_FILE:vksim> -DCHECK=$<TARGET_FILE:vksim_png_check>
                 -DSCENE=${VKSIM_ANCHORS_SCENE} -DARGS=--show-anchors -DOUT=${VKSIM_SHOTS}/anchors_on.png
                 -DREFERENCE=${VKSIM_SHOTS}/anchors_off.png -P ${CMAKE_CURRENT_LIST_DIR}/display_mode_check.cmake)
set_tests_properties(viewer_display_anchors PROPERTIES FIXTURES_REQUIRED anchors_off_shot LABELS "gpu;window"
                     TIMEOUT 120)

# The overlay is visible by default in the window, and a screenshot shows
# it: the same frame as viewer_screenshot_windowed (which has --no-overlay)
# must differ from it, with validation on throughout.
if(VKSIM_XVFB_RUN)
  add_test(NAME viewer_overlay_windowed
           COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} --frames ${VKSIM_SHOT_FRAMES} --validate
                   --quiet --screenshot ${VKSIM_SHOTS}/overlay.png)
  set_tests_properties(viewer_overlay_windowed PROPERTIES LABELS "gpu;window" TIMEOUT 120
                       FIXTURES_SETUP overlay_shot)
  add_test(NAME viewer_overlay_in_screenshot
           COMMAND vksim_png_check content ${VKSIM_SHOTS}/overlay.png ${VKSIM_SHOTS}/windowed.png)
  set_tests_properties(viewer_overlay_in_screenshot PROPERTIES LABELS "gpu;window"
                       FIXTURES_REQUIRED "overlay_shot;windowed_shot")
endif()

# Bad viewer options: one line, exit 2; an unwritable screenshot: exit 1.
add_test(NAME viewer_cli_errors
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/viewer_cli.sh $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/tests/cli/small_cloth.json)
set_tests_properties(viewer_cli_errors PROPERTIES LABELS "gpu;window" TIMEOUT 120)
