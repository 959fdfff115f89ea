// step_update_args.hpp - scontrol update StepId=J[.S] TimeLimit=T: the words as Slurm's scontrol
// reads them. Every step of job J when no step is named.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace drover::cli {

struct StepUpdate {
    uint32_t job_id = 0;
    uint32_t step_id = 0xfffffffeu; // NO_VAL: every step of the job
    // Minutes (0xffffffff UNLIMITED); with a '+' or '-' sign, added to or taken from the step's
    // limit by the controller.
    uint32_t time_limit = 0;
    int sign = 0; // +1 "+T", -1 "-T", 0 absolute
};

// Throws ParseError with Slurm's words: "Invalid StepId ..." for a bad id, "Invalid TimeLimit
// value", "Update of this parameter is not supported: WORD" (a key other than these two), "No
// changes specified" (no TimeLimit).
StepUpdate parse_step_update(std::span<const std::string> words);

} // namespace drover::cli
