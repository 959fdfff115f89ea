// scontrol_show.hpp - scontrol's key=value records for jobs, nodes, partitions and the config.
#pragma once

#include <cstdint>
#include <string>

#include "proto/message_generated.h"

namespace drover::cli {

// One record: continuation lines start with three spaces and the record ends with a blank line;
// with one_liner every key=value is on one line, ending in a single newline.
std::string show_job(const proto::JobInfo &job, int64_t now, bool one_liner);
std::string show_node(const proto::NodeInfo &node, bool one_liner);
std::string show_partition(const proto::PartitionInfo &part, bool one_liner);

// "Configuration data as of <time>" then "Key = value" lines, keys padded to 23.
std::string show_config(const proto::ConfigResponse &conf, int64_t now);

// Minutes as scontrol prints a limit: "UNLIMITED", "00:30:00", "1-00:00:00".
std::string minutes_hms(uint32_t minutes);

}  // namespace drover::cli
