// job_record.hpp - a Job as a JobInfo FlatBuffer: the stored record and the squeue/scontrol reply
// are the same bytes, so there is one encoding to keep right.
#pragma once

#include <functional>
#include <string>

#include "ctld/jobs/job.hpp"
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

// Maps a node name to its index, or -1.
using NodeIndex = std::function<int(const std::string &)>;

// Rebuilds a Job from its stored record, exactly as write_job_info was given it (every member
// listed in job_fields.hpp; tests/unit/ctld/job_record_test.cpp checks each): stored members are
// read back and the others derived (derive_job_fields). node_count is the number of nodes (the
// size of -w/-x bitmaps). When derive_job_fields refuses the record (a node its -w or -x names
// is no longer configured), problem (if given) says why; the job is returned all the same.
Job read_job_info(const proto::JobInfo &info, const NodeIndex &node_index, std::size_t node_count,
                  std::string *problem = nullptr);

// The members a job derives from others instead of storing them (all in JobExtra): -w/-x as
// node bitmaps, and --signal's signal, time and target. Called when a job is submitted and when
// its record is read back, so that both compute them the same way. Returns "" or why they cannot
// be derived ("Invalid node name specified", "Invalid --signal specification"), as a submission
// is refused.
std::string derive_job_fields(JobExtra &extra, const NodeIndex &node_index, std::size_t node_count);

} // namespace drover::ctld
