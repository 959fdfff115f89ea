// squeue_args.hpp - squeue's options, and the filter they make.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/env_options.hpp"
#include "cli/job_ids.hpp"
#include "cli/job_states.hpp"
#include "cli/options.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

struct SqueueArgs : CommonFlags {
    // --federation (or --sibling) and --local; Default: the federation when slurm.conf says
    // FederationParameters=fed_display and no -M is given.
    StatusView view = StatusView::Default;
    bool noheader = false, long_format = false, json = false, yaml = false, steps = false;
    bool me = false, start = false;
    bool sibling = false; // --sibling: each member's copy of a federated job, revoked ones too
    int iterate = 0;      // seconds; 0 = once
    std::optional<std::string> format;   // -o
    std::optional<std::string> long_fmt; // -O
    std::optional<std::string> sort;     // -S
    std::vector<std::string> step_ids;   // -s/--steps=list: "12.0,13.batch"
    std::vector<uint32_t> job_ids;       // -j (and a list after a bare -j): the job ids named
    std::vector<JobSpec> job_specs;      // ... as written: "12", "12_3", "12_[1-4]"
    bool jobs_given = false;
    bool array = false;             // -r: one line per waiting array task
    std::vector<std::string> users; // -u, names or uids as given
    std::vector<std::string> partitions, names, accounts;
    std::vector<std::string> qos, reservations, licenses; // -q, -R, -L
    std::optional<std::string> nodelist;                  // -w
    JobStateFilter states;                                // -t
};

// Parses squeue's arguments (without argv[0]), after the SQUEUE_* variables of env that the
// command line does not override (squeue(1), ENVIRONMENT VARIABLES). Throws UsageError for
// unknown options, and drover::ParseError ("Invalid job id: x" for a bad -j item such as "12_x",
// "Invalid job state specified: x") for bad values.
SqueueArgs parse_squeue_args(std::span<const std::string> args, const EnvVars &env = {});

// Which jobs squeue shows.
struct SqueueFilter {
    JobStateFilter states;
    std::vector<JobSpec> job_specs; // empty: any job
    std::vector<uint32_t> uids;
    std::vector<std::string> partitions, names, accounts, qos;
    // -R: jobs in any of these reservations.
    std::vector<std::string> reservations;
    // -L: jobs that ask for any of these licenses.
    std::vector<std::string> licenses;
    std::vector<std::string> nodes; // expanded -w list
    bool keep(const proto::JobInfo &job) const;
    bool asks_license(std::string_view job_licenses) const;
    bool keep_user(uint32_t uid) const {
        return uids.empty() || std::find(uids.begin(), uids.end(), uid) != uids.end();
    }
    bool keep_partition(const flatbuffers::String *p) const {
        return partitions.empty() ||
               (p && std::find(partitions.begin(), partitions.end(), p->str()) != partitions.end());
    }
};

// Builds the filter: users resolved to uids (my_uid for --me). Throws drover::ParseError
// ("Invalid user: x") for an unknown user, or for a malformed -w hostlist.
SqueueFilter make_squeue_filter(const SqueueArgs &a, uint32_t my_uid);

} // namespace drover::cli
