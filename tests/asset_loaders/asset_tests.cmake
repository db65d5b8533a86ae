# Asset loader tests (OBJ, TetGen files, tetgen runs, SDF grid cache, fuzzing
# of the parsers), built with AddressSanitizer and UndefinedBehaviorSanitizer
# whatever the build type: the loaders read files a user hands us, and the
# sanitizers turn a silent overrun or overflow into a failing test. The
# target links its own sanitized copy of the loaders
# (tests/sanitized_loaders.cmake), so the rest of the engine stays
# unsanitised and fast; it takes seconds to build and run.
include(${PROJECT_SOURCE_DIR}/tests/sanitized_loaders.cmake)
file(GLOB VKSIM_ASSET_LOADER_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_executable(vksim_asset_tests ${VKSIM_ASSET_LOADER_TESTS})
target_link_libraries(vksim_asset_tests PRIVATE vksim_asset_loaders_sanitized GTest::gtest_main)
target_compile_definitions(vksim_asset_tests PRIVATE VKSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_compile_options(vksim_asset_tests PRIVATE ${VKSIM_SANITIZE_FLAGS})
vksim_warnings(vksim_asset_tests)
gtest_discover_tests(vksim_asset_tests DISCOVERY_TIMEOUT 60
                     PROPERTIES LABELS "asan" ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0")
