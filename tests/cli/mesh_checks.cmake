# Command-line checks of the mesh scenes: each runs headless with the
# validation layer on (any message exits 3; the mesh SDF buffer is bound to
# every collision pass), and the SDF grid cache works end to end: baked on
# the first run, read on the second (mesh_cache.sh).
foreach(name cloth_torus mesh_flag)
  add_test(NAME cli_${name}_validated
           COMMAND $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/scenes/${name}.json --headless --frames 20 --validate
                   --quiet)
  set_tests_properties(cli_${name}_validated PROPERTIES TIMEOUT 300 LABELS gpu)
endforeach()
add_test(NAME cli_mesh_sdf_cache
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/mesh_cache.sh $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR})
set_tests_properties(cli_mesh_sdf_cache PROPERTIES TIMEOUT 300 LABELS gpu)
