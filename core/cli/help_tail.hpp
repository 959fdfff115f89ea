// help_tail.hpp - the end of sbatch's and srun's --help text (help, usage and version, in the
// same columns as their options), a literal so that it joins their constexpr help texts.
#pragma once

#define DROVER_HELP_TAIL                                                                           \
    "\n"                                                                                           \
    "Help options:\n"                                                                              \
    "  -h, --help                  show this help message\n"                                       \
    "      --usage                 display brief usage message\n"                                  \
    "\n"                                                                                           \
    "Other options:\n"                                                                             \
    "  -V, --version               output version information and exit\n"
