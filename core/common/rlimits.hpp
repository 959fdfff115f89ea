// rlimits.hpp - PropagateResourceLimits and the submitting shell's umask, as Slurm carries them:
// sbatch and srun put the soft limits they run under in the job's environment as
// SLURM_RLIMIT_<NAME>=<value> (a "U" before the value when the user named the limit with
// --propagate) and their umask as SLURM_UMASK; each task applies them before it runs, no higher
// than the hard limits of the node daemon.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace drover {

struct Config;

// Slurm's names of the limits it propagates and their RLIMIT_* resources, in Slurm's order.
struct RlimitName {
    const char *name; // "CORE"
    int resource;     // RLIMIT_CORE
};
const std::vector<RlimitName> &rlimit_names();

// The limit names a list selects: "ALL", "NONE", or names separated by commas (any case), for
// PropagateResourceLimits(Except) and --propagate. Throws ParseError for an unknown name.
std::vector<std::string> parse_rlimit_list(std::string_view list);

// --propagate's value as given, once its names are known; throws ParseError "--propagate=V is not
// valid." as Slurm's commands say it.
std::string check_propagate(std::string_view value);

// The limits a command propagates: those --propagate names when given ("" is ALL), else
// slurm.conf's PropagateResourceLimits (default ALL) less PropagateResourceLimitsExcept (values as
// written; empty: not set). Throws ParseError for an unknown name.
struct PropagatedLimits {
    std::vector<std::string> names;
    bool user = false; // named by --propagate
};
PropagatedLimits propagated_limits(const std::optional<std::string> &option,
                                   const std::string &conf_list, const std::string &conf_except);
// The same with slurm.conf's keys from conf.
PropagatedLimits propagated_limits(const std::optional<std::string> &option, const Config &conf);

// Puts in env (replacing those there) the variables for the job's environment:
// SLURM_RLIMIT_<NAME> with this process's soft limit for each propagated limit, and SLURM_UMASK
// with its umask ("0022").
void put_limit_variables(std::vector<std::pair<std::string, std::string>> &env,
                         const PropagatedLimits &limits);

// In a task's process before it runs: applies SLURM_UMASK and each SLURM_RLIMIT_* of env as the
// soft limit, no higher than the hard one. Returns what to say on the task's standard error
// (one line for each limit the user named that could not be applied in full), or "".
std::string apply_limit_variables(const std::vector<std::string> &env);

} // namespace drover
