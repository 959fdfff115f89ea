// job_submit_hook.hpp - JobSubmitPlugins at submission: each plugin in turn reads and changes the
// new job's description by Slurm's job_desc names (drover/job_submit.h), before the controller
// checks anything else about the job.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/status.hpp"
#include "plugin/job_submit_calls.hpp"
#include "proto/job_generated.h"

namespace drover::ctld {

// Runs the plugins on d in order for a submission by uid and gid (user_name). A refusal's text is
// the plugin's message, else what it gave as user messages, else Slurm's "Unspecified error". On
// success, *user_msg (when given) gets the user messages, one per line.
Status run_job_submit(const std::vector<plugin::JobSubmitCalls> &plugins, proto::JobDescT &d,
                      uint32_t uid, uint32_t gid, const std::string &user_name,
                      std::string *user_msg = nullptr);

// scontrol update job's Key=Value pairs through the plugins' job_modify: the keys Slurm's
// job_desc has (TimeLimit, Name, Comment, Nice, Features, Partition, NumNodes, Dependency) are
// shown as job_desc fields, the rest left as they are; what a plugin changes comes back as pairs
// (added when it set a field the update did not name). A refusal as for run_job_submit.
using UpdateFields = std::vector<std::pair<std::string, std::string>>;
Status run_job_modify(const std::vector<plugin::JobSubmitCalls> &plugins, UpdateFields &fields,
                      uint32_t job_id, uint32_t uid, uint32_t gid, const std::string &user_name);

// The job_desc field names a plugin may read, in table order (tests and docs).
std::vector<std::string> job_desc_field_names();

} // namespace drover::ctld
