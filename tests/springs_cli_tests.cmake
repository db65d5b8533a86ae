# Command-line checks of the mass-spring scenes (scenes/springs_*.json): each
# that is meant to run runs headless with the validation layer on (any
# message exits 3); an explicit and an implicit scene print the same
# state-hash in two separate processes (tests/cli/determinism.sh); the
# overshoot scene ends with one line naming where it went non-finite and a
# non-zero exit.
foreach(name springs_cloth springs_flag springs_locking springs_newton_vs_vbd)
  add_test(NAME cli_${name}_validated
           COMMAND $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/scenes/${name}.json --headless --frames 20 --validate
                   --quiet)
  set_tests_properties(cli_${name}_validated PROPERTIES TIMEOUT 300 LABELS gpu)
endforeach()
# 160 substeps a frame (explicit Euler kept finite for 600 frames): 5 frames.
add_test(NAME cli_springs_integrators_validated
         COMMAND $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/scenes/springs_integrators.json --headless --frames 5
                 --validate --quiet)
set_tests_properties(cli_springs_integrators_validated PROPERTIES TIMEOUT 300 LABELS gpu)
foreach(name springs_cloth springs_newton_vs_vbd)
  add_test(NAME cli_determinism_${name}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/determinism.sh $<TARGET_FILE:vksim>
                   ${PROJECT_SOURCE_DIR}/scenes/${name}.json 30)
  set_tests_properties(cli_determinism_${name} PROPERTIES TIMEOUT 600 LABELS gpu)
endforeach()
add_test(NAME cli_springs_overshoot_is_reported
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/cli/springs_overshoot.sh $<TARGET_FILE:vksim>
                 ${PROJECT_SOURCE_DIR}/scenes/springs_overshoot.json)
set_tests_properties(cli_springs_overshoot_is_reported PROPERTIES TIMEOUT 300 LABELS gpu)
