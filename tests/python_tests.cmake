# The Python module's pytest suite (python/tests, docs/python.md), run with
# the system Python the module is built for. VKSIM_EXECUTABLE lets it check
# the module's state-hash against the command line's.
if(TARGET vksim_python)
  add_test(NAME python_module
           COMMAND ${Python3_EXECUTABLE} -m pytest -q -p no:cacheprovider ${PROJECT_SOURCE_DIR}/python/tests)
  set(environment PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=${VKSIM_PYTHON_MODULE_DIR}
                  VKSIM_EXECUTABLE=$<TARGET_FILE:vksim> VKSIM_SCENES=${PROJECT_SOURCE_DIR}/scenes)
  set_tests_properties(python_module PROPERTIES TIMEOUT 600 LABELS gpu ENVIRONMENT "${environment}")
endif()
