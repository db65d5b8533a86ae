# Command-line checks of the projective dynamics scenes (scenes/pd_*.json):
# each runs headless with the validation layer on (any message exits 3), and
# the scene with PBD and PD side by side prints the same state-hash in two
# separate processes (tests/cli/determinism.sh).
file(GLOB VKSIM_PD_SCENES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/scenes/pd_*.json)
foreach(scene ${VKSIM_PD_SCENES})
  get_filename_component(name ${scene} NAME_WE)
  add_test(NAME cli_${name}_validated
           COMMAND $<TARGET_FILE:vksim> ${scene} --headless --frames 20 --validate --quiet)
  set_tests_properties(cli_${name}_validated PROPERTIES TIMEOUT 300 LABELS gpu)
endforeach()
add_test(NAME cli_determinism_pd_vs_pbd
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/determinism.sh $<TARGET_FILE:vksim>
                 ${PROJECT_SOURCE_DIR}/scenes/pd_vs_pbd_cloth.json 60)
set_tests_properties(cli_determinism_pd_vs_pbd PROPERTIES TIMEOUT 600 LABELS gpu)
