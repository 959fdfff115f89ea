// job_suspend.cpp - scontrol suspend and resume (and PreemptMode=SUSPEND): a suspended job's
// processes are stopped with SIGSTOP on all its nodes, its clock stops (the time suspended does
// not count against its limit), and its CPUs are free for other jobs while it keeps its memory,
// as in Slurm; resume sends SIGCONT and takes the CPUs back.
#include <csignal>

#include <spdlog/spdlog.h>

#include "ctld/acct/acct_recorder.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/sched/allocation.hpp"
#include "plugin/plugin_set.hpp"

namespace drover::ctld {

namespace {

// Slurm's refusals of a suspend or resume of a job that is not there to act on.
Status not_live(const Job &job) {
    if (job.pending()) return {DROVER_EBUSY, "Job is pending execution"};
    if (job.finished() || job.kill_sent)
        return {DROVER_EINVAL, "Job/step already completing or completed"};
    return {};
}

} // namespace

Status JobManager::suspend_job(Job &job, bool by_preemption) {
    if (Status s = not_live(job); !s.ok()) return s;
    if (job.state != DROVER_JOB_RUNNING) return {DROVER_EINVAL, "Job is not running"};
    int64_t now = Ctx::now();
    JobExtra &x = job.mutable_extra();
    x.pre_suspend_secs = job_run_secs(job, now);
    x.suspend_time = now;
    x.suspended_by_preemption = by_preemption;
    job.state = DROVER_JOB_SUSPENDED;
    suspend_hold(ctx_.plugins.select_calls(), job, true);
    send_signal(job, SIGSTOP, SignalScope::Full);
    persist(job);
    // The store's record shows it suspended (sacct's State) without counting a second start.
    ctx_.recorder->record(DROVER_ACCT_JOB_START, acct_record(job));
    spdlog::info("job {} suspended{}", job.id, by_preemption ? " by preemption" : "");
    ctx_.events.queue_changed.publish(); // its CPUs may start another job
    return {};
}

Status JobManager::resume_job(Job &job) {
    if (Status s = not_live(job); !s.ok()) return s;
    if (job.state != DROVER_JOB_SUSPENDED) return {DROVER_EINVAL, "Job is not suspended"};
    JobExtra &x = job.mutable_extra();
    x.suspend_time = Ctx::now(); // its clock runs again from here (job_run_secs)
    x.suspended_by_preemption = false;
    job.state = DROVER_JOB_RUNNING;
    suspend_hold(ctx_.plugins.select_calls(), job, false);
    send_signal(job, SIGCONT, SignalScope::Full);
    persist(job);
    ctx_.recorder->record(DROVER_ACCT_JOB_START, acct_record(job));
    spdlog::info("job {} resumed", job.id);
    return {};
}

} // namespace drover::ctld
