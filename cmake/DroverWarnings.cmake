# DroverWarnings.cmake - the warning set every Drover target compiles with.
add_library(drover_warnings INTERFACE)
# Tables grow at their end and a missing tail reads as zero (the ABI rule), so initialisers that
# leave appended members out are intended.
target_compile_options(drover_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter
  -Wno-missing-field-initializers)
