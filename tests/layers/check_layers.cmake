# cmake -DENGINE_DIR=<engine/> -DLAYERS="geometry;io;..." -P check_layers.cmake
#
# The engine's folders are layers, bottom to top (engine/CMakeLists.txt,
# docs/architecture.md "Layers"). Fails, naming each file and include, when:
# - a folder includes a folder above it, or a folder that is not a layer;
# - one solver includes another (engine/solvers/<a>/ including
#   solvers/<b>/): a solver is a unit, and what two solvers share lives in
#   solvers/ itself or in a layer below;
# - a solver's settings header (solvers/<name>/<name>_settings.h, or any
#   solvers/<name>/*_settings.h) includes a file of the engine: it is plain
#   data that the scene holds (scene/scene.h), so every layer may include it,
#   and it may include only the standard library, glm and shaders/.
# A quoted include is a path under engine/ ("world/world.h"), under the
# shader include root ("shaders/shared/sim_types.h"), or a file next to the
# includer. Prints each layer's file and line count on success.
if(NOT ENGINE_DIR OR NOT LAYERS)
  message(FATAL_ERROR "check_layers.cmake: pass -DENGINE_DIR and -DLAYERS")
endif()

set(problems "")
set(summary "")
set(rank 0)
foreach(layer IN LISTS LAYERS)
  set(rank_${layer} ${rank})
  math(EXPR rank "${rank} + 1")
endforeach()
set(rank_main ${rank})  # engine/main.cpp, above every layer

file(GLOB_RECURSE files RELATIVE ${ENGINE_DIR} ${ENGINE_DIR}/*.h ${ENGINE_DIR}/*.cpp)
list(SORT files)
foreach(file IN LISTS files)
  string(REGEX MATCH "^[^/]+" layer "${file}")
  if(file STREQUAL "main.cpp")
    set(layer main)
  elseif(NOT DEFINED rank_${layer})
    string(APPEND problems "engine/${file}: folder '${layer}' is not a layer (engine/CMakeLists.txt)\n")
    continue()
  endif()
  set(solver "")
  if(file MATCHES "^solvers/([^/]+)/")
    set(solver ${CMAKE_MATCH_1})
  endif()
  get_filename_component(dir ${file} DIRECTORY)
  set(settings_header FALSE)
  if(file MATCHES "^solvers/[^/]+/[^/]+_settings\\.h$")
    set(settings_header TRUE)
  endif()

  file(STRINGS ${ENGINE_DIR}/${file} lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  file(READ ${ENGINE_DIR}/${file} text)
  string(REGEX MATCHALL "\n" newlines "${text}")
  list(LENGTH newlines line_count)
  math(EXPR lines_${layer} "${lines_${layer}} + ${line_count}")
  math(EXPR files_${layer} "${files_${layer}} + 1")

  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" included "${line}")
    if(included MATCHES "^shaders/")
      continue()
    endif()
    if(settings_header)
      string(APPEND problems
             "engine/${file}: includes \"${included}\": a settings header includes no file of the engine\n")
      continue()
    endif()
    if(NOT included MATCHES "/")
      if(NOT EXISTS ${ENGINE_DIR}/${dir}/${included})
        string(APPEND problems "engine/${file}: \"${included}\" is neither next to it nor under a layer\n")
      endif()
      continue()
    endif()
    string(REGEX MATCH "^[^/]+" target "${included}")
    if(NOT DEFINED rank_${target} OR NOT EXISTS ${ENGINE_DIR}/${included})
      string(APPEND problems "engine/${file}: \"${included}\" is not a file of a layer\n")
    elseif(rank_${target} GREATER rank_${layer} AND NOT included MATCHES "^solvers/[^/]+/[^/]+_settings\\.h$")
      string(APPEND problems "engine/${file}: includes \"${included}\": ${target}/ is above ${layer}/\n")
    elseif(solver AND included MATCHES "^solvers/([^/]+)/" AND NOT CMAKE_MATCH_1 STREQUAL solver)
      string(APPEND problems "engine/${file}: includes \"${included}\": one solver includes another\n")
    endif()
  endforeach()
endforeach()

if(problems)
  message(FATAL_ERROR "engine layers: includes against the order ${LAYERS}:\n${problems}")
endif()
foreach(layer IN LISTS LAYERS)
  string(APPEND summary "  ${layer}/: ${files_${layer}} files, ${lines_${layer}} lines\n")
endforeach()
message(STATUS "engine layers, bottom to top; no folder includes one above it, no solver another:\n${summary}")
