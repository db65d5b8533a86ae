# Every dependency is a Debian package (scripts/install_deps.sh installs them).
find_package(Vulkan REQUIRED)            # headers only: the loader is reached through volk
find_package(glfw3 3.3 REQUIRED)
find_package(glm REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(Threads REQUIRED)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)  # sparse Cholesky of the projective dynamics reference solver
find_package(tinyobjloader REQUIRED)      # Wavefront OBJ meshes (engine/io/obj_loader.h)

# volk ships as volk.h + volk.c in /usr/include (libvulkan-volk-dev); we compile
# volk.c ourselves so that every vk* call in the engine goes through volk's
# function pointers. An OBJECT library: its object file goes inside
# libvksim_core.a, so the installed library needs no separate volk archive.
find_path(VOLK_INCLUDE_DIR volk.h REQUIRED)
find_file(VOLK_SOURCE volk.c PATHS ${VOLK_INCLUDE_DIR} NO_DEFAULT_PATH REQUIRED)
add_library(volk OBJECT ${VOLK_SOURCE})
target_include_directories(volk PUBLIC ${VOLK_INCLUDE_DIR})
target_link_libraries(volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
target_compile_definitions(volk PUBLIC VK_NO_PROTOTYPES)
set_target_properties(volk PROPERTIES POSITION_INDEPENDENT_CODE ON)

find_program(GLSLC glslc REQUIRED)

# Dear ImGui (libimgui-dev): the core from the packaged library; its GLFW and
# Vulkan backends compiled here from the sources the package ships under
# /usr/share/doc, with VK_NO_PROTOTYPES, so the Vulkan backend calls through
# function pointers loaded from volk's (ImGui_ImplVulkan_LoadFunctions) rather
# than the loader's prototypes that the prebuilt backend in libimgui.a uses.
find_package(PkgConfig REQUIRED)
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
set(VKSIM_IMGUI_BACKEND_DIR /usr/share/doc/libimgui-dev/examples/backends)
find_file(VKSIM_IMGUI_VULKAN_SOURCE imgui_impl_vulkan.cpp PATHS ${VKSIM_IMGUI_BACKEND_DIR} NO_DEFAULT_PATH)
find_file(VKSIM_IMGUI_GLFW_SOURCE imgui_impl_glfw.cpp PATHS ${VKSIM_IMGUI_BACKEND_DIR} NO_DEFAULT_PATH)
if(NOT VKSIM_IMGUI_VULKAN_SOURCE OR NOT VKSIM_IMGUI_GLFW_SOURCE)
  message(FATAL_ERROR "libimgui-dev's backend sources are missing from ${VKSIM_IMGUI_BACKEND_DIR} "
                      "(a dpkg path-exclude on /usr/share/doc?); reinstall libimgui-dev with docs")
endif()
find_path(VKSIM_IMGUI_BACKEND_INCLUDE imgui_impl_vulkan.h PATH_SUFFIXES imgui/backends REQUIRED)
# OBJECT: the backends' objects go into vksim_app (the viewer's ImGui panels).
add_library(imgui_backends OBJECT ${VKSIM_IMGUI_VULKAN_SOURCE} ${VKSIM_IMGUI_GLFW_SOURCE})
target_include_directories(imgui_backends SYSTEM PUBLIC ${VKSIM_IMGUI_BACKEND_INCLUDE})
target_link_libraries(imgui_backends PUBLIC PkgConfig::IMGUI glfw Vulkan::Headers)
target_compile_definitions(imgui_backends PUBLIC VK_NO_PROTOTYPES)
