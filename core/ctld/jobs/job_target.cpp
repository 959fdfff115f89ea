// job_target.cpp - which jobs a user names ("123", "123_4", "123_[1-3]"), and what happens to array
// tasks that have not left their record yet, and to jobs put back in the queue.
#include <spdlog/spdlog.h>
#include <charconv>
#include <sys/wait.h>

#include "ctld/sched/allocation.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_record.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/events.hpp"
#include "plugin/plugin_set.hpp"

namespace drover::ctld {

std::vector<JobManager::Target> JobManager::resolve(const std::string &spec) {
    std::vector<Target> out;
    auto bad = [&] {
        out.push_back({spec, nullptr, DROVER_NO_VAL});
        return out;
    };
    // "L+K": component K of heterogeneous job L (its id is L+K).
    if (auto plus = spec.find('+'); plus != std::string::npos) {
        uint32_t l = 0, k = 0;
        auto [le, lec] = std::from_chars(spec.data(), spec.data() + plus, l);
        auto [ke, kec] = std::from_chars(spec.data() + plus + 1, spec.data() + spec.size(), k);
        if (lec != std::errc() || le != spec.data() + plus || kec != std::errc() ||
            ke != spec.data() + spec.size() || plus == 0)
            return bad();
        Job *j = find(l + k);
        if (!j || j->ext().het_job_id != l || j->ext().het_job_offset != k) return bad();
        out.push_back({spec, j});
        return out;
    }
    std::size_t us = spec.find('_');
    uint32_t id = 0;
    try {
        std::size_t used = 0;
        id = uint32_t(std::stoul(spec.substr(0, us), &used));
        if (used != (us == std::string::npos ? spec.size() : us)) return bad();
    } catch (const std::exception &) {
        return bad();
    }
    if (us == std::string::npos) {
        Job *j = find(id);
        if (j && arrays_.count(id) && j->array_job_id == id) {
            // The whole array: the record with its waiting tasks, and every task that left it.
            for (auto &[key, jid] : tasks_)
                if (key.first == id)
                    if (Job *t = find(jid))
                        out.push_back({std::to_string(id) + "_" + std::to_string(key.second), t});
            if (j->is_array_record()) out.push_back({spec, j});
            return out;
        }
        out.push_back({spec, j});
        return out;
    }
    std::string tasks = spec.substr(us + 1);
    if (tasks.size() > 2 && tasks.front() == '[' && tasks.back() == ']')
        tasks = tasks.substr(1, tasks.size() - 2);
    if (auto pct = tasks.find('%'); pct != std::string::npos) tasks.resize(pct);
    std::vector<uint32_t> ids;
    try {
        ids = parse_task_list(tasks);
    } catch (const std::exception &) {
        return bad();
    }
    if (ids.empty()) return bad();
    for (uint32_t t : ids) {
        std::string label = std::to_string(id) + "_" + std::to_string(t);
        if (auto it = tasks_.find({id, t}); it != tasks_.end()) {
            out.push_back({label, find(it->second)});
            continue;
        }
        Job *rec = find(id);
        if (rec && rec->array &&
            std::binary_search(rec->array->pending.begin(), rec->array->pending.end(), t))
            out.push_back({label, rec, t});
        else
            out.push_back({label, nullptr});
    }
    return out;
}

void JobManager::cancel_pending_task(Job &rec, uint32_t task, uint32_t uid) {
    auto &pending = rec.array->pending;
    auto it = std::lower_bound(pending.begin(), pending.end(), task);
    if (it == pending.end() || *it != task) return;
    if (pending.size() == 1) {
        // The last waiting task is the record itself, so it ends as that task.
        rec.array_task_id = task;
        rec.array.reset();
        tasks_[{rec.array_job_id, task}] = rec.id;
        rec.cancelled_by = uid;
        end_job(rec, DROVER_JOB_CANCELLED, 0);
        return;
    }
    pending.erase(it);
    ArrayCounts &c = arrays_[rec.array_job_id];
    if (c.pending) c.pending--;
    c.bad++;
    persist(rec);
}

void JobManager::requeue_job(Job &job, bool hold) {
    account_requeue(job);
    if (job.running()) {
        release(ctx_.plugins.select_calls(), job, "requeue");
        nodes_.job_ended(job);
        if (job.array_job_id) {
            ArrayCounts &c = arrays_[job.array_job_id];
            if (c.running) c.running--;
            c.pending++;
        }
    }
    job.state = DROVER_JOB_PENDING;
    job.state_flags = (job.state_flags | DROVER_JOB_FLAG_REQUEUED) & ~DROVER_JOB_FLAG_CONFIGURING;
    job.restart_count++;
    forget_nodes(job);
    job.start_time = job.end_time = 0;
    job.exit_status = job.derived_exit_status = 0;
    job.kill_sent = job.timed_out = job.requeue_when_ended = job.hold_when_requeued = false;
    if (job.ext().signal_sent || job.ext().suspend_time) {
        JobExtra &x = job.mutable_extra();
        x.signal_sent = false; // the next run gets it too
        x.suspend_time = x.pre_suspend_secs = 0;
        x.suspended_by_preemption = false;
    }
    job.cancelled_by = DROVER_NO_VAL;
    job.reason = "None";
    // As Slurm does: not again before AuthInfo's cred_expire has passed, so that nothing the
    // last run was given can start anything of this one (its reason is BeginTime meanwhile).
    job.eligible_time = Ctx::now() + ctx_.conf.cred_lifetime() + 1;
    // As Slurm: the next run is submitted now (its SubmitTime, its accounting record's).
    job.submit_time = Ctx::now();
    if (!hold) job.state_flags &= ~DROVER_JOB_FLAG_SPECIAL_EXIT;
    if (hold) {
        job.hold = Hold::User;
        job.priority = 0;
        job.reason = "JobHeldUser";
    }
    persist(job);
    account(DROVER_ACCT_JOB_SUBMIT, job); // the next run's record
    spdlog::info("job {} requeued (restart {})", job.id, job.restart_count);
    requeue_het_components(job, hold);
    ctx_.events.queue_changed.publish();
}

bool JobManager::requeue_on_exit(Job &job, const proto::JobCompleteRequest &r) {
    // Only a script that exited by itself: not one cancelled, preempted, out of time or memory.
    bool ended_by_itself = !(job.state_flags & DROVER_JOB_FLAG_PREEMPTED) &&
                           job.cancelled_by == DROVER_NO_VAL && !job.timed_out &&
                           !r.failed_to_launch() && r.state() != DROVER_JOB_OOM;
    int32_t status = r.exit_status();
    if (!ended_by_itself || job.interactive || !job.requeue || !WIFEXITED(status)) return false;
    auto code = std::size_t(WEXITSTATUS(status));
    bool again = requeue_exit_.test(code);
    if (!again && !requeue_exit_hold_.test(code)) return false;
    spdlog::info("job {} exit code {} is in {}", job.id, code,
                 again ? "RequeueExit" : "RequeueExitHold");
    job.exit_status = status; // the run that ends here is recorded with it
    if (!again) job.state_flags |= DROVER_JOB_FLAG_SPECIAL_EXIT;
    requeue_job(job, !again);
    return true;
}

void JobManager::mark_preempted(Job &job, bool requeue, uint32_t by) {
    if (requeue) {
        job.requeue_when_ended = true;
        job.hold_when_requeued = false;
    } else {
        job.state_flags |= DROVER_JOB_FLAG_PREEMPTED;
    }
    job.kill_sent = true;
    persist(job); // a restart before its end still requeues or ends it as preempted
    spdlog::info("job {} preempted by job {} ({})", job.id, by, requeue ? "requeue" : "cancel");
}

} // namespace drover::ctld
