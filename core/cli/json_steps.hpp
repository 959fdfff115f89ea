// json_steps.hpp - sacct --json's steps, in the shape of Slurm's data_parser: each recorded step
// of a job (.batch, .extern, numbered srun steps) with its id, name, state, exit code, nodes,
// tasks, times and TRES (allocated, and the usage the step's record has once it ended); and the
// exit_code object that jobs and steps share.
#pragma once

#include <cstdint>

#include "common/json_writer.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// "exit_code": {"status": [...], "return_code": {...}, "signal": {...}} for a raw wait status.
void json_exit_code(JsonWriter &w, int32_t raw, bool active);

// "steps": [...], the job's recorded steps in sacct's order.
void json_acct_steps(JsonWriter &w, const proto::AcctJob &job, int64_t now);

} // namespace drover::cli
