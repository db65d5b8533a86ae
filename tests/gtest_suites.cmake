# Read by CTest when it loads the tests (the TEST_INCLUDE_FILES of
# tests/CMakeLists.txt): one test per GoogleTest suite of a test program
# (the unit tests, the GPU tests), each running its suite in one process.
# A GPU suite's cases then share the device context and the compute
# pipelines it built (vk/compute_pipelines.h) instead of compiling them once
# per case; every case still fails on its own validation messages
# (gpu_harness.h), and a failure's output names its case. A unit suite's
# cases share the start of a process. docs/testing.md, "Build and test
# times". Suite names are unique across the programs.
# In: VKSIM_SUITES_EXE (the program), VKSIM_SUITES_LABEL, and
# VKSIM_SUITES_SKIP: GoogleTest patterns of cases to leave out (the
# sanitizer build's, tests/sanitizers/long_tests.txt); "Suite.*" leaves
# the whole suite out, any other pattern goes into its suite's negative
# filter.
if(NOT EXISTS "${VKSIM_SUITES_EXE}")
  add_test(${VKSIM_SUITES_LABEL}_not_built "${VKSIM_SUITES_EXE}")
  return()
endif()
execute_process(COMMAND "${VKSIM_SUITES_EXE}" --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status
                TIMEOUT 60)
if(NOT status EQUAL 0)
  add_test(${VKSIM_SUITES_LABEL}_listing "${VKSIM_SUITES_EXE}" --gtest_list_tests)
  return()
endif()
set(skipped_suites "")
set(skipped_cases "")
foreach(pattern IN LISTS VKSIM_SUITES_SKIP)
  if(pattern MATCHES "^([^.*?]+)\\.\\*$")
    list(APPEND skipped_suites "${CMAKE_MATCH_1}")
  else()
    list(APPEND skipped_cases "${pattern}")
  endif()
endforeach()
string(REPLACE ";" "," listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  # A suite's line starts in column 0 and ends with its dot, maybe followed
  # by a comment ("SolverConformance/0.  # TypeParam = ..."); its cases are
  # indented.
  if(line MATCHES "^([^ #][^ ]*)\\.")
    set(suite "${CMAKE_MATCH_1}")
    # A suite of the same name in the other program would be a second test
    # of that name, which CTest would run under one name or not at all.
    list(FIND VKSIM_SUITES_SEEN "${suite}" seen)  # not IN_LIST: CTest sets no policies
    if(NOT seen EQUAL -1)
      message(FATAL_ERROR "tests/gtest_suites.cmake: the GoogleTest suite ${suite} of ${VKSIM_SUITES_EXE} "
                          "has the name of a suite of another test program; rename one of them")
    endif()
    list(APPEND VKSIM_SUITES_SEEN "${suite}")
    list(FIND skipped_suites "${suite}" skipped)
    if(skipped EQUAL -1)
      # The suite's own cases to leave out, as a negative filter.
      set(negative "")
      foreach(pattern IN LISTS skipped_cases)
        string(FIND "${pattern}" "${suite}." at)
        if(at EQUAL 0 AND negative)
          string(APPEND negative ":${pattern}")
        elseif(at EQUAL 0)
          set(negative "-${pattern}")
        endif()
      endforeach()
      add_test("${suite}" "${VKSIM_SUITES_EXE}" "--gtest_filter=${suite}.*${negative}")
      set_tests_properties("${suite}" PROPERTIES LABELS "${VKSIM_SUITES_LABEL}")
    endif()
  endif()
endforeach()
