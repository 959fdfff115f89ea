// fed_jobs.cpp - sibling jobs: the component, the origin's sweep over its federated jobs, and
// what the members tell each other (fed_vote.cpp: who may start a job; fed_sync.cpp: the origin
// asking the members how its jobs stand there).
#include "ctld/fed/fed_jobs_impl.hpp"

#include "proto/fb_read.hpp"

#include <chrono>
#include <csignal>
#include <spdlog/spdlog.h>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_script.hpp"
#include "ctld/store/committer.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "proto/frame.hpp"
#include "state/store.hpp"

namespace drover::ctld {

using fed::each_member;
using fed::FedMsg;
using fed::Op;

namespace {

constexpr std::chrono::seconds kSweepPeriod{1};
constexpr int kCallTimeoutMs = 5000;

std::vector<uint8_t> encode(const FedMsg &m, uint32_t sender) {
    flatbuffers::FlatBufferBuilder fbb(256 + m.submit.size());
    auto submit = m.submit.empty() ? 0 : fbb.CreateVector(m.submit);
    auto request = m.request.empty() ? 0 : fbb.CreateVector(m.request);
    auto body = proto::CreateFedJobRequest(fbb, m.op, m.job_id, sender, submit, m.uid, m.gid,
                                           m.viable, m.state, m.exit_status, m.start_time,
                                           m.end_time, request, m.signal, m.scope);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::FedJobRequest, body.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

void reply_ok(const net::ResponderPtr &resp) {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::OkResponse, proto::CreateOkResponse(fbb).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace

uint64_t fed::voters(const Job &job) {
    return job.ext().siblings_viable | fed_bit(fed_origin(job.id));
}

FedJobs::Impl::Impl(Ctx &c, JobManager &j, const Federation &f)
    : ctx(c), jobs(j), fed(f), timer(c.io) {}

bool FedJobs::Impl::send(uint32_t member, const FedMsg &m, Done done) {
    return call(member, m.job_id, encode(m, self()),
                [done = std::move(done)](const std::string &error, const net::Reply *reply) {
                    if (!error.empty() || !reply) return done(false, 0, error);
                    if (const auto *e = reply->msg->body_as_ErrorResponse())
                        return done(false, e->code(), proto::str(e->message()));
                    done(true, 0, {});
                });
}

bool FedJobs::Impl::call(uint32_t member, uint32_t id, std::vector<uint8_t> msg,
                         std::function<void(const std::string &, const net::Reply *)> done) {
    // A member whose controller did not answer the last ping is not called: each call to it
    // would hold a worker for the whole timeout.
    const FedCluster *c = fed.view().member(member);
    if (!c || c->controllers.empty() || !c->port || !fed.answers(c->name) ||
        !in_flight.emplace(id, member).second)
        return false;
    const auto &h = c->controllers.front();
    ctx.pool.call(h.addr, c->port, h.name, std::move(msg), ctx.auth.self_signer(), kCallTimeoutMs,
                  [this, member, id, done = std::move(done)](const std::string &error,
                                                             std::shared_ptr<net::Reply> reply) {
                      in_flight.erase({id, member});
                      done(error, reply.get());
                  });
    return true;
}

void FedJobs::Impl::post(uint32_t member, const FedMsg &m) {
    outbox[{m.job_id, m.op, member}] = m;
}

void FedJobs::Impl::flush_outbox() {
    for (const auto &[key, m] : outbox) {
        const auto k = key;
        send(std::get<2>(k), m, [this, k](bool ok, int code, const std::string &) {
            if (ok || code) outbox.erase(k); // heard (a refusal: it no longer has the job)
        });
    }
}

void FedJobs::Impl::persist_after(Job &job, const std::function<void(JobExtra &)> &change) {
    change(job.mutable_extra());
    jobs.persist(job);
}

void FedJobs::Impl::arm() {
    timer.expires_after(kSweepPeriod);
    timer.async_wait([this](const boost::system::error_code &ec) {
        if (ec) return;
        sweep();
        arm();
    });
}

// The origin's jobs that have siblings to send or revoke, what others are still to hear, the
// locks left unused, and (every so often) how the origin's jobs stand on the members.
void FedJobs::Impl::sweep() {
    if (!self()) return drop_orphan_copies();
    std::vector<uint32_t> ids;
    jobs.each([&](const Job &j) {
        if (fed_origin(j.id) == self() && (j.ext().siblings_viable & ~fed_bit(self())))
            ids.push_back(j.id);
    });
    for (uint32_t id : ids)
        if (Job *j = jobs.find(id)) sweep_origin_job(*j);
    flush_outbox();
    give_back_unused_locks();
    sync();
    poll_remote_jobs();
    leave_when_drained();
}

// Outside a federation (deleted, or this cluster taken out of it) the copies other members' origins
// sent that still wait are removed (REVOKED), as Slurm removes them; jobs that run go on. Only once
// the associations are loaded: before, a restarting controller does not know its federation yet.
void FedJobs::Impl::drop_orphan_copies() {
    // Every job is looked at: every 30 s, not at each sweep, on a cluster in no federation.
    const int64_t now = Ctx::now();
    if (!ctx.acct.assocs().loaded() || now - last_orphan_check < 30) return;
    last_orphan_check = now;
    std::vector<uint32_t> ids;
    jobs.each([&](const Job &j) {
        if (j.pending() && sibling_copy(j)) ids.push_back(j.id);
    });
    for (uint32_t id : ids) {
        Job *j = jobs.find(id);
        if (!j) continue;
        spdlog::info("federation: job {}'s copy removed: this cluster is in no federation", id);
        end_revoked(*j);
    }
}

// FedState=DRAIN+REMOVE: once no federated job waits or runs here (its own, or copies), the
// cluster leaves its federation.
void FedJobs::Impl::leave_when_drained() {
    const FedCluster *c = fed.view().self();
    if (!c || c->state != FedState::DrainRemove) {
        leaving = false;
        return;
    }
    if (leaving || !leave) return;
    bool busy = false;
    jobs.each([&](const Job &j) {
        busy = busy || (!j.finished() && (fed::voters(j) & ~fed_bit(self())));
    });
    if (busy) return;
    leaving = true;
    leave();
}

void FedJobs::Impl::sweep_origin_job(Job &job) {
    const JobExtra &x = job.ext();
    const uint64_t me = fed_bit(self());
    const uint64_t others = x.siblings_active & ~me;
    if (!job.pending()) {
        // Ended or running here: no sibling may wait elsewhere (one that ran it is told too,
        // which it ignores once its copy has ended).
        if (job.finished() || x.cluster_lock == self()) revoke(job, others);
        return;
    }
    // The origin's own vote for itself, from a start here that did not happen.
    if (x.cluster_lock == self() && !gathering.count(job.id) && !lock_held.count(job.id))
        persist_after(job, [](JobExtra &e) { e.cluster_lock = 0; });
    // Copies stay where the job may run: only with the member that runs it once one does, and
    // nowhere else while the job is held or waits for a dependency.
    const uint32_t at = runner(job);
    const bool eligible =
        job.hold == Hold::None && x.dependency.empty() && job.eligible_time <= Ctx::now();
    const uint64_t keep = at ? fed_bit(at) : eligible ? x.siblings_viable : 0;
    revoke(job, others & ~keep);
    if (!at && eligible) submit_siblings(job, x.siblings_viable & ~x.siblings_active & ~me);
}

void FedJobs::Impl::submit_siblings(Job &job, uint64_t missing) {
    if (!missing) return;
    std::optional<std::vector<uint8_t>> rec;
    const proto::JobDesc *d = stored_desc(ctx.store, job, rec);
    if (!d) return;
    FedMsg m{Op::Submit, job.id, job.uid, job.gid};
    m.viable = job.ext().siblings_viable;
    m.submit = current_submission(*d, job); // with what changed since it was submitted
    each_member(missing, [&](uint32_t member) {
        send(member, m, [this, id = job.id, member](bool ok, int code, const std::string &text) {
            Job *j = jobs.find(id);
            if (!j || (!ok && !code)) return; // unreachable: tried again by the next sweep
            if (ok)
                return persist_after(*j,
                                     [&](JobExtra &x) { x.siblings_active |= fed_bit(member); });
            // The member refused it (no such partition there, a limit): not viable there.
            spdlog::info("federation: job {} not viable on {}: {}", id,
                         member_names(fed.view(), fed_bit(member)), text);
            persist_after(*j, [&](JobExtra &x) { x.siblings_viable &= ~fed_bit(member); });
        });
    });
}

void FedJobs::Impl::revoke(Job &job, uint64_t members) {
    FedMsg m{Op::Revoke, job.id, job.cancelled_by == DROVER_NO_VAL ? job.uid : job.cancelled_by};
    each_member(members, [&](uint32_t member) {
        send(member, m, [this, id = job.id, member](bool ok, int code, const std::string &) {
            Job *j = jobs.find(id);
            if (j && (ok || code))
                persist_after(*j, [&](JobExtra &x) { x.siblings_active &= ~fed_bit(member); });
        });
    });
}

// This controller started a federated job: every other voter hears it (a member's copy that
// waits is revoked at once, even while the origin is down; the origin follows the job).
void FedJobs::Impl::started(const Job &job) {
    lock_held.erase(job.id);
    FedMsg m{Op::Started, job.id};
    m.start_time = job.start_time;
    each_member(fed::voters(job) & ~fed_bit(self()), [&](uint32_t member) { post(member, m); });
    flush_outbox();
}

// A federated job that ran here ended, or was requeued.
void FedJobs::Impl::ended(const Job &job) {
    if (fed_origin(job.id) == self()) {
        // Requeued on the origin: it may go to its siblings again.
        if (job.pending()) {
            Job *j = jobs.find(job.id);
            if (j) persist_after(*j, [](JobExtra &x) { x.cluster_lock = 0; });
        }
        return;
    }
    FedMsg m{Op::Ended, job.id};
    m.state = job.pending() ? uint32_t(DROVER_JOB_PENDING) : job.state;
    m.exit_status = job.exit_status;
    m.start_time = job.start_time;
    m.end_time = job.end_time;
    post(fed_origin(job.id), m);
    flush_outbox();
}

FedJobs::FedJobs(Ctx &ctx, JobManager &jobs, const Federation &fed)
    : impl_(std::make_unique<Impl>(ctx, jobs, fed)) {
    auto federated = [](const Job &j) { return j.ext().siblings_viable != 0; };
    ctx.events.job_started.subscribe([this, federated](const Job &j) {
        if (federated(j)) impl_->started(j);
    });
    ctx.events.job_ended.subscribe([this, federated](const Job &j) {
        if (federated(j)) impl_->ended(j);
    });
    impl_->arm();
}

FedJobs::~FedJobs() = default;

void FedJobs::set_leave(std::function<void()> leave) {
    impl_->leave = std::move(leave);
}

int FedJobs::may_start(Job &job, std::string &why) {
    return impl_->may_start(job, why);
}

void FedJobs::on_request(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp) {
    const auto *r = req->msg->body_as_FedJobRequest();
    Impl &im = *impl_;
    // Only a member of this cluster's federation, other than itself, speaks for a sibling job.
    if (!im.self() || r->sender() == im.self() || !im.fed.view().member(r->sender()))
        return resp->error(DROVER_EPERM, "not a member of this cluster's federation");
    Status s;
    bool changed = true;
    switch (r->op()) {
    case Op::Submit:
        s = im.on_submit(*r);
        break;
    case Op::Lock:
        s = im.on_lock(*r, changed);
        break;
    case Op::Unlock:
        im.on_unlock(*r);
        break;
    case Op::Started:
        im.on_started(r->job_id(), r->sender(), r->start_time());
        break;
    case Op::Revoke:
    case Op::Cancel: // a revoked copy that runs is cancelled
        im.on_revoke(*r);
        break;
    case Op::Ended:
        im.on_ended(*r);
        break;
    case Op::Update:
        s = im.on_update(*r);
        break;
    case Op::Signal:
        s = im.on_signal(*r);
        break;
    default:
        return resp->error(DROVER_EINVAL, "unknown federation job request");
    }
    if (!s.ok()) return resp->error(s.code(), s.text());
    if (!changed) return reply_ok(resp);
    // What it changed is durable before the sender hears so.
    im.ctx.commit.after_commit([resp] { reply_ok(resp); });
}

// on_started marks the origin's copy revoked with the member's start time.
uint32_t FedJobs::Impl::runner(const Job &job) const {
    const bool elsewhere = fed_origin(job.id) == self() && job.pending() &&
                           (job.state_flags & DROVER_JOB_FLAG_REVOKED) && job.start_time;
    return elsewhere && job.ext().cluster_lock != self() ? job.ext().cluster_lock : 0;
}

bool FedJobs::forward_update(Job &job, const std::shared_ptr<net::Request> &req,
                             const net::ResponderPtr &resp) {
    const uint32_t at = impl_->runner(job);
    if (!at) return false;
    FedMsg m{Op::Update, job.id, req->peer.uid};
    m.request = req->bytes;
    const std::string name = member_names(impl_->fed.view(), fed_bit(at));
    bool sent = impl_->send(at, m, [resp, name](bool ok, int code, const std::string &text) {
        if (ok) return resp->ok();
        if (code) return resp->error(code, text);
        resp->error(DROVER_EIO, "Unable to contact cluster " + name + ", which runs the job");
    });
    if (!sent) resp->error(DROVER_EBUSY, "Resource temporarily unavailable");
    return true;
}

void FedJobs::updated(const Job &job, const std::shared_ptr<net::Request> &req) {
    const uint32_t self = impl_->self();
    const uint64_t copies = job.ext().siblings_active & ~fed_bit(self);
    if (!self || fed_origin(job.id) != self || !job.pending() || !copies) return;
    FedMsg m{Op::Update, job.id, req->peer.uid};
    m.request = req->bytes;
    each_member(copies, [&](uint32_t member) { impl_->post(member, m); });
    impl_->flush_outbox();
}

bool FedJobs::forward_signal(Job &job, int sig, int scope, uint32_t uid) {
    const uint32_t at = impl_->runner(job);
    if (!at) return false;
    FedMsg m{Op::Signal, job.id, uid};
    m.signal = sig;
    m.scope = uint8_t(scope);
    impl_->post(at, m);
    impl_->flush_outbox();
    return true;
}

// A member's side: what the origin was asked (and did, for a waiting job) for the job whose copy
// this member holds.
Status FedJobs::Impl::on_update(const proto::FedJobRequest &r) {
    Job *j = jobs.find(r.job_id());
    const proto::Message *m = nullptr;
    if (!j || !r.request() ||
        !proto::verify_message({r.request()->data(), r.request()->size()},
                               proto::Body::JobUpdateRequest, &m)
             .empty())
        return {DROVER_ENOENT, kInvalidJobId};
    Status s = jobs.apply_update(*j, *m->body_as_JobUpdateRequest(), r.uid());
    if (s.ok()) ctx.events.queue_changed.publish();
    return s;
}

Status FedJobs::Impl::on_signal(const proto::FedJobRequest &r) {
    Job *j = jobs.find(r.job_id());
    if (!j) return {DROVER_ENOENT, kInvalidJobId};
    return jobs.signal_job_target({std::to_string(j->id), j}, r.signal(), r.uid(),
                                  JobManager::SignalScope(r.scope()));
}

Status FedJobs::Impl::on_submit(const proto::FedJobRequest &r) {
    if (fed_origin(r.job_id()) != r.sender())
        return invalid("sibling job " + std::to_string(r.job_id()) + " not from its origin");
    // INACTIVE, DRAIN and DRAIN+REMOVE members take no new federated job (the origin then counts
    // this one out of the job's viable members).
    if (const FedCluster *c = fed.view().self(); c && c->state != FedState::Active)
        return invalid(std::string("cluster is ") + fed_state_name(c->state) +
                       " in its federation");
    if (!r.submit()) return invalid("sibling job " + std::to_string(r.job_id()) + ": no job");
    return jobs.enter_sibling({r.submit()->data(), r.submit()->size()}, r.job_id(), r.uid(),
                              r.gid(), r.viable());
}

// member started job id. The origin's own copy is revoked (kept to follow the job; the sweep
// revokes the other copies); a member's copy that waits is revoked.
void FedJobs::Impl::on_started(uint32_t id, uint32_t member, int64_t start_time) {
    Job *j = jobs.find(id);
    if (!j || !j->pending()) return;
    if (fed_origin(id) != self()) return end_revoked(*j);
    if (j->state_flags & DROVER_JOB_FLAG_REVOKED && j->ext().cluster_lock == member) return;
    j->state_flags |= DROVER_JOB_FLAG_REVOKED;
    j->start_time = start_time;
    persist_after(*j, [&](JobExtra &x) {
        x.cluster_lock = member;
        x.siblings_active |= fed_bit(member);
    });
    jobs.account(DROVER_ACCT_JOB_START, *j); // its record, revoked: the member's shows the job
    spdlog::info("federation: job {} started on {}", id, member_names(fed.view(), fed_bit(member)));
}

// A member's side: the origin revoked this sibling (another member started the job, or it was
// cancelled, held or ended on the origin). One that waits ends REVOKED; one that runs is
// cancelled as the uid that cancelled it on the origin.
void FedJobs::Impl::on_revoke(const proto::FedJobRequest &r) {
    Job *j = jobs.find(r.job_id());
    if (!j || j->finished()) return;
    lock_held.erase(j->id);
    if (j->running()) {
        jobs.signal_job_target({std::to_string(j->id), j}, SIGKILL, r.uid());
        return;
    }
    end_revoked(*j);
}

// A copy that is not this member's to run ends REVOKED: one that waits here, cancelled; the
// origin's, as the member that ran the job ended it.
void FedJobs::Impl::end_revoked(Job &job, uint32_t state, int32_t exit_status) {
    job.state_flags |= DROVER_JOB_FLAG_REVOKED;
    job.reason = "None";
    jobs.end_job(job, state, exit_status);
}

// The origin's side: the job ended on the member that ran it (its copy ends alike, revoked),
// or was requeued there (it pends again, and may go to every viable member again).
void FedJobs::Impl::on_ended(const proto::FedJobRequest &r) {
    Job *j = fed_origin(r.job_id()) == self() ? jobs.find(r.job_id()) : nullptr;
    if (!j || !j->pending()) return;
    if (r.state() == DROVER_JOB_PENDING) {
        const uint64_t me = fed_bit(self());
        if (j->ext().siblings_viable & me) j->state_flags &= ~DROVER_JOB_FLAG_REVOKED;
        j->start_time = 0;
        persist_after(*j, [](JobExtra &x) { x.cluster_lock = 0; });
        return;
    }
    end_copy(*j, r.state(), r.exit_status(), r.start_time(), r.end_time());
}

// The origin's copy of a job another member ran ends as it ended there (revoked: the member's
// record is the job's).
void FedJobs::Impl::end_copy(Job &job, uint32_t state, int32_t exit_status, int64_t start,
                             int64_t end) {
    job.start_time = start;
    end_revoked(job, state, exit_status);
    job.end_time = end;
    jobs.persist(job);
}

} // namespace drover::ctld
