// scontrol_args.hpp - scontrol's options, its command words, and "update" key=value parsing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cli/job_ids.hpp"
#include "cli/options.hpp"

namespace drover::cli {

struct ScontrolArgs : CommonFlags {
    bool one_liner = false, details = false, json = false, yaml = false, quiet = false;
    bool all = false;
    bool future = false;            // -F: show node lists FUTURE nodes too
    std::vector<std::string> words; // the command and its arguments
};

// Throws UsageError for an unknown option.
ScontrolArgs parse_scontrol_args(std::span<const std::string> args);

enum class ScontrolCmd {
    show,
    update,
    hold,
    uhold,
    release,
    requeue,
    requeuehold,
    top,
    reconfigure,
    ping,
    version,
    shutdown,
    takeover,
    help,
    quit,
    write // write batch_script
};

// A command word, abbreviated or not ("sh" for show, "reconfig"); nullopt when unknown or
// ambiguous.
std::optional<ScontrolCmd> match_scontrol_command(std::string_view word);

enum class ShowWhat {
    job,
    node,
    partition,
    config,
    step,
    licenses,
    hostnames,
    hostlist,
    hostlistsorted
};
// "job"/"jobs", "node"/"nodes", "partition"/"partitions", "config"/"configuration" (prefixes
// accepted); nullopt when unknown.
std::optional<ShowWhat> match_show_entity(std::string_view word);

struct JobUpdate {
    std::vector<JobSpec> jobs;                               // JobId=5,6_3,7_[1-2]
    std::vector<std::pair<std::string, std::string>> fields; // canonical key, value
};

struct NodeUpdate {
    std::string names; // hostlist expression
    std::string state; // upper-case: DRAIN, RESUME, DOWN, UNDRAIN, IDLE
    std::string reason;
};

// Which entity an update names: "JobId=" or "NodeName=" among its words.
enum class UpdateWhat { job, node, unknown };
UpdateWhat update_target(std::span<const std::string> words);

// Parses "JobId=5[,6_3] TimeLimit=10 Name=x ..." (keys in any case): TimeLimit, Name (JobName),
// Partition, Priority, NumNodes, Comment, Dependency, Features, StartTime, Nice (alone: 100),
// Requeue. Throws drover::ParseError with Slurm's words: "Update of this parameter is not
// supported: Foo=1", "Invalid job id specified: x", "Invalid TimeLimit value: x".
JobUpdate parse_job_update(std::span<const std::string> words, int64_t now = 0);

// Parses "NodeName=n[1-2] State=DRAIN Reason=x". Throws drover::ParseError, including
// "You must specify a reason when DOWNING or DRAINING a node. Request denied".
NodeUpdate parse_node_update(std::span<const std::string> words);

// Parses the jobs of hold/uhold/release/requeue/top ("5 6,7 8_2 JobId=9_[1-3]"). Throws
// drover::ParseError("Invalid job id specified: x").
std::vector<JobSpec> parse_hold_ids(std::span<const std::string> words);

// One request per job or array task a spec names: {job id, ""} for a job or a whole array,
// {job id, "12_3"} for each task of "12_[3-4]". Throws drover::ParseError("Invalid job id
// specified: x") for a task list over 100000 tasks.
std::vector<std::pair<uint32_t, std::string>> update_targets(const std::vector<JobSpec> &jobs);

} // namespace drover::cli
