# One display mode: render it headless with validation (exit 3 on any
# message), then check the picture against the shaded one.
separate_arguments(ARGS)
execute_process(COMMAND ${VKSIM} ${SCENE} --headless --frames 8 --size 480x270 --validate --quiet ${ARGS}
                        --screenshot ${OUT}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vksim ${ARGS} exited with ${rc}")
endif()
execute_process(COMMAND ${CHECK} content ${OUT} ${REFERENCE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "pixel check failed for ${ARGS}")
endif()
