// job_env.hpp - the environment Slurm gives a batch job, and output-path patterns.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/config.hpp"
#include "ctld/jobs/job.hpp"

namespace drover::ctld {

using EnvList = std::vector<std::pair<std::string, std::string>>;

// Slurm's SLURM_JOB_* variables for job, given its node list and its batch host (conf: the
// cluster's name, slurm.conf's path, whether GPUs are numbered from 0 under ConstrainDevices).
EnvList batch_job_environment(const Job &job, const std::string &node_list,
                              const std::string &batch_host, const Config &conf);

// A heterogeneous job's components (leader first; one job: none): SLURM_HET_SIZE and each
// component's job-wide variables again with the suffix _HET_GROUP_<offset>, as Slurm gives its
// batch script (names: node indexes to a hostlist).
EnvList het_job_environment(const std::vector<Job *> &parts,
                            const std::function<std::string(const std::vector<uint32_t> &)> &names,
                            const Config &conf);

} // namespace drover::ctld
