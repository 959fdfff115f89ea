// partition_keys.hpp - the settings of a partition by key: slurm.conf's PartitionName lines,
// scontrol create/update partition and the controller's partition records all go through
// set_partition_key, so a value means the same and is refused in the same words everywhere.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/config.hpp"

namespace drover {

// Sets one setting of part from key (as slurm.conf spells it, any case) and value: Nodes (only
// nodes_expr: the caller resolves the names), Default, State, MaxTime, DefaultTime, MaxNodes,
// MinNodes, AllowGroups, AllowAccounts, OverSubscribe (or Shared), QOS, PreemptMode,
// PriorityTier, PriorityJobFactor, Priority (both of those), and power saving's SuspendTime,
// SuspendTimeout, ResumeTimeout (seconds or GLOBAL; SuspendTime also INFINITE, NONE or -1) and
// PowerDownOnIdle. Returns false, part unchanged,
// for any other key (PartitionName included). Throws ParseError for a value it cannot take:
// "<loc>: bad value for KEY: 'VALUE' (expected ...)" or "<loc>: KEY: <why>".
bool set_partition_key(PartitionConf &part, const std::string &loc, std::string_view key,
                       const std::string &value);

// The key set_partition_key knows that a word of scontrol's partition commands names, Slurm's
// abbreviations included ("MaxT" is MaxTime, "Pa" PartitionName, "St" State), spelled as in
// slurm.conf; empty for a key Drover has no setting for (Hidden, LLN, MaxCPUsPerNode, ...).
std::string_view scontrol_partition_key(std::string_view word);

// Every setting of part as key/value pairs that set_partition_key reads back into the same
// settings, starting from a default PartitionConf (the name is not among them; Nodes is
// nodes_expr as it stands).
std::vector<std::pair<std::string, std::string>> partition_settings(const PartitionConf &part);

} // namespace drover
