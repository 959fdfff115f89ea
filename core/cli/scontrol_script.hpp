// scontrol_script.hpp - scontrol write batch_script: a batch job's script, as submitted, fetched
// from the controller (its owner or an administrator only).
#pragma once

#include <span>
#include <string>

namespace drover::cli {

// scontrol write batch_script JOBID [FILE]: writes the script to FILE (slurm-JOBID.sh when not
// given; "-" for standard output) and says "batch script for job N written to FILE" unless quiet.
// A refusal is "job script retrieval failed: <why>" on standard error, and no file is left.
int write_batch_script(std::span<const std::string> rest, bool quiet);

} // namespace drover::cli
