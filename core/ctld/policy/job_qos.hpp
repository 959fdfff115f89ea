// job_qos.hpp - the name of the QOS a job runs under: its -q/--qos, else "normal" (what Slurm
// gives a job that names none; with AccountingStorageEnforce=qos the job manager has already
// set it to the association's default).
#pragma once

#include <string_view>

#include "ctld/jobs/job.hpp"

namespace drover::ctld::policy {

inline std::string_view job_qos(const Job &job) {
    return job.qos.empty() ? std::string_view("normal") : std::string_view(job.qos);
}

} // namespace drover::ctld::policy
