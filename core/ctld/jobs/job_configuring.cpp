// job_configuring.cpp - a job whose nodes power up for it (power saving) runs once they are up.
#include <spdlog/spdlog.h>

#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/store/committer.hpp"

namespace drover::ctld {

void JobManager::configured_if_up(Job &job) {
    if (!job.running() || !job.configuring() || nodes_.any_powering_up(job.nodes)) return;
    job.state_flags &= ~DROVER_JOB_FLAG_CONFIGURING;
    // As Slurm: the job's time starts once its nodes are up, not while they boot.
    job.start_time = Ctx::now();
    persist(job);
    account(DROVER_ACCT_JOB_START, job);
    spdlog::info("job {}: its nodes are up; it runs", job.id);
    ctx_.commit.after_commit([this, id = job.id] {
        if (const Job *j = find(id); j && j->running()) ctx_.events.job_started.publish(*j);
    });
}

} // namespace drover::ctld
