// scancel_args.hpp - scancel's options, job ids and signal names.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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
    bool batch = false, full = false, quiet = false;
    bool has_filter() const { return user || me || name || partition || !states.empty(); }
};

// Job ids may be separated by spaces or commas (a comma inside "12_[1,3]" belongs to the
// spec). Throws UsageError for unknown options; drover::ParseError for "Invalid job id abc",
// "Invalid job signal: FOO", "Invalid job state specified: X".
ScancelArgs parse_scancel_args(std::span<const std::string> args);

// "KILL", "SIGKILL", "9", "usr1" -> signal number; nullopt when unknown.
std::optional<int> parse_signal(std::string_view s);

} // namespace drover::cli
