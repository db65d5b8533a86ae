# Warnings for vksim's own targets (not third-party sources).
function(vksim_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
    -Wno-missing-field-initializers)
endfunction()
