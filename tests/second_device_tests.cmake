# --- A second device: lavapipe at 128-bit vectors (LP_NATIVE_VECTOR_WIDTH=128),
# subgroups of 4 instead of 8, the shape of another device. What changes with
# the width: the cluster sweep cannot require full subgroups of 8 and ends its
# phases with the workgroup barrier; every workgroup runs as twice as many
# SIMD vectors, so shared-memory reductions and barriers interleave
# differently. The subset (docs/testing.md, "A second device") runs each
# solver against its reference and each kernel that shares memory across a
# workgroup once, at a fraction of the suite's time.
#
# MESA_SHADER_CACHE_DIR: Mesa 22.3's llvmpipe keys its on-disk shader cache
# without the vector width, so a run at 128 bits after one at the default
# width loads code compiled for 256-bit vectors; drawing the overlay with it
# corrupts the heap in lavapipe's queue thread (docs/testing.md, "Known
# driver issues"). These tests keep their own cache, filled at 128 bits only.
set(VKSIM_SUBGROUP4_ENV LP_NATIVE_VECTOR_WIDTH=128 MESA_SHADER_CACHE_DIR=${CMAKE_CURRENT_BINARY_DIR}/mesa_shader_cache_128bit)

set(VKSIM_SUBGROUP4_GTESTS
    # every solver family against its CPU reference (PBD on the path "auto"
    # takes, PD, mass-spring Verlet)
    SolverConformance/0.GpuMatchesTheCpuReference
    SolverConformance/1.GpuMatchesTheCpuReference
    SolverConformance/2.GpuMatchesTheCpuReference
    # the cluster sweep's workgroup-barrier variant, which the default width
    # never runs (there the sweep is one subgroup of 8)
    ClusterSolve.MatchesTheReferenceInClusterOrder
    # PD's Jacobi iterations in one workgroup (shared memory, barriers)
    PdJacobiWorkgroup.MatchesADispatchPerIterationBitForBit
    # the rigid solver's per-body reductions
    RigidBodies.GpuMatchesTheDoublePrecisionReference
    # shape matching's per-object sums (momentum kept by one projection)
    ShapeMatching.KeepsLinearAndAngularMomentum
    # the residual and energy reductions (reduce/sum_partials and the
    # per-solver partial sums)
    Interaction.PbdResidualPerIterationMatchesTheCpuReference
    Interaction.XpbdEnergyPerIterationMatchesTheCpuReference
    Interaction.PdResidualMatchesTheCpuOnReadBackState
    Interaction.PdEnergyPerIterationMatchesTheCpuOnReadBackIterates
    # the pick reductions (nearest particle, nearest body surface)
    Interaction.PickFindsTheParticleUnderTheRay
    BodyDragging.ARayPicksTheNearestBodySurface
    # the springs' line search (a workgroup reduction)
    SpringSolverTest.NewtonLowersTheGradient)
list(JOIN VKSIM_SUBGROUP4_GTESTS ":" VKSIM_SUBGROUP4_FILTER)

# Not labelled gpu_gtest: the sanitizer run (scripts/asan_tests.sh) repeats
# the gpu_gtest label, and these are the same tests at another width.
add_test(NAME gpu_subgroup_4 COMMAND vksim_gpu_tests --gtest_filter=${VKSIM_SUBGROUP4_FILTER})
set_tests_properties(gpu_subgroup_4 PROPERTIES ENVIRONMENT "${VKSIM_SUBGROUP4_ENV}" LABELS "gpu;subgroup_4"
                     TIMEOUT 600)

# In a window at 128 bits, with validation: the default scene's frame equals
# the one drawn at the default width (viewer_tests.cmake), and the overlay,
# the draw that aborted with a shared shader cache, shows.
if(VKSIM_XVFB)
  add_test(NAME viewer_screenshot_subgroup_4
           COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} --frames ${VKSIM_SHOT_FRAMES}
                   --no-overlay --validate --quiet --screenshot ${VKSIM_SHOTS}/windowed_subgroup_4.png)
  set_tests_properties(viewer_screenshot_subgroup_4 PROPERTIES ENVIRONMENT "${VKSIM_SUBGROUP4_ENV}"
                       LABELS "gpu;window;subgroup_4" TIMEOUT 120 FIXTURES_SETUP windowed_subgroup_4_shot)
  # The simulation gives the same bits at both widths (the same state-hash),
  # so the frames differ only where the fragment shading, compiled for
  # another vector width, rounds differently: 2 levels of 255, as between
  # the window and the offscreen target (measured: identical, byte for byte).
  add_test(NAME viewer_screenshot_subgroup_4_vs_default
           COMMAND vksim_png_check diff ${VKSIM_SHOTS}/windowed_subgroup_4.png ${VKSIM_SHOTS}/windowed.png 2)
  set_tests_properties(viewer_screenshot_subgroup_4_vs_default PROPERTIES LABELS "gpu;window;subgroup_4"
                       FIXTURES_REQUIRED "windowed_subgroup_4_shot;windowed_shot")

  add_test(NAME viewer_overlay_subgroup_4
           COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim> ${VKSIM_DEFAULT_SCENE} --frames ${VKSIM_SHOT_FRAMES} --validate
                   --quiet --screenshot ${VKSIM_SHOTS}/overlay_subgroup_4.png)
  set_tests_properties(viewer_overlay_subgroup_4 PROPERTIES ENVIRONMENT "${VKSIM_SUBGROUP4_ENV}"
                       LABELS "gpu;window;subgroup_4" TIMEOUT 120 FIXTURES_SETUP overlay_subgroup_4_shot)
  add_test(NAME viewer_overlay_subgroup_4_in_screenshot
           COMMAND vksim_png_check content ${VKSIM_SHOTS}/overlay_subgroup_4.png ${VKSIM_SHOTS}/windowed.png)
  set_tests_properties(viewer_overlay_subgroup_4_in_screenshot PROPERTIES LABELS "gpu;window;subgroup_4"
                       FIXTURES_REQUIRED "overlay_subgroup_4_shot;windowed_shot")

  # The resize/minimise sequence and the overlay's requests (the window
  # gtests, viewer_tests.cmake), but grabbing a body, whose pick reduction
  # BodyDragging runs above.
  add_test(NAME viewer_window_gtests_subgroup_4
           COMMAND ${VKSIM_XVFB} $<TARGET_FILE:vksim_window_tests>
                   --gtest_filter=-ViewerControls.ProvidersGrabABodyOrTheClothAboveIt)
  set_tests_properties(viewer_window_gtests_subgroup_4 PROPERTIES ENVIRONMENT "${VKSIM_SUBGROUP4_ENV}"
                       LABELS "gpu;window;subgroup_4" TIMEOUT 120)
endif()
