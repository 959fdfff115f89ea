// batch_banner.hpp - the line a batch job's stderr gets when the job is terminated, as Slurm's
// step daemon writes it: "slurmstepd: error: *** JOB 12 ON n1 CANCELLED AT 2026-12-02T03:40:00
// DUE TO TIME LIMIT ***". Tools read it: a last line that says DUE TO PREEMPTION tells a workflow
// manager to submit the job again rather than report it failed.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "noded/privileges.hpp"
#include "proto/job_generated.h"

namespace drover::noded {

// The line (with its newline) for a termination of that cause at now; "" for KillCause::None
// (an end the job's owner did not ask about: a cleanup of a job the controller no longer has).
std::string termination_line(uint32_t job_id, const std::string &node, proto::KillCause cause,
                             int64_t now);

// Appends line to the file at path as who, in a child that drops to them first: the path is the
// user's to name, and root must not write where they could not. Nothing is created. Returns the
// child's pid for the caller to reap, or -1 when it could not fork.
pid_t append_as(const RunAs &who, const std::string &path, const std::string &line);

} // namespace drover::noded
