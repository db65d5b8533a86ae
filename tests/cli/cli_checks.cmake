# Command-line checks of build/vksim: bad input, device errors, determinism,
# a simulation that goes non-finite, run outputs and the benchmark.
set(VKSIM_CLI_DIR ${CMAKE_CURRENT_LIST_DIR})
set(VKSIM_DEFAULT_SCENE ${PROJECT_SOURCE_DIR}/scenes/cloth_sphere.json)

add_test(NAME cli_bad_scenes
         COMMAND ${VKSIM_CLI_DIR}/bad_scenes.sh $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/tests/bad_scenes)
add_test(NAME cli_device_errors
         COMMAND ${VKSIM_CLI_DIR}/device_errors.sh $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE})
# The issue's determinism check: the default scene, 200 frames, two processes.
add_test(NAME cli_determinism_default_scene
         COMMAND ${VKSIM_CLI_DIR}/determinism.sh $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} 200)
set_tests_properties(cli_determinism_default_scene PROPERTIES TIMEOUT 900 LABELS gpu)
# A scene that overflows float32: exit 1 and one line naming the pass.
add_test(NAME cli_non_finite
         COMMAND ${VKSIM_CLI_DIR}/non_finite.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/huge_gravity.json)
set_tests_properties(cli_non_finite PROPERTIES TIMEOUT 300 LABELS gpu)
# Rigid bodies' outputs: --export of bodies alone, --poses (CSV, JSON, a
# wrong extension), a non-finite body named in one line with its pass.
add_test(NAME cli_rigid_outputs COMMAND ${VKSIM_CLI_DIR}/rigid_outputs.sh $<TARGET_FILE:vksim>)
set_tests_properties(cli_rigid_outputs PROPERTIES TIMEOUT 300 LABELS gpu)
# Command-line values refused before anything runs (wrapped numbers, empty strings).
add_test(NAME cli_command_line_values
         COMMAND ${VKSIM_CLI_DIR}/command_line_values.sh $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE})
add_test(NAME cli_special_inputs
         COMMAND ${VKSIM_CLI_DIR}/special_inputs.sh $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE})
set_tests_properties(cli_bad_scenes cli_device_errors cli_command_line_values cli_special_inputs PROPERTIES TIMEOUT 300)
# Long paths, --device values and object names: one short line naming the key or option.
add_test(NAME cli_long_inputs
         COMMAND ${VKSIM_CLI_DIR}/long_inputs.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json)
set_tests_properties(cli_long_inputs PROPERTIES TIMEOUT 300 LABELS gpu)
# --export, --trace, the progress bar and `vksim bench` at toy sizes.
add_test(NAME cli_outputs_and_bench
         COMMAND ${VKSIM_CLI_DIR}/outputs_and_bench.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json)
set_tests_properties(cli_outputs_and_bench PROPERTIES TIMEOUT 300 LABELS gpu)
# The step plan as `vksim --list-passes` prints it, against a timed run's passes.
add_test(NAME cli_list_passes COMMAND ${VKSIM_CLI_DIR}/list_passes.sh $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE})
set_tests_properties(cli_list_passes PROPERTIES TIMEOUT 300 LABELS gpu)
# Outputs onto a full disk (/dev/full, ulimit -f): exit 1, one line naming
# the file, no truncated or destroyed file.
add_test(NAME cli_failed_writes
         COMMAND ${VKSIM_CLI_DIR}/failed_writes.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json)
set_tests_properties(cli_failed_writes PROPERTIES TIMEOUT 300 LABELS gpu)
# SIGINT and SIGTERM mid-run: 130 and 143, one line, every output valid.
add_test(NAME cli_stop_signal
         COMMAND ${VKSIM_CLI_DIR}/stop_signal.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json)
set_tests_properties(cli_stop_signal PROPERTIES TIMEOUT 300 LABELS gpu)
# SIGTERM and SIGINT while tetgen (a stand-in that sleeps) meshes a
# surface: 143 and 130, tetgen ended and reaped, its folder removed.
add_test(NAME cli_tetgen_signals
         COMMAND ${VKSIM_CLI_DIR}/tetgen_signals.sh $<TARGET_FILE:vksim>
                 ${PROJECT_SOURCE_DIR}/tests/meshes/cube_quads.obj)
set_tests_properties(cli_tetgen_signals PROPERTIES TIMEOUT 120)
# Device faults injected with VKSIM_FAULT (lost at submit and at a fence
# wait, out of memory at an allocation and a map): exit 1, one line saying
# what was being done, the trace valid or absent.
add_test(NAME cli_device_faults
         COMMAND ${VKSIM_CLI_DIR}/device_faults.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json
                 ${VKSIM_DEFAULT_SCENE})
set_tests_properties(cli_device_faults PROPERTIES TIMEOUT 300 LABELS gpu)
# The GPU time limit: a frame past it is refused when it loads, naming the
# keys; the pass cap names the rigid keys; VKSIM_SLOW_FRAME checks its value.
add_test(NAME cli_gpu_time_limit
         COMMAND ${VKSIM_CLI_DIR}/gpu_time_limit.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json
                 ${VKSIM_CLI_DIR}/pd_jacobi_1000.json)
set_tests_properties(cli_gpu_time_limit PROPERTIES TIMEOUT 300 LABELS gpu)
# Little host memory (ulimit -v): out of memory said as such, host or
# device, exit 1; never a crash or a bare std::bad_alloc.
add_test(NAME cli_low_memory
         COMMAND ${VKSIM_CLI_DIR}/low_memory.sh $<TARGET_FILE:vksim> ${VKSIM_CLI_DIR}/small_cloth.json)
set_tests_properties(cli_low_memory PROPERTIES TIMEOUT 300 LABELS gpu)
# A UV-sphere cloth with poles of valence 1000: the colour cap's overflow
# group in the model summary and the timings, silent validation, and the
# same state-hash on 1 and 4 lavapipe threads.
add_test(NAME cli_overflow_group COMMAND ${VKSIM_CLI_DIR}/overflow_group.sh $<TARGET_FILE:vksim>)
set_tests_properties(cli_overflow_group PROPERTIES TIMEOUT 600 LABELS gpu)
# A GPU check script NAME.sh run as `NAME.sh VKSIM SCENES_DIR`, test cli_NAME.
function(vksim_scenes_check name)
  add_test(NAME cli_${name} COMMAND ${VKSIM_CLI_DIR}/${name}.sh $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/scenes)
  set_tests_properties(cli_${name} PROPERTIES TIMEOUT 600 LABELS gpu)
endfunction()
# The PBD workgroup path on the default scene: one dispatch per frame, the
# same state-hash on 1, 2 and 4 lavapipe threads and on the per-colour path,
# silent validation; a cloth too big for "workgroup", one line.
vksim_scenes_check(workgroup_path)
# Rigid bodies: the pile scene's state-hash (positions and body poses) is
# the same on 1, 2 and 4 lavapipe threads, in separate processes, and on
# both dispatch paths, with silent validation.
vksim_scenes_check(rigid_determinism)
# --save-state / --load-state: a run saved and loaded by another process
# steps on to the state-hash of one run; bad state files, one line each.
vksim_scenes_check(saved_state)
# Shape matching: the jelly scene, the same on 1, 2 and 4 threads and on both PBD paths.
vksim_scenes_check(jelly_determinism)
# Vertex block descent solids: a hanging bar and a falling cube, the same on 1, 2 and 4 threads.
vksim_scenes_check(vbd_determinism)
# Contacts between objects: two cloths landing on each other, the same on 1,
# 2 and 4 threads on the cluster and per-colour paths and with the Jacobi average.
vksim_scenes_check(contacts_determinism)
# The wind: the flags in gusts, the same on 1, 2 and 4 threads and twice in a row; the wind passes timed.
vksim_scenes_check(wind_determinism)
# The PBD cluster path: a 64 x 64 cloth, the same on 1, 2 and 4 threads; both sweeps, no colour pass.
vksim_scenes_check(cluster_determinism)
# One colouring across the PBD families: the default scene on the per-colour
# path, the same on 1, 2 and 4 threads and on the workgroup path; shared colour passes.
vksim_scenes_check(colour_across_families)
# Tethers: the curtains, the same on 1, 2 and 4 threads on the per-colour and
# cluster paths and on the workgroup path as per colour; tethers change the state.
vksim_scenes_check(tether_determinism)
# Tearing: the curtain torn by a ball, the same on 1, 2 and 4 threads and on the per-colour path; the tear pass
# timed; tearing changes the state; a state saved mid-tear loads to the same bits.
vksim_scenes_check(tearing_determinism)
# Attachments to bodies: the banner and the ribbons, the same on 1, 2 and 4
# threads; the attachment pass timed; the attachments change the state.
vksim_scenes_check(attachment_determinism)
# XPBD solids: tetrahedra the same on 1, 2 and 4 threads, on the workgroup, per-colour and cluster paths.
vksim_scenes_check(xpbd_determinism)
