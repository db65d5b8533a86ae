# The engine code that reads what a user hands us (asset files, scene files,
# the command line), compiled a second time into small static libraries with
# AddressSanitizer and UBSan for the targets that test it: the asset loader
# tests (tests/asset_loaders/asset_tests.cmake), the fuzz targets and their
# replays (tests/fuzz/fuzz_targets.cmake). The rest of the engine stays
# unsanitised and fast. In a fuzz build (VKSIM_FUZZ, clang) they are also
# instrumented for libFuzzer's coverage feedback.
include_guard(GLOBAL)

set(VKSIM_ASSET_LOADER_SOURCES
    ${PROJECT_SOURCE_DIR}/engine/io/asset_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/read_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/cache_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/child_process.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/mesh_weld.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/weld_cells.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/obj_loader.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/quoted_input.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/sdf_grid_cache.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/tetgen_io.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/tetgen_runner.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/triangle_surface.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/write_file.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/temporary_files.cpp
    ${PROJECT_SOURCE_DIR}/engine/geometry/mesh_sdf_bake.cpp
    ${PROJECT_SOURCE_DIR}/engine/geometry/signed_distance_grid.cpp
    ${PROJECT_SOURCE_DIR}/engine/geometry/tet_mesh.cpp
    ${PROJECT_SOURCE_DIR}/engine/geometry/triangle_bvh.cpp)
# The scene file reader on top of them (scene_loader.h).
set(VKSIM_SCENE_LOADER_SOURCES
    ${PROJECT_SOURCE_DIR}/engine/scene/json_reader.cpp
    ${PROJECT_SOURCE_DIR}/engine/scene/scene_assets.cpp
    ${PROJECT_SOURCE_DIR}/engine/scene/scene_loader.cpp
    ${PROJECT_SOURCE_DIR}/engine/solvers/springs/spring_settings.cpp
    # Rigid bodies' mass properties, which the loader checks.
    ${PROJECT_SOURCE_DIR}/engine/scene/body_mass.cpp
    ${PROJECT_SOURCE_DIR}/engine/geometry/body_shape.cpp
    ${PROJECT_SOURCE_DIR}/engine/geometry/mass_properties.cpp)
# The command-line parser (app/command_line.h) and what its checks and help need.
set(VKSIM_COMMAND_LINE_SOURCES
    ${PROJECT_SOURCE_DIR}/engine/app/command_line.cpp
    ${PROJECT_SOURCE_DIR}/engine/app/command_line_values.cpp
    ${PROJECT_SOURCE_DIR}/engine/bench/bench_help.cpp
    ${PROJECT_SOURCE_DIR}/engine/bench/bench_scenes.cpp
    ${PROJECT_SOURCE_DIR}/engine/scene/scene_copies.cpp
    ${PROJECT_SOURCE_DIR}/engine/io/quoted_input.cpp)

set(VKSIM_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
if(VKSIM_FUZZ)
  set(VKSIM_LOADER_SANITIZE_FLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer)
else()
  set(VKSIM_LOADER_SANITIZE_FLAGS ${VKSIM_SANITIZE_FLAGS})
endif()

# vksim_sanitized_library(NAME SOURCES... ) with the engine's include folders.
function(vksim_sanitized_library name)
  add_library(${name} STATIC ${ARGN})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/engine ${VKSIM_SHADER_INCLUDE_ROOT})
  target_compile_options(${name} PRIVATE ${VKSIM_LOADER_SANITIZE_FLAGS})
  target_link_options(${name} INTERFACE -fsanitize=address,undefined)
  vksim_warnings(${name})
endfunction()

vksim_sanitized_library(vksim_asset_loaders_sanitized ${VKSIM_ASSET_LOADER_SOURCES})
target_link_libraries(vksim_asset_loaders_sanitized PUBLIC glm::glm fmt::fmt tinyobjloader::tinyobjloader_double
                      Threads::Threads)
vksim_sanitized_library(vksim_scene_loader_sanitized ${VKSIM_SCENE_LOADER_SOURCES})
target_link_libraries(vksim_scene_loader_sanitized PUBLIC vksim_asset_loaders_sanitized
                      nlohmann_json::nlohmann_json Eigen3::Eigen)
vksim_sanitized_library(vksim_command_line_sanitized ${VKSIM_COMMAND_LINE_SOURCES})
target_link_libraries(vksim_command_line_sanitized PUBLIC glm::glm fmt::fmt PRIVATE CLI11::CLI11)
