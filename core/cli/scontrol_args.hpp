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
    suspend, // suspend and resume (operators and administrators)
    resume,
    listpids, // the processes of this node's steps
    reboot,   // reboot_nodes, and cancel_reboot
    cancel_reboot,
    reconfigure,
    ping,
    version,
    shutdown,
    takeover,
    help,
    quit,
    write,  // write batch_script
    create, // create reservation or partition
    remove, // delete (a reservation or a partition)
    token   // a JSON Web Token (AuthAltTypes=auth/jwt)
};

// A command word, abbreviated or not ("sh" for show, "reconfig"); nullopt when unknown or
// ambiguous.
std::optional<ScontrolCmd> match_scontrol_command(std::string_view word);

enum class ShowWhat {
    job,
    federation,
    node,
    partition,
    config,
    step,
    licenses,
    hostnames,
    hostlist,
    hostlistsorted,
    reservation
};
// "job"/"jobs", "node"/"nodes", "partition"/"partitions", "config"/"configuration",
// "reservation"/"reservationname" (prefixes accepted); nullopt when unknown.
std::optional<ShowWhat> match_show_entity(std::string_view word);

struct JobUpdate {
    std::vector<JobSpec> jobs;                               // JobId=5,6_3,7_[1-2]
    std::vector<std::pair<std::string, std::string>> fields; // canonical key, value
};

struct NodeUpdate {
    std::string names; // hostlist expression
    std::string state; // upper-case: DRAIN, RESUME, DOWN, UNDRAIN, IDLE
    std::string reason;
    std::string addr, hostname; // NodeAddr=, NodeHostname=
};

// Which entity an update names, as Slurm's scontrol decides it: a "JobId=" anywhere makes it a
// job's, else a "ReservationName=" (at least "Res=") a reservation's, else "NodeName=" a node's,
// else "PartitionName=" (at least "Par=") a partition's.
// else SuspendExcNodes, SuspendExcParts or SuspendExcStates (with =, += or -=) the controller's
// power saving exclusions.
enum class UpdateWhat { job, step, reservation, node, partition, power, unknown };
UpdateWhat update_target(std::span<const std::string> words);

// scontrol update SuspendExc*[=|+=|-=]LIST: each word as the controller takes it. Throws
// ParseError for a word that is not one of the three keys.
struct ConfigChange {
    std::string key; // SuspendExcNodes, SuspendExcParts, SuspendExcStates
    std::string op;  // "=", "+=", "-="
    std::string value;
};
std::vector<ConfigChange> parse_power_update(std::span<const std::string> words);

// What a create line makes, as Slurm's scontrol decides it: the first word that names NodeName,
// PartitionName or ReservationName (at least three letters, as "Key=..." or a bare word).
enum class CreateWhat { node, partition, reservation, unknown };
CreateWhat create_target(std::span<const std::string> words);

// delete's arguments, "ENTITY=NAME" or the two words "ENTITY NAME": NAME when ENTITY names entity
// (at least three letters of it, any case), nullopt when it names another. Throws
// drover::ParseError("Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'") for any
// other count or form.
std::optional<std::string> delete_target(std::span<const std::string> words,
                                         std::string_view entity);

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

// The words scontrol reads as its commands, in full (bash completion offers them).
std::vector<std::string_view> scontrol_words();

} // namespace drover::cli
