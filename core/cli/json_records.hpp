// json_records.hpp - the --json documents of squeue, scontrol, sinfo and sacct, shaped like
// Slurm's (data_parser) output so tools that read one read the other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/sinfo_rows.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

// {"jobs":[...],"last_update":..,"errors":[],"warnings":[]}
std::string jobs_json(const std::vector<const proto::JobInfo *> &jobs, int64_t now);
// {"nodes":[...]}
std::string nodes_json(const std::vector<const proto::NodeInfo *> &nodes, int64_t now);
// {"partitions":[...]}
std::string partitions_json(const std::vector<const proto::PartitionInfo *> &parts, int64_t now);
// {"sinfo":[...]}: one entry per (partition, state) line of the default view.
std::string sinfo_json(const std::vector<SinfoRow> &rows, int64_t now);
// {"jobs":[...]} with each job's steps.
std::string acct_jobs_json(const std::vector<const proto::AcctJob *> &jobs, int64_t now);

} // namespace drover::cli
