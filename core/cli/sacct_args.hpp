// sacct_args.hpp - sacct's options.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cli/job_states.hpp"

namespace drover::cli {

struct SacctArgs {
    bool allusers = false, allocations = false, brief = false, long_format = false;
    bool noheader = false, parsable = false, parsable2 = false, json = false;
    bool help = false, usage = false, version = false, helpformat = false;
    int verbose = 0;
    std::optional<std::string> delimiter;
    std::optional<std::string> format;            // -o (repeats are joined)
    std::vector<uint32_t> job_ids;                // -j ("12", "12.batch" -> 12; "12_3" -> 12)
    std::vector<std::pair<uint32_t, uint32_t>> tasks;  // -j "12_3": only that task of array 12
    std::optional<std::string> start, end;        // -S, -E as written
    JobStateFilter states;                        // -s
    std::vector<std::string> users, accounts, partitions, names;
    std::optional<std::string> nodelist;          // -N
    char units = 0;                               // --units: K, M, G, T or P (0: per figure)
};

// Throws UsageError for unknown options and drover::ParseError for bad values.
SacctArgs parse_sacct_args(std::span<const std::string> args);

}  // namespace drover::cli
