// step_limits.hpp - what every step on a node shares, the batch script's ("batch" step) included:
// its proctrack container, made around its first process before that runs, with the memory and
// CPUs the job grants the step on this node; and its end when the kernel killed processes of it
// for memory (OUT_OF_MEMORY, as Slurm ends it).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

#include "plugin/plugin_set.hpp"

namespace drover::noded {

struct StepLimits {
    uint64_t mem_mb = 0; // 0: none
    std::string cpus;    // "0-1,4"; empty: any
};

// Puts pid in a new container for (job, step) and applies the limits. Returns an empty string,
// or why no container could be made (pid is not tracked then). A limit the plugin refuses is
// logged against label ("7.batch", "7.0") and the step runs without it.
std::string contain_step(const plugin::Bound<drover_proctrack_ops> &pt, uint32_t job, uint32_t step,
                         pid_t pid, const StepLimits &limits, const std::string &label,
                         drover_cont_id *cont);

// The line slurmstepd writes to the step's error output (srun's, or the batch script's file)
// when the kernel killed processes of the step for memory.
std::string oom_message(uint32_t oom_kills, const std::string &label);

// Appends line (and a newline) to the file at path as uid/gid (the job's user, never root: the
// path is the user's to choose), creating nothing. Returns an empty string or why not.
std::string append_as_user(const std::string &path, uint32_t uid, uint32_t gid,
                           const std::string &user, const std::string &line);

} // namespace drover::noded
