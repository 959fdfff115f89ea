// step_launch.hpp - srun's part of a job step: create, launch, I/O, exit code.
#pragma once

#include <cstdint>
#include <string>

#include "cli/srun_opts.hpp"

namespace drover::cli {

// Runs one step of r in job job_id and returns srun's exit status: the highest task exit code
// (128+signal for a task a signal ended), 152 when the step reached its time limit, 137 when its
// tasks were killed for exceeding their memory, 1 when it could not start.
int run_step(const SrunRequest &r, uint32_t job_id, const std::string &prog);

} // namespace drover::cli
