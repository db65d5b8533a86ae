# `cmake --install build --prefix P` installs vksim as a CMake package:
#   P/lib/libvksim_core.a           the engine library (the layers of
#                                   VKSIM_ENGINE_LAYERS), with volk and the
#                                   SPIR-V shader table archived inside it
#   P/include/vksim/...             those layers' headers, and the shaders' .h
#                                   and .glsl files under P/include/vksim/shaders/
#                                   (C++ includes "shaders/shared/sim_types.h")
#   P/lib/cmake/vksim/              vksimConfig.cmake, its version file and the
#                                   exported target vksim::vksim
# so that an application does find_package(vksim) and links vksim::vksim.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(VKSIM_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/vksim)
set(VKSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/vksim)

# What the in-tree OBJECT libraries give vksim_core's users in the build tree,
# restated for an installed copy: volk's headers want VK_NO_PROTOTYPES and the
# Vulkan headers, volk.c wants libdl. The app layers (viewer, ImGui panels,
# command line, bench) are not installed.
target_include_directories(vksim_core PUBLIC $<INSTALL_INTERFACE:${VKSIM_INSTALL_INCLUDEDIR}>)
target_compile_definitions(vksim_core PUBLIC $<INSTALL_INTERFACE:VK_NO_PROTOTYPES>)
target_link_libraries(vksim_core PUBLIC $<INSTALL_INTERFACE:Vulkan::Headers>
                      $<INSTALL_INTERFACE:${CMAKE_DL_LIBS}>)
set_target_properties(vksim_core PROPERTIES EXPORT_NAME vksim)

install(TARGETS vksim_core EXPORT vksimTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${VKSIM_INSTALL_INCLUDEDIR})
foreach(layer IN LISTS VKSIM_ENGINE_LAYERS)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/${layer} DESTINATION ${VKSIM_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")
endforeach()
# The shaders' headers and GLSL functions: the structs C++ and GLSL share
# (shaders/shared/*.h, shaders/<solver>/*_types.h), and the GLSL math geometry/shared_math.h compiles as C++.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/shaders/ DESTINATION ${VKSIM_INSTALL_INCLUDEDIR}/shaders
        FILES_MATCHING PATTERN "*.h" PATTERN "*.glsl")
install(EXPORT vksimTargets NAMESPACE vksim:: DESTINATION ${VKSIM_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/vksimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/vksimConfig.cmake
                              INSTALL_DESTINATION ${VKSIM_INSTALL_CMAKEDIR})
# 0.x: a new minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/vksimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/vksimConfig.cmake ${PROJECT_BINARY_DIR}/vksimConfigVersion.cmake
        DESTINATION ${VKSIM_INSTALL_CMAKEDIR})
