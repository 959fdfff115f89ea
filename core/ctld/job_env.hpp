// job_env.hpp - the environment Slurm gives a batch job, and output-path patterns.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ctld/job.hpp"

namespace drover::ctld {

using EnvList = std::vector<std::pair<std::string, std::string>>;

// Slurm's SLURM_JOB_* variables for job, given its node list, its batch host and cluster.
EnvList batch_job_environment(const Job &job, const std::string &node_list,
                              const std::string &batch_host, const std::string &cluster,
                              const std::string &conf_path);

// "2(x3),1" for per-node counts, as SLURM_JOB_CPUS_PER_NODE writes them.
std::string compress_counts(const std::vector<uint32_t> &counts);

}  // namespace drover::ctld
