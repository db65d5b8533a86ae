# Asset loader tests (OBJ, TetGen files, tetgen runs, SDF grid cache, fuzzing
# of the parsers), built with AddressSanitizer and UndefinedBehaviorSanitizer
# whatever the build type: the loaders read files a user hands us, and the
# sanitizers turn a silent overrun or overflow into a failing test. The
# target compiles its own copy of the loader sources, so the rest of the
# engine stays unsanitised and fast; it takes seconds to build and run.
set(VKSIM_ASSET_LOADER_SOURCES
    ${PROJECT_SOURCE_DIR}/engine/io/asset_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/read_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/cache_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/mesh_weld.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/obj_loader.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/sdf_grid_cache.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/tetgen_io.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/tetgen_runner.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/triangle_surface.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/write_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/sim/mesh_sdf_bake.cpp
    ${PROJECT_SOURCE_DIR}/engine/sim/signed_distance_grid.cpp
    ${PROJECT_SOURCE_DIR}/engine/sim/tet_mesh.cpp
    ${PROJECT_SOURCE_DIR}/engine/sim/triangle_bvh.cpp)
file(GLOB VKSIM_ASSET_LOADER_TESTS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/*.cpp)
add_executable(vksim_asset_tests ${VKSIM_ASSET_LOADER_TESTS} ${VKSIM_ASSET_LOADER_SOURCES})
target_include_directories(vksim_asset_tests PRIVATE ${PROJECT_SOURCE_DIR}/engine ${PROJECT_SOURCE_DIR}/shaders)
target_link_libraries(vksim_asset_tests PRIVATE glm::glm fmt::fmt tinyobjloader::tinyobjloader_double Threads::Threads
                      GTest::gtest_main)
target_compile_definitions(vksim_asset_tests PRIVATE VKSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_compile_options(vksim_asset_tests PRIVATE -fsanitize=address,undefined -fno-sanitize-recover=all
                       -fno-omit-frame-pointer)
target_link_options(vksim_asset_tests PRIVATE -fsanitize=address,undefined)
vksim_warnings(vksim_asset_tests)
gtest_discover_tests(vksim_asset_tests DISCOVERY_TIMEOUT 60
                     PROPERTIES LABELS "asan" ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0")
