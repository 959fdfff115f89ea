// sacct_steps.hpp - sacct's step lines: step ids as Slurm writes them, their order under the job,
// the values of their fields, and the formats of usage figures.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/sacct_rows.hpp"

namespace drover::cli {

// A job's JobID as sacct shows it: "123", an array task "123_4", a heterogeneous job's component
// "123+1".
std::string sacct_job_id(const proto::AcctJob &job);

// "batch", "extern", or the step's number.
std::string sacct_step_name(uint32_t step_id);

// The job's recorded steps in Slurm's order: batch, extern, then numbered steps by id.
std::vector<const proto::AcctStep *> sacct_steps(const proto::AcctJob &job);

// A size in bytes as sacct prints it: "0"; else in the largest of K, M, G, T, P that keeps the
// figure exact or a half ("2048576K", "1.50M", "2G"), or, with units (one of KMGTP), in that unit
// with two decimals when not whole ("1.95M").
std::string sacct_size(uint64_t bytes, char units);

// A CPU time as sacct prints it: "D-HH:MM:SS" from a day, "HH:MM:SS" from an hour, "MM:SS.mmm"
// below that when there are milliseconds, else "00:MM:SS". whole_seconds drops the fraction first
// (AveCPU and MinCPU).
std::string sacct_cpu_time(uint64_t usec, bool whole_seconds = false);

// The value of a field on a recorded step's line.
std::string sacct_step_value(const SacctField &f, const proto::AcctJob &job,
                             const proto::AcctStep &step, int64_t now, char units);

// DerivedExitCode: the highest exit code (then signal) of the job's srun steps, as a wait status.
int32_t sacct_derived_exit(const proto::AcctJob &job);

// A usage field's value on the job's own line: blank, but for TotalCPU, UserCPU and SystemCPU,
// which add up the job's steps.
std::string sacct_job_usage(const SacctField &f, const proto::AcctJob &job);

} // namespace drover::cli
