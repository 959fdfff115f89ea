// het_job.cpp - heterogeneous jobs (sbatch/salloc with ':' components): one submission makes a
// job per component, with consecutive ids from the leader's (offset 0). The leader runs the batch
// script (or is salloc's allocation); the other components hold their nodes for the script's
// srun steps, as allocations with no script of their own, and end with the leader. The scheduler
// starts all components at once or none (Scheduler::start_het).
#include <csignal>

#include <spdlog/spdlog.h>

#include "ctld/fed/federation.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/partition_list.hpp"
#include "ctld/store/committer.hpp"
#include "proto/message_generated.h"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

// Slurm's ESLURM_NOT_WHOLE_HET_JOB and ESLURM_NOT_HET_JOB_LEADER.
constexpr const char *kNotWhole =
    "Operation not permitted on individual component of heterogeneous job";
constexpr const char *kNotLeader = "Job not heterogeneous job leader";

} // namespace

uint32_t JobManager::take_job_ids(uint32_t count) {
    // The first of count free ids in a row, within FirstJobId..MaxJobId (a run that would wrap
    // or meet a job still remembered is skipped).
    const uint32_t range = ctx_.conf.max_job_id - ctx_.conf.first_job_id;
    if (count > range) return 0;
    for (uint32_t tries = 0; tries < range; ++tries) {
        const uint32_t first = take_job_id();
        const uint32_t local = first & kLocalIdMask;
        bool free = uint64_t(local) + count <= ctx_.conf.max_job_id;
        for (uint32_t k = 1; k < count && free; ++k) free = !jobs_.count(first + k);
        if (!free) continue;
        const uint32_t next = local + count;
        next_id_ = next >= ctx_.conf.max_job_id ? ctx_.conf.first_job_id : next;
        state::put_meta_u64(ctx_.commit.txn(), "next_job_id", next_id_);
        return first;
    }
    return 0;
}

void JobManager::submit_het(const std::shared_ptr<net::Request> &req,
                            const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_JobSubmitRequest();
    std::vector<const proto::JobDesc *> descs{r->desc()};
    for (const auto *d : *r->het()) descs.push_back(d);
    const auto count = uint32_t(descs.size());
    std::vector<std::unique_ptr<Job>> parts;
    std::string user_msg;
    for (uint32_t k = 0; k < count; ++k) {
        auto job = std::make_unique<Job>();
        job->uid = req->peer.uid;
        job->gid = req->peer.gid;
        Partition *part = nullptr;
        std::string msg;
        Status s = descs[k] ? build_job(*descs[k], *job, part, &msg) : invalid("empty component");
        if (s.ok() && job->array) s = invalid("Job arrays of heterogeneous jobs are not supported");
        // The scheduler starts components in their one partition each.
        if (s.ok() && is_partition_list(job->partition))
            s = invalid("A heterogeneous job's component may not wait in several partitions yet");
        if (!s.ok()) return resp->error(s.code(), s.text());
        if (!msg.empty()) user_msg += (user_msg.empty() ? "" : "\n") + msg;
        // Only the leader has a script: the others are allocations its srun steps run in.
        if (k > 0) job->interactive = true;
        job->mutable_extra().het_size = count; // before choose_siblings: the origin keeps it
        if (s = choose_siblings(*job); !s.ok()) return resp->error(s.code(), s.text());
        parts.push_back(std::move(job));
    }
    if (r->desc()->test_only())
        return resp->error(DROVER_EINVAL, "--test-only is not supported for heterogeneous jobs");
    if (jobs_.size() + count > ctx_.conf.max_job_count) // MaxJobCount, as on_submit answers it
        return resp->error(DROVER_EBUSY, "Resource temporarily unavailable");
    if (!ctx_.commit.room_for(req->bytes.size() + 1024 * count))
        return resp->error(DROVER_ENOSPC, "Unable to save the job: the state store is full");
    const uint32_t leader = take_job_ids(count);
    if (!leader) return resp->error(DROVER_EBUSY, "Resource temporarily unavailable");
    for (uint32_t k = 0; k < count; ++k) {
        Job &j = *parts[k];
        j.id = leader + k;
        JobExtra &x = j.mutable_extra();
        x.het_job_id = leader;
        x.het_job_offset = k;
        queue_as_new(j, descs[k]->hold());
        // The leader keeps the submission (the script and environment are its own).
        enter(std::move(parts[k]),
              k == 0 ? std::span<const uint8_t>(req->bytes) : std::span<const uint8_t>());
    }
    spdlog::info("heterogeneous job {} submitted: {} components", leader, count);
    answer_submit(resp, leader, std::move(user_msg));
}

std::vector<Job *> JobManager::het_components(const Job &job) {
    const JobExtra &x = job.ext();
    if (!x.het_job_id) return {const_cast<Job *>(&job)};
    std::vector<Job *> out;
    for (uint32_t k = 0; k < x.het_size; ++k) {
        Job *c = find(x.het_job_id + k);
        if (!c || c->ext().het_job_id != x.het_job_id) return {const_cast<Job *>(&job)};
        out.push_back(c);
    }
    return out;
}

std::vector<Job *> JobManager::het_named(Job &job) {
    return job.ext().het_job_offset == 0 ? het_components(job) : std::vector<Job *>{&job};
}

std::vector<Job *> JobManager::het_others(const Job &leader) {
    const JobExtra &x = leader.ext();
    if (!x.het_job_id || x.het_job_offset != 0) return {};
    std::vector<Job *> out;
    for (uint32_t k = 1; k < x.het_size; ++k)
        if (Job *c = find(x.het_job_id + k); c && c->ext().het_job_id == x.het_job_id)
            out.push_back(c);
    return out;
}

void JobManager::end_het_components(const Job &leader) {
    for (Job *c : het_others(leader)) {
        if (c->finished()) continue;
        if (leader.cancelled_by != DROVER_NO_VAL) c->cancelled_by = leader.cancelled_by;
        end_job(*c, leader.state, leader.exit_status);
    }
}

void JobManager::requeue_het_components(const Job &leader, bool hold) {
    for (Job *c : het_others(leader)) {
        if (c->pending()) continue;
        // What its steps still run stops: its nodes may go to others before the next run.
        if (c->running())
            kill_on_nodes(c->nodes, c->id, SIGKILL, true, "requeue it with its leader",
                          proto::KillCause::Requeued);
        requeue_job(*c, hold);
    }
}

Job &JobManager::het_leader(Job &job) {
    const JobExtra &x = job.ext();
    if (!x.het_job_id || x.het_job_offset == 0) return job;
    Job *leader = find(x.het_job_id);
    return leader && leader->ext().het_job_id == x.het_job_id ? *leader : job;
}

Status JobManager::het_leader_only(const Job &job) {
    const JobExtra &x = job.ext();
    if (x.het_job_id && x.het_job_offset != 0) return invalid(kNotLeader);
    return {};
}

Status JobManager::het_signal_check(const Job &job) {
    const JobExtra &x = job.ext();
    if (x.het_job_id && x.het_job_offset != 0 && job.pending()) return invalid(kNotWhole);
    return {};
}

} // namespace drover::ctld
