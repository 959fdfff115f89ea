// scancel_args.hpp - scancel's options, job ids and signal names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/env_options.hpp"
#include "cli/job_ids.hpp"
#include "cli/options.hpp"

namespace drover::cli {

struct ScancelArgs : CommonFlags {
    std::vector<JobSpec> jobs;       // "12", "12_3", "12_[1-4]", as written
    std::optional<std::string> user; // -u, name or uid
    bool me = false;
    std::optional<std::string> name;      // -n
    std::optional<std::string> partition; // -p
    std::vector<uint32_t> states;         // -t: PENDING, RUNNING, SUSPENDED
    std::optional<int> signal;            // -s; nullopt = cancel
    // -A and -q (lowercased, as Slurm's scancel takes them), -R, -w.
    std::optional<std::string> account, qos, reservation, nodelist;
    bool batch = false, full = false, quiet = false;
    bool interactive = false;           // -i: ask before each job
    std::optional<std::string> sibling; // --sibling=CLUSTER: that member's copy of each job only
    bool has_filter() const {
        return user || me || name || partition || !states.empty() || account || qos ||
               reservation || nodelist;
    }
    // Whether scancel must load the jobs and choose them itself (the controller's signal request
    // filters only by user, name, partition and state): for -A, -q, -R, -w and -i, and with -v
    // to say when no job passes the filters.
    bool selects_jobs() const {
        return account || qos || reservation || nodelist || interactive ||
               (verbose > 0 && has_filter());
    }
};

// Job ids may be separated by spaces or commas (a comma inside "12_[1,3]" belongs to the
// spec). The SCANCEL_* variables of env stand for options the command line does not give
// (scancel(1), ENVIRONMENT VARIABLES). Throws UsageError for unknown options;
// drover::ParseError for "Invalid job id abc", "Invalid job signal: FOO", "Invalid job state
// specified: X", "Unrecognized SCANCEL_BATCH value: x" (and the other true/false variables),
// "Unrecognized SCANCEL_STATE value: X".
ScancelArgs parse_scancel_args(std::span<const std::string> args, const EnvVars &env = {});

// "KILL", "SIGKILL", "9", "usr1" -> signal number; nullopt when unknown.
std::optional<int> parse_signal(std::string_view s);

} // namespace drover::cli
