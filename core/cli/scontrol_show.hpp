// scontrol_show.hpp - scontrol's key=value records for jobs, nodes, partitions and the config.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "proto/message_generated.h"

namespace drover::cli {

// One record: continuation lines start with three spaces and the record ends with a blank line;
// with one_liner every key=value is on one line, ending in a single newline. details (-d) adds
// DerivedExitCode and, for a job holding resources, what it holds on each node
// ("  Nodes=n1 CPU_IDs=0-1 Mem=1024 GRES=gpu:2(IDX:0-1)").
// task: the one task of a pending array record that was asked for (scontrol show job A_N),
// shown as its ArrayTaskId as Slurm shows it, rather than the record's whole range.
std::string show_job(const proto::JobInfo &job, int64_t now, bool one_liner, bool details = false,
                     std::optional<uint32_t> task = std::nullopt);

// A node's GRES as the select plugin lists the indexes it holds ("gpu:0-1,nic:0") in Slurm's
// -d form ("gpu:2(IDX:0-1),nic:1(IDX:0)").
std::string gres_with_indexes(std::string_view held);
std::string show_node(const proto::NodeInfo &node, bool one_liner);
std::string show_partition(const proto::PartitionInfo &part, bool one_liner);

// One step: StepId=, UserId=, StartTime=, TimeLimit=, State=, Partition=, NodeList=, Nodes=,
// CPUs=, Tasks=, Name=, TRES=, SrunHost=.
std::string show_step(const proto::StepInfo &step, bool one_liner);

// "Configuration data as of <time>" then "Key = value" lines, keys padded to 23.
std::string show_config(const proto::ConfigResponse &conf, int64_t now);

// Minutes as scontrol prints a limit: "UNLIMITED", "00:30:00", "1-00:00:00".
std::string minutes_hms(uint32_t minutes);

} // namespace drover::cli
