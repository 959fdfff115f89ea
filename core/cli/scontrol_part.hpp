// scontrol_part.hpp - scontrol's partition commands: create, update and delete. Each prints what
// Slurm's scontrol prints (nothing when done) and returns the exit status.
#pragma once

#include <span>
#include <string>

namespace drover::cli {

// create [partition] PartitionName=NAME KEY=VALUE...; refused, "Error creating the partition:
// <why>". words: what follows "create".
int create_partition(std::span<const std::string> words);

// update PartitionName=NAME KEY=VALUE...; refused, "slurm_update error: <why>".
int update_partition(std::span<const std::string> words);

// delete PartitionName=NAME (or "partition NAME"); refused, "delete_partition <first word>:
// <why>". words: what follows "delete".
int delete_partition(std::span<const std::string> words);

} // namespace drover::cli
