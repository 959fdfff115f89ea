// job_signals.cpp - the signal request: its targets, each answered on its own.
#include "ctld/jobs/job_signals.hpp"

#include <csignal>

#include <drover/proctrack.h>

#include "ctld/fed/federation.hpp"
#include "ctld/store/committer.hpp"
#include "proto/fb_read.hpp"
#include "ctld/privacy.hpp"
#include "ctld/steps/step_mgr.hpp"

namespace drover::ctld {

namespace {

flatbuffers::Offset<proto::NodeResult>
result(flatbuffers::FlatBufferBuilder &fbb, const std::string &id, int rc, const std::string &msg) {
    return proto::CreateNodeResultDirect(fbb, id.c_str(), rc, msg.empty() ? nullptr : msg.c_str());
}

} // namespace

net::Routes JobSignals::routes() {
    return {{proto::Body::JobSignalRequest, net::Caller::Anyone,
             net::member(this, &JobSignals::on_signal)}};
}

void JobSignals::on_signal(const std::shared_ptr<net::Request> &req,
                           const net::ResponderPtr &resp) {
    const auto &r = *req->msg->body_as_JobSignalRequest();
    uint32_t uid = req->peer.uid;
    int sig = r.signal();
    if (sig < 0 || sig > 64) return resp->error(DROVER_EINVAL, "Invalid signal specified");
    std::vector<JobManager::Target> targets;
    std::vector<std::pair<JobManager::Target, uint32_t>> step_targets; // "123.4": a step of a job
    if (Status s = jobs_.signal_targets(r, uid, &targets, &step_targets); !s.ok())
        return resp->error(s.code(), s.text());

    // scancel -b: the batch shell alone; -f: everything; neither: the steps (as Slurm).
    auto scope = r.full()         ? JobManager::SignalScope::Full
                 : r.batch_only() ? JobManager::SignalScope::BatchShell
                                  : JobManager::SignalScope::Steps;
    flatbuffers::FlatBufferBuilder fbb(256 + targets.size() * 64);
    std::vector<flatbuffers::Offset<proto::NodeResult>> results;
    for (auto &[t, step] : step_targets) {
        Status s = signal_step_target(t, step, sig, uid);
        results.push_back(result(fbb, t.label, s.code(), s.text()));
    }
    const std::string sibling = proto::str(r.sibling());
    for (const JobManager::Target &t : targets) {
        Status s =
            sibling.empty() ? signal_target(t, sig, uid, scope) : remove_sibling(t, sibling, uid);
        results.push_back(result(fbb, t.label, s.code(), s.text()));
    }
    auto v = fbb.CreateVector(results);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobSignalResponse,
                                    proto::CreateJobSignalResponse(fbb, v).Union()));
    std::vector<uint8_t> msg(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    ctx_.commit.after_commit([resp, msg = std::move(msg)] { resp->reply(msg); });
}

Status JobSignals::signal_target(const JobManager::Target &t, int sig, uint32_t uid,
                                 JobManager::SignalScope scope) {
    Job *j = t.job;
    if (j && sig != SIGKILL && t.pending_task == DROVER_NO_VAL && signal_forward_ &&
        (ctx_.is_admin(uid) || j->uid == uid) && signal_forward_(*j, sig, scope, uid))
        return {};
    return jobs_.signal_job_target(t, sig, uid, scope);
}

Status JobSignals::signal_step_target(const JobManager::Target &t, uint32_t step, int sig,
                                      uint32_t uid) {
    Job *j = t.job;
    if (!j || step == DROVER_NO_VAL) return {DROVER_ENOENT, kInvalidJobId};
    if (!ctx_.is_admin(uid) && j->uid != uid) return access_denied();
    if (!j->running()) return {DROVER_EINVAL, "Job/step already completing or completed"};
    if (step == DROVER_STEP_BATCH) {
        jobs_.send_kill(*j, sig == SIGKILL ? SIGTERM : sig, false);
        return {};
    }
    return steps_.signal_step(*j, step, sig, sig == SIGKILL, uid);
}

Status JobSignals::remove_sibling(const JobManager::Target &t, std::string_view cluster,
                                  uint32_t uid) {
    Job *j = t.job;
    if (!j) return {DROVER_ENOENT, kInvalidJobId};
    if (!ctx_.is_admin(uid) && j->uid != uid) return access_denied();
    const FedView &view = ctx_.fed->view();
    const uint32_t self = view.self_id();
    const JobExtra &x = j->ext();
    // Slurm's refusals: not a job of this origin with siblings, a cluster not of the federation.
    if (!self || fed_origin(j->id) != self || !(x.siblings_viable & ~fed_bit(self)))
        return invalid("Not a valid federated job");
    const FedCluster *member = view.member(cluster);
    if (!member) return invalid("Invalid cluster name");
    if (j->finished()) return invalid("Job/step already completing or completed");
    if (!j->pending() || (x.cluster_lock && x.cluster_lock != self))
        return {DROVER_EBUSY, "Job locked by another sibling"};
    const uint64_t left = x.siblings_viable & ~fed_bit(member->id);
    if (!left) return jobs_.signal_job_target(t, SIGKILL, uid);
    // The origin's sweep revokes that member's copy; the origin's own is revoked here.
    if (member->id == self) j->state_flags |= DROVER_JOB_FLAG_REVOKED;
    JobExtra &changed = j->mutable_extra();
    changed.siblings_viable = left;
    if (member->id == self) changed.siblings_active &= ~fed_bit(self);
    jobs_.persist(*j);
    return {};
}

} // namespace drover::ctld
