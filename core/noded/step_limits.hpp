// step_limits.hpp - a step's end when the kernel killed processes of it for memory
// (OUT_OF_MEMORY, as Slurm ends it), the batch script's ("batch" step) included: the line its
// error output gets. (Its container and limits are container.hpp's.)
#pragma once

#include <cstdint>
#include <string>

#include "common/status.hpp"

namespace drover::noded {

// The line slurmstepd writes to the step's error output (srun's, or the batch script's file)
// when the kernel killed processes of the step for memory.
std::string oom_message(uint32_t oom_kills, const std::string &label);

// Appends line (and a newline) to the file at path as uid/gid (the job's user, never root: the
// path is the user's to choose), creating nothing. Success, or why not (DROVER_EIO).
Status append_as_user(const std::string &path, uint32_t uid, uint32_t gid, const std::string &user,
                      const std::string &line);

} // namespace drover::noded
