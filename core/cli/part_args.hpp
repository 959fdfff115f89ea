// part_args.hpp - the words of scontrol create/update partition, turned into the key/value pairs
// the controller reads. Keys are checked here, in the words of Slurm's scontrol; values by the
// controller, with slurm.conf's own reading of them (common/partition_keys.hpp).
#pragma once

#include <span>
#include <string>
#include <utility>
#include <vector>

namespace drover::cli {

using PartFields = std::vector<std::pair<std::string, std::string>>;

// update's words, "PartitionName=NAME KEY=VALUE...": each key as slurm.conf spells it, Slurm's
// abbreviations read ("MaxT=" is MaxTime, "Shared=" OverSubscribe), values as given. Throws
// drover::ParseError in Slurm's words: "Invalid input: WORD  Request aborted" (no '='), "Update
// of this parameter is not supported: WORD\nRequest aborted" (a key Drover has no setting for),
// "PartitionName must be given.", "No changes specified".
PartFields parse_part_update(std::span<const std::string> words);

// create's words: as update's, after a first bare word that names the entity ("create partition
// PartitionName=x"); refused with "PartitionName must be given." or "PartitionName cannot be
// \"DEFAULT\"."; the name alone is enough (every setting takes its default).
PartFields parse_part_create(std::span<const std::string> words);

} // namespace drover::cli
