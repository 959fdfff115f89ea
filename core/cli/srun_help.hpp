// srun_help.hpp - what srun --help and salloc --help print: the options srun's table parses
// (salloc reads the same table), one line each, grouped as Slurm's help groups them.
#pragma once

#include <string>
#include <string_view>

namespace drover::cli {

// prog: "srun" or "salloc" (its usage line differs: salloc runs a command, srun an executable).
std::string srun_help_text(std::string_view prog);

} // namespace drover::cli
