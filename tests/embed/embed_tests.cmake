# --- embed_package: `cmake --install` to a temporary prefix, examples/embed
# configured and built against it with find_package(vksim), run headless with
# validation on its own device; its state-hash must equal vksim --headless's.
add_test(NAME embed_package
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/embed_test.sh ${CMAKE_COMMAND} ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                 $<TARGET_FILE:vksim> ${PROJECT_SOURCE_DIR}/tests/cli/small_cloth.json 30
                 ${CMAKE_CURRENT_BINARY_DIR}/embed_package)
set_tests_properties(embed_package PROPERTIES TIMEOUT 300 LABELS "gpu;embed")
