// sacct_args.hpp - sacct's options.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/env_options.hpp"
#include "cli/job_states.hpp"
#include "cli/options.hpp"
#include "cli/sacct_select.hpp"
#include "common/error.hpp"

namespace drover::cli {

struct SacctArgs : CommonFlags {
    bool allusers = false, allocations = false, brief = false, long_format = false;
    bool noheader = false, parsable = false, parsable2 = false, json = false, yaml = false;
    bool helpformat = false;
    std::optional<std::string> delimiter;
    std::optional<std::string> format;     // -o (repeats are joined)
    std::vector<SacctSel> jobs;            // -j items ("12", "12.batch", "12_3", "12_3.0")
    std::vector<uint32_t> job_ids;         // the job ids they name, for the store
    std::optional<std::string> start, end; // -S, -E as written
    JobStateFilter states;                 // -s
    std::vector<std::string> users, accounts, partitions, names;
    std::optional<std::string> nodelist;   // -N
    char units = 0;                        // --units: K, M, G, T or P (0: per figure)
    bool duplicates = false;               // -D: earlier runs of requeued jobs too
    StatusView view = StatusView::Default; // --federation, --local (the clusters -M does not name)
    std::vector<std::string> clusters;     // -M (empty: the controller's own cluster)
    bool all_clusters = false;             // -L, -M all
    std::optional<std::string> fatal;      // set instead of throwing SacctFatal (sacct.cpp)
};

// A mistake Slurm reports as fatal ("sacct: fatal: Bad job/step specified: x").
class SacctFatal : public ParseError {
  public:
    using ParseError::ParseError;
};

// Parses sacct's arguments; SACCT_FORMAT in env is the field list when none of -o, -b, -l and
// -c is given (sacct(1), ENVIRONMENT VARIABLES). Throws UsageError for unknown options,
// SacctFatal for what Slurm finds fatal and drover::ParseError for other bad values.
SacctArgs parse_sacct_args(std::span<const std::string> args, const EnvVars &env = {});

} // namespace drover::cli
