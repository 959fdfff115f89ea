// job_env.hpp - the environment Slurm gives a batch job, and output-path patterns.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ctld/jobs/job.hpp"

namespace drover::ctld {

using EnvList = std::vector<std::pair<std::string, std::string>>;

// Slurm's SLURM_JOB_* variables for job, given its node list, its batch host and cluster.
EnvList batch_job_environment(const Job &job, const std::string &node_list,
                              const std::string &batch_host, const std::string &cluster,
                              const std::string &conf_path);

} // namespace drover::ctld
