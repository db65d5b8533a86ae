# Fuzz targets (tests/fuzz/fuzz_<name>.cpp, each an LLVMFuzzerTestOneInput)
# on the code that reads user input: scene files, OBJ and TetGen meshes, SDF
# grid caches, the command line. Each links only the sanitized library it
# needs (tests/sanitized_loaders.cmake).
#
# - A fuzz build (-DVKSIM_FUZZ=ON with clang, scripts/fuzz.sh) makes the
#   libFuzzer binaries fuzz_<name>, under AddressSanitizer and UBSan; the
#   target vksim_fuzzers builds them all.
# - Every other build makes fuzz_<name>_replay instead: the same
#   LLVMFuzzerTestOneInput with a main() that runs it on files
#   (replay_main.cpp), under the same sanitizers, and a test fuzz_replay_<name>
#   that replays the seed corpus and every crasher found so far
#   (regressions/<name>/), so that a fixed bug stays fixed.
include(${PROJECT_SOURCE_DIR}/tests/sanitized_loaders.cmake)

set(VKSIM_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
set(VKSIM_FUZZ_TARGETS scene obj tetgen sdf_cache command_line)
set(VKSIM_FUZZ_LIBRARY_scene vksim_scene_loader_sanitized)
set(VKSIM_FUZZ_LIBRARY_obj vksim_asset_loaders_sanitized)
set(VKSIM_FUZZ_LIBRARY_tetgen vksim_asset_loaders_sanitized)
set(VKSIM_FUZZ_LIBRARY_sdf_cache vksim_asset_loaders_sanitized)
set(VKSIM_FUZZ_LIBRARY_command_line vksim_command_line_sanitized)

if(VKSIM_FUZZ)
  add_custom_target(vksim_fuzzers)
endif()
foreach(name IN LISTS VKSIM_FUZZ_TARGETS)
  if(VKSIM_FUZZ)
    set(target fuzz_${name})
    add_executable(${target} ${VKSIM_FUZZ_DIR}/fuzz_${name}.cpp)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
                           -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=fuzzer,address,undefined)
    add_dependencies(vksim_fuzzers ${target})
  else()
    set(target fuzz_${name}_replay)
    add_executable(${target} ${VKSIM_FUZZ_DIR}/fuzz_${name}.cpp ${VKSIM_FUZZ_DIR}/replay_main.cpp)
    target_compile_options(${target} PRIVATE ${VKSIM_SANITIZE_FLAGS})
    add_test(NAME fuzz_replay_${name} COMMAND ${VKSIM_FUZZ_DIR}/replay.sh $<TARGET_FILE:${target}> ${name})
    set_tests_properties(fuzz_replay_${name} PROPERTIES LABELS "asan;fuzz" TIMEOUT 300
                         ENVIRONMENT "ASAN_OPTIONS=detect_leaks=1:abort_on_error=0")
  endif()
  target_link_libraries(${target} PRIVATE ${VKSIM_FUZZ_LIBRARY_${name}})
  target_compile_definitions(${target} PRIVATE VKSIM_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  vksim_warnings(${target})
endforeach()
