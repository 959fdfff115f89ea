// job_control.cpp - what users do to jobs after submitting them: look (squeue, scontrol show job),
// signal or cancel (scancel), hold, release and update (scontrol). Users may act only on their own
// jobs; root and SlurmUser on any. With PrivateData=jobs users see only their own (privacy.hpp).
// The signal message itself is served by job_signals.cpp, which reaches steps too.
#include <csignal>
#include <unordered_set>
#include <spdlog/spdlog.h>

#include <drover/proctrack.h>

#include "common/ascii.hpp"
#include "common/timefmt.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_submit_hook.hpp"
#include "plugin/plugin_set.hpp"
#include "ctld/jobs/job_record.hpp"
#include "ctld/jobs/partition_list.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/privacy.hpp"

namespace drover::ctld {

void JobManager::on_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_JobInfoRequest();
    // Asked for what changed since a time after the last change: no job list at all (an empty
    // one would say there are no jobs), as Slurm answers SLURM_NO_CHANGE_IN_DATA.
    if (r->since() > last_change_) {
        flatbuffers::FlatBufferBuilder fbb(64);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobInfoResponse,
                                        proto::CreateJobInfoResponse(fbb, 0, Ctx::now()).Union()));
        return resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    }
    Viewer viewer(ctx_, req->peer.uid); // PrivateData=jobs: a job it may not see is not there
    std::vector<const Job *> pick;
    if (r->job_ids() && r->job_ids()->size()) {
        // An array's id names every task of the array, as in Slurm.
        // A heterogeneous job's leader names every component of it.
        std::unordered_set<const Job *> seen;
        for (auto id : *r->job_ids())
            for (const Target &t : resolve(std::to_string(id)))
                if (t.job)
                    for (const Job *c : het_named(*t.job))
                        if (viewer.sees_job(*c) && seen.insert(c).second) pick.push_back(c);
        if (pick.empty()) return resp->error(DROVER_ENOENT, kInvalidJobId);
    } else {
        // A federated job's revoked copies are listed only when asked for (squeue --sibling):
        // the member that runs it lists it.
        const bool revoked_too = r->fed_track();
        pick.reserve(jobs_.size());
        for (const auto &[id, j] : jobs_)
            if (viewer.sees_job(*j) && (revoked_too || !(j->state_flags & DROVER_JOB_FLAG_REVOKED)))
                pick.push_back(j.get());
    }
    flatbuffers::FlatBufferBuilder fbb(1024 + pick.size() * 400);
    std::vector<flatbuffers::Offset<proto::JobInfo>> out;
    out.reserve(pick.size());
    auto namer = [this](const std::vector<uint32_t> &n) { return nodes_.names(n); };
    for (const Job *j : pick)
        out.push_back(write_job_info(fbb, *j, namer, ctx_.conf.cluster_name, true));
    auto v = fbb.CreateVector(out);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobInfoResponse,
                                    proto::CreateJobInfoResponse(fbb, v, Ctx::now()).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

Status JobManager::signal_targets(const proto::JobSignalRequest &r, uint32_t uid,
                                  std::vector<Target> *targets,
                                  std::vector<std::pair<Target, uint32_t>> *step_targets) {
    if (r.job_specs() && r.job_specs()->size()) {
        for (const auto *spec : *r.job_specs()) {
            std::string text = spec->str();
            auto dot = text.rfind('.');
            if (dot == std::string::npos) {
                for (auto &t : resolve(text)) targets->push_back(std::move(t));
                continue;
            }
            uint32_t step = DROVER_NO_VAL;
            std::string s = text.substr(dot + 1);
            if (s == "batch")
                step = DROVER_STEP_BATCH;
            else if (!s.empty() && s.find_first_not_of("0123456789") == std::string::npos &&
                     s.size() < 10)
                step = uint32_t(std::stoul(s));
            for (auto &t : resolve(text.substr(0, dot))) {
                t.label = text;
                step_targets->emplace_back(std::move(t), step);
            }
        }
        return {};
    }
    if (r.job_ids() && r.job_ids()->size()) {
        for (auto id : *r.job_ids())
            for (auto &t : resolve(std::to_string(id))) targets->push_back(std::move(t));
        return {};
    }
    bool any_filter = r.user_id() != DROVER_NO_VAL || (r.name() && r.name()->size()) ||
                      (r.states() && r.states()->size()) ||
                      (r.partition() && r.partition()->size());
    if (!any_filter) return {DROVER_EINVAL, "No job identification provided"};
    Viewer viewer(ctx_, uid); // filters reach only the jobs the user may see, as in Slurm
    for (auto &[id, j] : jobs_) {
        if (j->finished() || !viewer.sees_job(*j)) continue;
        // A heterogeneous job's component goes with its leader (which the filters reach too).
        if (const Job &lead = het_leader(*j); &lead != j.get() && !lead.finished()) continue;
        if (r.user_id() != DROVER_NO_VAL && j->uid != r.user_id()) continue;
        if (r.name() && r.name()->size() && j->name != r.name()->str()) continue;
        if (r.partition() && r.partition()->size() &&
            !names_partition(j->partition, r.partition()->string_view()))
            continue;
        if (r.states() && r.states()->size() &&
            std::find(r.states()->begin(), r.states()->end(), j->state) == r.states()->end())
            continue;
        targets->push_back({std::to_string(id), j.get()});
    }
    return {};
}

Status JobManager::signal_job_target(const Target &t, int sig, uint32_t uid, SignalScope scope) {
    Job *j = t.job;
    if (!j) return {DROVER_ENOENT, kInvalidJobId};
    if (!ctx_.is_admin(uid) && j->uid != uid) return access_denied();
    bool pending = t.pending_task != DROVER_NO_VAL || j->pending();
    if (Status s = het_signal_check(*j); !s.ok()) return s;
    if (pending && sig != SIGKILL) return {DROVER_EBUSY, "Job is pending execution"};
    if (t.pending_task != DROVER_NO_VAL) {
        cancel_pending_task(*j, t.pending_task, uid);
    } else if (j->finished()) {
        return {DROVER_EINVAL, "Job/step already completing or completed"};
    } else if (j->pending()) {
        j->cancelled_by = uid;
        j->reason = "None";
        end_job(*j, DROVER_JOB_CANCELLED, 0);
    } else if (sig == SIGKILL) {
        j->cancelled_by = uid;
        j->kill_sent = true;
        persist(*j);
        if (j->interactive)
            end_job(*j, DROVER_JOB_CANCELLED, 0);
        else
            send_kill(*j, SIGTERM, true, proto::KillCause::Cancelled);
    } else {
        // A heterogeneous job's leader: the signal reaches every running component, as Slurm's.
        for (Job *c : het_named(*j))
            if (c->running()) send_signal(*c, sig, scope);
    }
    return {};
}

void JobManager::on_update(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_JobUpdateRequest();
    uint32_t uid = req->peer.uid;
    bool admin = ctx_.is_admin(uid);
    // The jobs meant: one job, an array task, or every task of an array. A task still waiting in
    // its array's record is split out first, so that it can differ from the rest.
    std::string spec =
        r->job_spec() && r->job_spec()->size() ? r->job_spec()->str() : std::to_string(r->job_id());
    std::vector<Job *> jobs;
    for (const Target &t : resolve(spec)) {
        if (!t.job) return resp->error(DROVER_ENOENT, kInvalidJobId);
        if (!admin && t.job->uid != uid) return resp->error(DROVER_EPERM, kAccessDenied);
        Job *j = t.pending_task == DROVER_NO_VAL ? t.job : split_array_task(*t.job, t.pending_task);
        if (j) jobs.push_back(j);
    }
    if (jobs.empty()) return resp->error(DROVER_ENOENT, kInvalidJobId);
    // A heterogeneous job's leader names every component for a change or a hold (an action,
    // which the leader takes for them all, names the leader).
    if (jobs.size() == 1 && !(r->action() && r->action()->size())) jobs = het_named(*jobs.front());
    if (jobs.size() == 1 && update_forward_ && update_forward_(*jobs.front(), req, resp)) return;
    // Across a whole array, tasks for which the change makes no sense (already ended) are
    // passed over; it fails only when it applied to none.
    Status first_refusal;
    std::size_t applied = 0;
    for (Job *j : jobs) {
        Status s = update_job(*j, *r, uid, admin);
        if (s.ok())
            ++applied;
        else if (first_refusal.ok())
            first_refusal = s;
    }
    if (applied == 0 || (jobs.size() == 1 && !first_refusal.ok()))
        return resp->error(first_refusal.code(), first_refusal.text());
    if (jobs.size() == 1 && updated_) updated_(*jobs.front(), req);
    ctx_.events.queue_changed.publish();
    ctx_.commit.after_commit([resp] { resp->ok(); });
}

Status JobManager::update_job(Job &job, const proto::JobUpdateRequest &r, uint32_t uid,
                              bool admin) {
    std::string action = r.action() ? ascii_lower(r.action()->str()) : "";
    if (!action.empty()) return job_action(job, action, admin);
    // Validate everything first, then apply: a refused update changes nothing.
    Job next = job;
    if (r.hold() >= 0)
        if (Status s = update_hold(next, r.hold(), admin); !s.ok()) return s;
    UpdateFields fields;
    if (r.fields())
        for (const auto *kv : *r.fields())
            fields.emplace_back(kv->key() ? kv->key()->str() : "",
                                kv->value() ? kv->value()->str() : "");
    // JobSubmitPlugins see the change first and may alter or refuse it (slurm_job_modify).
    if (Status s = run_job_modify(ctx_.plugins.job_submit_calls(), fields, job.id, uid, job.gid,
                                  user_name(uid));
        !s.ok())
        return s;
    for (const auto &[key, val] : fields) {
        Status s;
        try {
            s = update_field(next, ascii_lower(key), key, val, admin);
        } catch (const std::exception &) {
            return invalid("Invalid " + key + " value: " + val);
        }
        if (!s.ok()) return s;
    }
    if (next.pending()) {
        Partition *part = nullptr;
        if (Status s = validate(next, part, next.uid, next.gid); !s.ok()) return s;
    }
    job = std::move(next);
    persist(job);
    return {};
}

// scontrol requeue, requeuehold, top, suspend and resume.
Status JobManager::job_action(Job &job, const std::string &action, bool admin) {
    Job *j = &job;
    if (action != "top")
        if (Status s = het_leader_only(job); !s.ok()) return s;
    if (action == "suspend" || action == "resume") { // operators and administrators only
        if (!admin) return access_denied();
        for (Job *c : het_components(job)) // every component of a heterogeneous job
            if (Status s = action == "suspend" ? suspend_job(*c, false) : resume_job(*c); !s.ok())
                return s;
        return {};
    }
    // "specialexit": scontrol requeuehold State=SpecialExit.
    if (action == "requeue" || action == "requeuehold" || action == "specialexit") {
        // A suspended job requeued is held, as in Slurm.
        bool hold = action != "requeue" || j->state == DROVER_JOB_SUSPENDED;
        // A job submitted with --no-requeue is refused to everyone, administrators too.
        if (!j->requeue) return {DROVER_EPERM, "Requested operation is presently disabled"};
        if (j->pending()) return invalid("Job is pending execution");
        if (action == "specialexit") j->state_flags |= DROVER_JOB_FLAG_SPECIAL_EXIT;
        if (j->running()) {
            j->requeue_when_ended = true;
            j->hold_when_requeued = hold;
            j->kill_sent = true;
            persist(*j); // a restart before its end still requeues it
            send_kill(*j, SIGTERM, true, proto::KillCause::Requeued);
        } else {
            requeue_job(*j, hold);
        }
        return {};
    }
    if (action == "top") {
        if (!j->pending()) return invalid("Job is no longer pending execution");
        if (j->hold != Hold::None) return invalid("Job is held");
        uint32_t top = j->priority;
        for (auto &[id, other] : jobs_)
            if (other->pending() && other->uid == j->uid && other->partition == j->partition)
                top = std::max(top, other->priority);
        if (top != j->priority || top == 0) j->priority = top == 0xffffffffu ? top : top + 1;
        j->state_flags |= DROVER_JOB_FLAG_PRIO_SET;
        persist(*j);
        return {};
    }
    return invalid("Unknown action: " + action);
}

// scontrol hold, uhold (1), release (0) and admin hold (2), on the copy next.
Status JobManager::update_hold(Job &next, int hold, bool admin) {
    if (!next.pending()) return invalid("Job is no longer pending execution");
    if (hold == 2 && !admin) return access_denied();
    if (hold == 0 && next.hold == Hold::Admin && !admin) return access_denied();
    next.hold = Hold(hold);
    next.reason = hold == 0 ? "None" : hold == 1 ? "JobHeldUser" : "JobHeldAdmin";
    if (hold == 0) next.state_flags &= ~DROVER_JOB_FLAG_SPECIAL_EXIT; // released: PENDING again
    if (hold == 0 && next.priority == 0) {
        next.state_flags &= ~DROVER_JOB_FLAG_PRIO_SET;
        next.priority = initial_priority(next);
    }
    if (hold != 0) next.priority = 0;
    return {};
}

// One Key=Value of scontrol update job, on the copy next; throws on a value that does not parse.
Status JobManager::update_field(Job &next, const std::string &key, const std::string &key_as_given,
                                const std::string &val, bool admin) {
    if (key == "timelimit") {
        uint32_t t = parse_time_limit(val);
        if (!admin &&
            (t == kInfinite || (next.time_limit_min != kInfinite && t > next.time_limit_min)))
            return access_denied();
        next.time_limit_min = t;
    } else if (key == "name" || key == "jobname") {
        next.name = val;
    } else if (key == "comment") {
        next.comment = val;
    } else if (key == "nice") {
        int n = std::stoi(val);
        if (n < 0 && !admin) return access_denied();
        if (next.priority)
            next.priority = uint32_t(
                std::clamp<int64_t>(int64_t(next.priority) + next.nice - n, 1, 0xfffffffeLL));
        next.nice = n;
    } else if (key == "dependency") {
        JobExtra &x = next.mutable_extra();
        if (Status s = read_dependency(val, next.id, &x.orig_dependency, &x.dependency); !s.ok())
            return s;
    } else if (key == "features" || key == "constraint" || key == "constraints") {
        if (!next.pending()) return invalid("Job is no longer pending execution");
        next.mutable_extra().constraint = val;
    } else if (key == "starttime" || key == "begintime") {
        if (!next.pending()) return invalid("Job is no longer pending execution");
        next.eligible_time = parse_timestamp(val, Ctx::now());
    } else if (key == "requeue") {
        next.requeue = val != "0";
    } else if (key == "priority") {
        if (!admin) return access_denied();
        next.priority = uint32_t(std::stoul(val));
        next.state_flags |= DROVER_JOB_FLAG_PRIO_SET;
        if (next.priority == 0 && next.hold == Hold::None) {
            next.hold = Hold::Admin; // as Slurm: priority 0 is an admin hold
            next.reason = "JobHeldAdmin";
        }
    } else if (key == "partition") {
        if (!next.pending()) return invalid("Job is no longer pending execution");
        for (const auto &name : partition_names(val))
            if (!nodes_.partition(name)) return invalid("Invalid partition name specified");
        next.partition = val; // validate() keeps those of a list that take the job
    } else if (key == "numnodes") {
        if (!next.pending()) return invalid("Job is no longer pending execution");
        auto dash = val.find('-');
        next.min_nodes = uint32_t(std::stoul(val.substr(0, dash)));
        next.max_nodes =
            dash == std::string::npos ? next.min_nodes : uint32_t(std::stoul(val.substr(dash + 1)));
    } else {
        return invalid("Update of this parameter is not supported: " + key_as_given);
    }
    return {};
}

} // namespace drover::ctld
