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
# volk.c ourselves into a small static library so that every vk* call in the
# engine goes through volk's function pointers.
find_path(VOLK_INCLUDE_DIR volk.h REQUIRED)
find_file(VOLK_SOURCE volk.c PATHS ${VOLK_INCLUDE_DIR} NO_DEFAULT_PATH REQUIRED)
add_library(volk STATIC ${VOLK_SOURCE})
target_include_directories(volk PUBLIC ${VOLK_INCLUDE_DIR})
target_link_libraries(volk PUBLIC Vulkan::Headers ${CMAKE_DL_LIBS})
target_compile_definitions(volk PUBLIC VK_NO_PROTOTYPES)
set_target_properties(volk PROPERTIES POSITION_INDEPENDENT_CODE ON)

find_program(GLSLC glslc REQUIRED)
