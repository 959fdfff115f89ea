// sprio_args.hpp - sprio's options as Slurm 23.11's sprio(1) takes them: which pending jobs (-j,
// -u, -p), which layout (-o, -l, -n, -w, -h), the order (-S), the cluster (-M), and what Slurm
// reports for a mistake in them.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cli/env_options.hpp"
#include "cli/options.hpp"

namespace drover::cli {

struct SprioArgs : CommonFlags {
    bool noheader = false, long_list = false, normalized = false, weights = false;
    bool helpformat = false;
    bool job_flag = false;                 // -j given, with or without a list
    std::optional<std::string> jobs;       // the -j list as written (a bare -j takes the next word)
    std::vector<uint32_t> job_ids;         // ... the job ids it names
    std::optional<std::string> users;      // -u as written; the last -u wins, as in Slurm
    std::optional<std::string> partitions; // -p as written; the last -p wins
    std::optional<std::string> format;     // -o, or SPRIO_FORMAT when neither -o nor -l is given
    std::optional<std::string> sort;       // -S
    std::optional<std::string> clusters;   // -M, or SLURM_CLUSTERS
    // --federation (--sibling) and --local; Default: the federation when slurm.conf says
    // FederationParameters=fed_display. sibling: each member's record of a job, not one.
    StatusView view = StatusView::Default;
    bool sibling = false;
    // Mistakes Slurm reports only after --help, --usage and --version had their turn:
    std::optional<std::string> fatal;        // "sprio: fatal: <this>" (-o with -l)
    std::optional<std::string> unrecognized; // an argument that is neither option nor -j's list
};

// Parses sprio's arguments (without argv[0]) after the variables of env the command line does not
// override (SPRIO_FORMAT, SLURM_CLUSTERS). Throws UsageError for an unknown option and
// drover::ParseError("Invalid job id: x") for a bad -j item.
SprioArgs parse_sprio_args(std::span<const std::string> args, const EnvVars &env = {});

// The -p list, split at commas.
std::vector<std::string> sprio_partitions(const SprioArgs &a);

// The -u list resolved: the uids of the users it names (names or numbers), and the items that
// name no user (Slurm reports each and goes on without it).
struct SprioUsers {
    std::vector<uint32_t> uids;
    std::vector<std::string> unknown;
};
SprioUsers resolve_sprio_users(std::string_view list);

// What -v prints before anything else (Slurm's list of the parameters given): the format, the -j
// flag and list, partitions, users, the verbosity; with -vv also each job id and uid asked for.
std::string sprio_options_text(const SprioArgs &a, const std::vector<uint32_t> &uids);

// -M: Drover reaches only its own cluster, so each name given must be it (any case) or "all".
// Otherwise Slurm's message for a cluster it cannot reach.
std::optional<std::string> sprio_cluster_error(std::string_view clusters,
                                               std::string_view local_cluster);

} // namespace drover::cli
