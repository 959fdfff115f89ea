# DroverWarnings.cmake - the warning set every Drover target compiles with.
add_library(drover_warnings INTERFACE)
target_compile_options(drover_warnings INTERFACE -Wall -Wextra -Wno-unused-parameter)
