// scontrol_step.hpp - scontrol update StepId=J[.S] TimeLimit=T: prints nothing when done, Slurm's
// words when refused; returns the exit status.
#pragma once

#include <span>
#include <string>

namespace drover::cli {

int update_step(std::span<const std::string> words);

} // namespace drover::cli
