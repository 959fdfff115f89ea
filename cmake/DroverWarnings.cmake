# DroverWarnings.cmake - the warning set every Drover target compiles with, -Werror when
# DROVER_WERROR is on (CI builds with it), and the sanitizer build (DROVER_SANITIZE).
option(DROVER_WERROR "Treat compiler warnings as errors" OFF)
set(DROVER_SANITIZE "" CACHE STRING
  "Sanitizers for every target, e.g. address,undefined (empty: none)")

add_library(drover_warnings INTERFACE)
# Tables grow at their end and a missing tail reads as zero (the ABI rule), so initialisers that
# leave appended members out are intended.
target_compile_options(drover_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter
  -Wno-missing-field-initializers)
if(DROVER_WERROR)
  target_compile_options(drover_warnings INTERFACE -Werror)
endif()

if(DROVER_SANITIZE)
  # Every object, plugins and tests included, so a plugin loaded by a sanitized daemon is too.
  add_compile_options(-fsanitize=${DROVER_SANITIZE} -fno-omit-frame-pointer
    -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=${DROVER_SANITIZE})
endif()
