// job_record.hpp - a Job as a JobInfo FlatBuffer: the stored record and the squeue/scontrol reply
// are the same bytes, so there is one encoding to keep right.
#pragma once

#include <functional>
#include <string>

#include "ctld/job.hpp"
#include "proto/message_generated.h"

namespace drover::ctld {

// Names node indexes for the record's node list.
using NodeNamer = std::function<std::string(const std::vector<uint32_t> &nodes)>;

// With display set, output paths are written expanded, as squeue and scontrol show them;
// stored records keep the patterns.
flatbuffers::Offset<proto::JobInfo> write_job_info(flatbuffers::FlatBufferBuilder &fbb,
                                                   const Job &job, const NodeNamer &names,
                                                   const std::string &cluster, bool display);

// "0-3,7" for ascending task ids, and back.
std::string format_task_list(const std::vector<uint32_t> &ids);
std::vector<uint32_t> parse_task_list(const std::string &text);

// Rebuilds a Job from its stored record. node_index maps a node name to its index, or -1.
Job read_job_info(const proto::JobInfo &info,
                  const std::function<int(const std::string &)> &node_index);

}  // namespace drover::ctld
