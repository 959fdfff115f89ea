// job_mgr.cpp - job lifecycle: recovery, persistence, ends, kills, time limits and purging.
// Submission is in job_submit.cpp; queries, signals and updates in job_control.cpp.
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/fed/federation.hpp"

#include <csignal>
#include <pwd.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <unordered_set>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/sched/allocation.hpp"
#include "ctld/steps/step_acct.hpp"
#include "net/usage_codec.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/jobs/job_codec.hpp"
#include "ctld/jobs/job_record.hpp"
#include "ctld/nodes/node_calls.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/events.hpp"
#include "net/authenticator.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

// The Reason an ended job shows for its state (Slurm's FAIL_EXIT_CODE, FAIL_TIMEOUT,
// FAIL_DOWN_NODE); nullptr: what it had.
const char *end_reason(uint32_t state) {
    switch (state) {
    case DROVER_JOB_FAILED:
        return "NonZeroExitCode";
    case DROVER_JOB_TIMEOUT:
        return "TimeLimit";
    case DROVER_JOB_NODE_FAIL:
        return "NodeDown";
    default:
        return nullptr;
    }
}

} // namespace

JobManager::JobManager(Ctx &ctx, NodeManager &nodes, const Placement &place)
    : ctx_(ctx), nodes_(nodes), place_(place), next_id_(ctx.conf.first_job_id),
      enforce_(policy::Enforce::parse(ctx.conf.accounting_storage_enforce)),
      requeue_exit_(configured_exit_codes(ctx.conf, "requeueexit")),
      requeue_exit_hold_(configured_exit_codes(ctx.conf, "requeueexithold")),
      licenses_(ctx.conf.licenses) {
    ctx_.events.node_failed.subscribe([this](uint32_t node) { node_failed(node); });
    ctx_.events.assocs_changed.subscribe([this] { count_usage_again(); });
    ctx_.events.node_registered.subscribe([this](uint32_t node, const std::vector<uint32_t> &batch,
                                                 const std::vector<uint32_t> &step_jobs) {
        node_registered(node, batch, step_jobs);
    });
}

void JobManager::recover(bool cold) {
    if (cold) {
        auto &t = ctx_.commit.txn();
        t.clear(state::Table::Jobs);
        t.clear(state::Table::Scripts);
        ctx_.commit.flush();
        spdlog::info("cold start: job records discarded");
    }
    auto t0 = std::chrono::steady_clock::now();
    next_id_ = uint32_t(state::get_meta_u64(ctx_.store, "next_job_id", ctx_.conf.first_job_id));
    std::size_t running = 0;
    std::vector<std::pair<uint32_t, std::string>> unplaceable;
    ctx_.store.scan(state::Table::Jobs, [&](state::Bytes, state::Bytes value) {
        flatbuffers::Verifier v(value.data(), value.size());
        if (!v.VerifyBuffer<proto::JobInfo>(nullptr)) {
            spdlog::error("skipping a damaged job record");
            return;
        }
        std::string problem;
        auto job = std::make_unique<Job>(read_job_info(
            *flatbuffers::GetRoot<proto::JobInfo>(value.data()),
            [this](const std::string &n) { return nodes_.index_of(n); }, nodes_.size(), &problem));
        if (!problem.empty() && !job->finished()) {
            spdlog::error("job {}: {} (-w {}, -x {}; was slurm.conf changed?)", job->id, problem,
                          job->ext().req_nodes, job->ext().exc_nodes);
            if (job->pending()) unplaceable.emplace_back(job->id, problem);
        }
        if (job->running()) {
            ++running;
            nodes_.job_started(*job);
            licenses_.set(*job);
        }
        if (job->array_job_id) {
            ArrayCounts &c = arrays_[job->array_job_id];
            if (job->array_meta) c.total = job->array_meta->count;
            if (job->array) c.pending += uint32_t(job->array->pending.size());
            if (job->array_task_id != DROVER_NO_VAL) {
                tasks_[{job->array_job_id, job->array_task_id}] = job->id;
                if (job->running())
                    c.running++;
                else if (job->finished())
                    (job->state == DROVER_JOB_COMPLETE ? c.ok : c.bad)++;
                else
                    c.pending++;
            }
        }
        jobs_[job->id] = std::move(job);
    });
    spdlog::info(
        "recovered {} jobs ({} running) in {} ms, next job id {}", jobs_.size(), running,
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count(),
        next_id_);
    // A pending job whose node lists name nodes no longer configured cannot run where it asked
    // to: as Slurm does, it ends NODE_FAIL rather than run anywhere else.
    for (const auto &[id, why] : unplaceable) {
        Job &j = het_leader(*jobs_.at(id)); // a component's whole heterogeneous job
        if (j.finished()) continue;         // ended already with its leader
        j.reason = why;
        end_job(j, DROVER_JOB_NODE_FAIL, 0);
    }
    for (auto &[id, j] : jobs_)
        if (j->running() && !j->interactive) ctx_.events.relaunch.publish(id);
}

Job *JobManager::find(uint32_t id) {
    auto it = jobs_.find(id);
    return it == jobs_.end() ? nullptr : it->second.get();
}

std::vector<Job *> JobManager::pending() {
    std::vector<Job *> out;
    for (auto &[id, j] : jobs_)
        if (j->pending()) out.push_back(j.get());
    return out;
}

std::vector<Job *> JobManager::running() {
    std::vector<Job *> out;
    for (auto &[id, j] : jobs_)
        if (j->running()) out.push_back(j.get());
    return out;
}

uint32_t JobManager::take_job_id() {
    // A federation's job ids carry the origin cluster's federation id in bits 26-31; the local
    // part wraps within FirstJobId..MaxJobId, skipping ids still held by a job we remember.
    const uint32_t origin = ctx_.fed ? ctx_.fed->self_id() << kFedIdShift : 0;
    auto full = [origin](uint32_t local) { return (local & kLocalIdMask) | origin; };
    uint32_t id = next_id_;
    for (uint32_t tries = 0; jobs_.count(full(id)) && tries < ctx_.conf.max_job_id; ++tries)
        id = id + 1 >= ctx_.conf.max_job_id ? ctx_.conf.first_job_id : id + 1;
    next_id_ = id + 1 >= ctx_.conf.max_job_id ? ctx_.conf.first_job_id : id + 1;
    state::put_meta_u64(ctx_.commit.txn(), "next_job_id", next_id_);
    return full(id);
}

std::string JobManager::user_name(uint32_t uid) {
    auto it = user_names_.find(uid);
    if (it != user_names_.end()) return it->second;
    std::string name = std::to_string(uid);
    if (const passwd *pw = ::getpwuid(uid)) name = pw->pw_name;
    user_names_[uid] = name;
    return name;
}

void JobManager::persist(const Job &job) {
    flatbuffers::FlatBufferBuilder fbb(512);
    fbb.Finish(write_job_info(
        fbb, job, [this](const std::vector<uint32_t> &n) { return nodes_.names(n); },
        ctx_.conf.cluster_name, false));
    auto key = state::job_key(job.id);
    ctx_.commit.txn().put(state::Table::Jobs, key, {fbb.GetBufferPointer(), fbb.GetSize()});
    usage_.set(job.id, policy().share_of(job));
    licenses_.set(job);
    last_change_ = Ctx::now();
}

policy::AcctPolicy JobManager::policy() const {
    return {ctx_.acct.assocs(), enforce_, ctx_.conf.cluster_name, [this](const std::string &name) {
                const Partition *p = nodes_.partition(name);
                return p ? p->conf->qos : std::string();
            }};
}

void JobManager::count_usage_again() {
    usage_.clear();
    const auto pol = policy();
    if (!pol.active()) return;
    for (const auto &[id, j] : jobs_) usage_.set(id, pol.share_of(*j));
    ctx_.events.queue_changed.publish(); // a changed limit may let a job start
}

void JobManager::account(int event, const Job &j) {
    ctx_.acct.stats().count(event, j.state);
    ctx_.recorder->record(event, acct_record(j));
}

void JobManager::account_requeue(const Job &j) {
    // The run that ends here stays in the store as a record of its own (sacct -D shows it): its
    // end is now, its state REQUEUED (Slurm's JOB_REQUEUE bit over PENDING). The submit event
    // that follows makes the store move it aside and start the next run's record.
    AcctRecord r = acct_record(j);
    r.state = DROVER_JOB_PENDING | kAcctStateRequeued;
    r.end_time = Ctx::now();
    if (r.start_time == 0) r.start_time = r.end_time;
    ctx_.recorder->record(DROVER_ACCT_JOB_END, std::move(r));
}

AcctRecord JobManager::acct_record(const Job &j) {
    AcctRecord r = codec::acct_record(j, j.nodes.empty() ? std::string() : nodes_.names(j.nodes));
    // As Slurm records a job cancelled or out of time: the signal that ended it shows on its
    // batch step (sacct's J.batch line), the job's own ExitCode is 0:0.
    if (j.state == DROVER_JOB_CANCELLED || j.state == DROVER_JOB_TIMEOUT) r.exit_status = 0;
    // Revoked: a federated job's copy that did not run here, and a member's copy that waits (the
    // origin's record shows the job while it waits; the member that starts it records it).
    if ((j.state_flags & DROVER_JOB_FLAG_REVOKED) || (sibling_copy(j) && j.pending()))
        r.state |= kAcctStateRevoked;
    return r;
}

void JobManager::record_start(Job &job) {
    job.state = DROVER_JOB_RUNNING;
    job.start_time = Ctx::now();
    job.reason = "None";
    job.expected_start = 0;
    job.sched_nodes.clear();
    if (job.array_job_id) arrays_[job.array_job_id].running++;
    nodes_.job_started(job);
    bool configuring = nodes_.any_powering_up(job.nodes);
    if (configuring) job.state_flags |= DROVER_JOB_FLAG_CONFIGURING;
    persist(job);
    account(DROVER_ACCT_JOB_START, job);
    spdlog::info("job {} started on {}{}", job.id, nodes_.names(job.nodes),
                 configuring ? " (configuring while its nodes power up)" : "");
    if (configuring) return; // configured_if_up publishes job_started
    ctx_.commit.after_commit([this, id = job.id] {
        if (const Job *j = find(id)) ctx_.events.job_started.publish(*j);
    });
}

void JobManager::note_pending(uint32_t id, std::string reason) {
    if (Job *j = find(id); j && j->pending() && j->reason != reason) {
        j->reason = std::move(reason);
        last_change_ = Ctx::now();
    }
}

void JobManager::note_expected_start(uint32_t id, int64_t when, std::vector<uint32_t> nodes) {
    if (Job *j = find(id); j && j->pending()) {
        j->expected_start = when;
        j->sched_nodes = std::move(nodes);
    }
}

void JobManager::end_pending(uint32_t id, uint32_t state, uint32_t cancelled_by) {
    Job *j = find(id);
    if (!j || !j->pending()) return;
    if (cancelled_by != DROVER_NO_VAL) j->cancelled_by = cancelled_by;
    end_job(*j, state, 0);
}

void JobManager::end_job(Job &job, uint32_t state, int32_t exit_status) {
    bool was_running = job.running();
    if (job.array_job_id) {
        ArrayCounts &c = arrays_[job.array_job_id];
        // A cancelled pending record ends every task it still holds.
        uint32_t n = job.array ? uint32_t(job.array->pending.size()) : 1;
        if (was_running)
            c.running -= std::min(c.running, 1u);
        else
            c.pending -= std::min(c.pending, n);
        (state == DROVER_JOB_COMPLETE ? c.ok : c.bad) += n;
    }
    // A job ending while suspended ran for what it had run by its suspension: its clock
    // counts again from now, the end.
    if (job.state == DROVER_JOB_SUSPENDED) job.mutable_extra().suspend_time = Ctx::now();
    job.state = state;
    job.state_flags &= ~DROVER_JOB_FLAG_CONFIGURING;
    job.exit_status = exit_status;
    // Why it ended, as Slurm shows it (a launch failure keeps its own words).
    if (const char *why = end_reason(state); why && (job.reason.empty() || job.reason == "None"))
        job.reason = why;
    job.end_time = Ctx::now();
    if (job.start_time == 0) job.start_time = job.end_time;
    if (was_running) {
        release(ctx_.plugins.select_calls(), job, "end");
        nodes_.job_ended(job);
        // Steps end with their job; every node but a batch host whose script has ended is told,
        // so what still runs there stops and its Epilog runs.
        ctx_.events.job_ended.publish(job);
        end_on_nodes(job);
    }
    persist(job);
    account(DROVER_ACCT_JOB_END, job);
    spdlog::info("job {} ended {} exit {}:{}", job.id, job_state_name(state),
                 (exit_status >> 8) & 0xff, exit_status & 0x7f);
    end_het_components(job);
    ctx_.events.queue_changed.publish();
}

void JobManager::node_failed(uint32_t node) {
    for (auto &[any_id, any] : jobs_) {
        if (!any->running()) continue;
        if (std::find(any->nodes.begin(), any->nodes.end(), node) == any->nodes.end()) continue;
        // A heterogeneous job's component fails with its whole job: its leader acts for all.
        Job *j = &het_leader(*any);
        if (!j->running()) continue;
        const uint32_t id = j->id;
        std::vector<uint32_t> held = j->nodes;
        if (j->requeue) {
            requeue_job(*j, false); // --requeue (the default): run it again elsewhere
            // Not before every kill below has reached its node or timed out: a late one must
            // not end the next run on a node both runs share.
            j->eligible_time = std::max(j->eligible_time, Ctx::now() + kNodeCallMs / 1000 + 1);
            persist(*j);
        } else {
            end_job(*j, DROVER_JOB_NODE_FAIL, 0); // tells every node but the batch host
            held.resize(j->interactive ? 0 : 1);
        }
        // What still runs of it stops, the batch script too (a node set DOWN by an admin may be
        // well): a requeued job must not run twice. A node that cannot be reached now kills it
        // when it registers again.
        if (!held.empty())
            kill_on_nodes(held, id, SIGKILL, true, "end it after a node failure",
                          proto::KillCause::NodeFailure);
    }
}

void JobManager::node_registered(uint32_t node, const std::vector<uint32_t> &batch,
                                 const std::vector<uint32_t> &step_jobs) {
    std::unordered_set<uint32_t> has(batch.begin(), batch.end());
    auto orphan = [&](uint32_t id, bool as_batch) {
        spdlog::info(
            "job {} is not running on {} as far as the controller knows: terminating it there", id,
            nodes_.at(node).conf->name);
        kill_on_nodes({node}, id, SIGKILL, true,
                      as_batch ? "terminate an unknown job" : "end its steps");
    };
    for (uint32_t id : batch) {
        Job *j = find(id);
        if (!(j && j->running() && !j->interactive && !j->nodes.empty() &&
              j->nodes.front() == node))
            orphan(id, true);
    }
    for (uint32_t id : step_jobs) {
        Job *j = find(id);
        bool here = j && j->running() &&
                    std::find(j->nodes.begin(), j->nodes.end(), node) != j->nodes.end();
        if (!here && !has.count(id)) orphan(id, false);
    }
    for (auto &[id, j] : jobs_) {
        if (!j->running() || j->interactive || j->nodes.empty() || j->nodes.front() != node)
            continue;
        if (has.count(id) || j->configuring()) continue; // configured_if_up launches it
        spdlog::info("job {}: {} registered without it; launching it again", id,
                     nodes_.at(node).conf->name);
        ctx_.events.relaunch.publish(id); // unless a launch is on its way already
    }
    for (Job *j : running())
        if (j->configuring() && std::find(j->nodes.begin(), j->nodes.end(), node) != j->nodes.end())
            configured_if_up(*j);
}

void JobManager::kill_on_nodes(const std::vector<uint32_t> &nodes, uint32_t job_id, int sig,
                               bool terminate, const char *what, proto::KillCause cause) {
    std::vector<std::string> names;
    names.reserve(nodes.size());
    for (uint32_t n : nodes) names.push_back(nodes_.at(n).conf->name);
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(
        fbb, proto::Body::JobKillRequest,
        proto::CreateJobKillRequest(fbb, job_id, sig, terminate, uint8_t(cause)).Union(),
        ctx_.epoch));
    tell_nodes(std::move(names), fbb, job_id, what);
}

void JobManager::tell_nodes(std::vector<std::string> names,
                            const flatbuffers::FlatBufferBuilder &msg, uint32_t job_id,
                            const char *what) {
    call_nodes(
        ctx_, std::move(names), {msg.GetBufferPointer(), msg.GetBufferPointer() + msg.GetSize()},
        kNodeCallMs, [this, job_id, what](std::vector<net::NodeOutcome> results) {
            if (fenced_by(ctx_, results)) return;
            for (const auto &r : results)
                if (r.rc != 0)
                    spdlog::warn("job {}: cannot {} on {}: {}", job_id, what, r.node, r.message);
        });
}

void JobManager::end_on_nodes(const Job &job) {
    std::size_t first = job.interactive ? 0 : 1;
    if (job.nodes.size() <= first) return;
    kill_on_nodes(std::vector<uint32_t>(job.nodes.begin() + std::ptrdiff_t(first), job.nodes.end()),
                  job.id, SIGKILL, true, "announce its end");
}

void JobManager::send_kill(Job &job, int sig, bool terminate, proto::KillCause cause) {
    if (job.nodes.empty()) return;
    if (job.interactive) {
        // No script to signal: the job is its steps, and a terminated allocation simply ends.
        if (terminate)
            return end_job(job,
                           (job.state_flags & DROVER_JOB_FLAG_PREEMPTED) ? DROVER_JOB_PREEMPTED
                           : job.timed_out                               ? DROVER_JOB_TIMEOUT
                                                                         : DROVER_JOB_CANCELLED,
                           0);
        ctx_.events.steps_signalled.publish(job, sig);
        return;
    }
    kill_on_nodes({job.nodes.front()}, job.id, sig, terminate, "signal it", cause);
}

void JobManager::send_signal(Job &job, int sig, SignalScope scope) {
    if (job.nodes.empty()) return;
    if (scope != SignalScope::BatchShell) ctx_.events.steps_signalled.publish(job, sig);
    if (job.interactive || scope == SignalScope::Steps) return; // no batch step to reach
    if (scope == SignalScope::Full)
        return kill_on_nodes({job.nodes.front()}, job.id, sig, false, "signal it");
    // The shell alone: the batch step's "step" signal, which its node gives the script only.
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(proto::CreateMessage(
        fbb, proto::Body::StepSignalRequest,
        proto::CreateStepSignalRequest(fbb, job.id, DROVER_STEP_BATCH, sig).Union(), ctx_.epoch));
    tell_nodes({nodes_.at(job.nodes.front()).conf->name}, fbb, job.id, "signal its batch shell");
}

void JobManager::tick() {
    int64_t now = Ctx::now();
    std::vector<uint32_t> old;
    uint32_t min_age = ctx_.conf.min_job_age;
    for (auto &[id, j] : jobs_) {
        // --signal: warn the job ahead of its limit, once.
        // Both against the limit moved on by the time the job spent suspended.
        int64_t limit_end = j->running() ? job_limit_end(*j) : INT64_MAX;
        if (j->running() && j->extra && j->ext().signal_num && !j->ext().signal_sent &&
            limit_end != INT64_MAX && now >= limit_end - int64_t(j->ext().signal_secs)) {
            JobExtra &x = j->mutable_extra();
            x.signal_sent = true;
            persist(*j); // sent once per run, restarts included
            send_signal(*j, x.signal_num,
                        x.signal_batch_only ? SignalScope::BatchShell : SignalScope::Steps);
        }
        if (j->running() && !j->kill_sent && limit_end != INT64_MAX && now >= limit_end) {
            spdlog::info("job {} reached its time limit", id);
            j->timed_out = true;
            j->kill_sent = true;
            persist(*j); // after a restart it still ends TIMEOUT
            send_kill(*j, SIGTERM, true, proto::KillCause::TimeLimit);
        } else if (j->finished() && now - j->end_time >= int64_t(min_age)) {
            old.push_back(id);
        }
    }
    for (auto id : old) forget(id);
}

void JobManager::forget(uint32_t id) {
    if (Job *j = find(id); j && j->array_job_id && j->array_task_id != DROVER_NO_VAL)
        tasks_.erase({j->array_job_id, j->array_task_id});
    auto key = state::job_key(id);
    auto &t = ctx_.commit.txn();
    t.del(state::Table::Jobs, key);
    t.del(state::Table::Scripts, key);
    usage_.remove(id);
    licenses_.remove(id);
    jobs_.erase(id);
    last_change_ = Ctx::now();
}

net::Routes JobManager::routes() {
    using net::Caller;
    // Each decides per job (owner or admin, PrivateData) inside.
    return {
        {proto::Body::JobSubmitRequest, Caller::Anyone, net::member(this, &JobManager::on_submit)},
        {proto::Body::JobInfoRequest, Caller::Anyone, net::member(this, &JobManager::on_info)},
        {proto::Body::JobUpdateRequest, Caller::Anyone, net::member(this, &JobManager::on_update)},
        {proto::Body::JobScriptRequest, Caller::Anyone, net::member(this, &JobManager::on_script)},
        {proto::Body::LicenseInfoRequest, Caller::Anyone,
         net::member(this, &JobManager::on_licenses)},
        // Node daemons report batch ends; salloc and srun release their own allocations.
        {proto::Body::JobCompleteRequest, Caller::Anyone,
         net::member(this, &JobManager::on_complete)}};
}

void JobManager::on_complete(const std::shared_ptr<net::Request> &req,
                             const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_JobCompleteRequest();
    Job *job = find(r->job_id());
    // salloc and srun release their own allocations; batch ends come from the node daemons.
    bool owner_release = job && job->interactive && job->uid == req->peer.uid;
    if (!ctx_.is_admin(req->peer.uid) && !owner_release)
        return resp->error(DROVER_EPERM, "job completion must come from SlurmUser");
    if (job && !job->interactive && r->restart_count() != job->restart_count) {
        // The end of an earlier run (requeued since), reported late: this run goes on.
        spdlog::info("job {}: end of run {} ignored (run {} is current)", job->id,
                     r->restart_count(), job->restart_count);
        job = nullptr;
    }
    if (job && job->running() && job->requeue_when_ended)
        requeue_job(*job, job->hold_when_requeued);
    else if (job && job->running() && !requeue_on_exit(*job, *r))
        batch_ended(*job, *r);
    ctx_.commit.after_commit([resp] { resp->ok(); });
}

void JobManager::batch_ended(Job &job, const proto::JobCompleteRequest &r) {
    uint32_t state;
    int32_t status = r.exit_status();
    if (job.state_flags & DROVER_JOB_FLAG_PREEMPTED)
        state = DROVER_JOB_PREEMPTED;
    else if (job.cancelled_by != DROVER_NO_VAL)
        state = DROVER_JOB_CANCELLED;
    else if (job.timed_out)
        state = DROVER_JOB_TIMEOUT;
    else if (r.failed_to_launch())
        state = DROVER_JOB_FAILED;
    else if (r.state() == DROVER_JOB_OOM)
        state = DROVER_JOB_OOM;
    else
        state = status == 0 ? DROVER_JOB_COMPLETE : DROVER_JOB_FAILED;
    if (r.failed_to_launch() && r.message()) job.reason = r.message()->str();
    if (state == DROVER_JOB_OOM) {
        // As Slurm shows it: Reason=OutOfMemory, ExitCode 0:125 (its SIG_OOM, 253).
        job.reason = "OutOfMemory";
        status = kSigOom;
    }
    end_job(job, state, status);
    if (!job.interactive && !job.nodes.empty())
        record_batch_step(ctx_, job, nodes_.at(job.nodes.front()).conf->name,
                          state == DROVER_JOB_TIMEOUT ? uint32_t(DROVER_JOB_CANCELLED) : state,
                          r.usage() ? net::usage_from_proto(*r.usage()) : StepUsageSummary{});
}

} // namespace drover::ctld
