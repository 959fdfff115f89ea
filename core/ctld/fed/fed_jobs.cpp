// fed_jobs.cpp - sibling jobs: the origin's sweep over its federated jobs, the lock, and what
// the members tell each other.
#include "ctld/fed/fed_jobs.hpp"

#include "proto/fb_read.hpp"

#include <chrono>
#include <csignal>
#include <map>
#include <set>
#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_script.hpp"
#include "ctld/store/committer.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "proto/message_generated.h"
#include "state/store.hpp"

namespace drover::ctld {

namespace {

constexpr std::chrono::seconds kSweepPeriod{1};
constexpr int kCallTimeoutMs = 5000;
// A member that got a job's lock and has not started it by then gives it back.
constexpr int64_t kLockUnusedSecs = 10;
constexpr const char *kLockReason = "FedJobLock";
// How often the origin asks the member running a job of its how the job stands.
constexpr int64_t kFollowSecs = 15;

using Op = proto::FedJobOp;

// What one message says (the fields its op uses).
struct FedMsg {
    Op op = Op::Submit;
    uint32_t job_id = 0, uid = 0, gid = 0, state = 0;
    uint64_t viable = 0;
    int32_t exit_status = 0;
    int64_t start_time = 0, end_time = 0;
    std::vector<uint8_t> submit;
};

std::vector<uint8_t> encode(const FedMsg &m, uint32_t sender) {
    flatbuffers::FlatBufferBuilder fbb(256 + m.submit.size());
    auto submit = m.submit.empty() ? 0 : fbb.CreateVector(m.submit);
    auto body =
        proto::CreateFedJobRequest(fbb, m.op, m.job_id, sender, submit, m.uid, m.gid, m.viable,
                                   m.state, m.exit_status, m.start_time, m.end_time);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::FedJobRequest, body.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// Each member of a set, by federation id.
template <class Fn>
void each_member(uint64_t set, Fn &&fn) {
    for (uint32_t id = 1; id <= kMaxFedId; ++id)
        if (set & fed_bit(id)) fn(id);
}

void reply_ok(const net::ResponderPtr &resp) {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::OkResponse, proto::CreateOkResponse(fbb).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace

struct FedJobs::Impl {
    Ctx &ctx;
    JobManager &jobs;
    const Federation &fed;
    boost::asio::steady_timer timer;
    // Messages under way, by (job, member): one at a time for each.
    std::set<std::pair<uint32_t, uint32_t>> in_flight;
    // A member's side: locks asked for, locks held (since when), what the origin is still to hear.
    std::set<uint32_t> lock_asked;
    std::map<uint32_t, int64_t> lock_held, lock_refused;
    std::map<std::pair<uint32_t, Op>, FedMsg> to_origin;
    // The origin's side: when it last asked the member holding a job's lock how the job stands.
    std::map<uint32_t, int64_t> followed;

    Impl(Ctx &c, JobManager &j, const Federation &f) : ctx(c), jobs(j), fed(f), timer(c.io) {}

    uint32_t self() const { return fed.self_id(); }

    // Sends m to member; done(ok, error code, text) on the loop (code 0 and text: unreachable).
    // False when nothing was sent: the member is unknown or unregistered, or a message about
    // the job is already under way to it.
    bool send(uint32_t member, const FedMsg &m,
              std::function<void(bool, int, const std::string &)> done) {
        return call(member, m.job_id, encode(m, self()),
                    [done = std::move(done)](const std::string &error, const net::Reply *reply) {
                        if (!error.empty() || !reply) return done(false, 0, error);
                        if (const auto *e = reply->msg->body_as_ErrorResponse())
                            return done(false, e->code(), proto::str(e->message()));
                        done(true, 0, {});
                    });
    }
    // Sends a message about job id to member's controller, signed as this controller.
    bool call(uint32_t member, uint32_t id, std::vector<uint8_t> msg,
              std::function<void(const std::string &, const net::Reply *)> done) {
        const FedCluster *c = fed.view().member(member);
        if (!c || c->controllers.empty() || !c->port || !in_flight.emplace(id, member).second)
            return false;
        const auto &h = c->controllers.front();
        ctx.pool.call(h.addr, c->port, h.name, std::move(msg), ctx.auth.self_signer(),
                      kCallTimeoutMs,
                      [this, member, id, done = std::move(done)](
                          const std::string &error, std::shared_ptr<net::Reply> reply) {
                          in_flight.erase({id, member});
                          done(error, reply.get());
                      });
        return true;
    }

    void persist_after(Job &job, const std::function<void(JobExtra &)> &change) {
        change(job.mutable_extra());
        jobs.persist(job);
    }

    void sweep();
    void sweep_origin_job(Job &job);
    void submit_siblings(Job &job, uint64_t missing);
    void revoke(Job &job, uint64_t members);
    void tell_origin();
    void give_back_unused_locks();
    void ask_lock(const Job &job);
    void follow(const Job &job);
    void followed_to(uint32_t id, const proto::JobInfo &copy);
    void end_copy(Job &job, uint32_t state, int32_t exit_status, int64_t start, int64_t end);
    void started(const Job &job);
    void ended(const Job &job);
    void arm() {
        timer.expires_after(kSweepPeriod);
        timer.async_wait([this](const boost::system::error_code &ec) {
            if (ec) return;
            sweep();
            arm();
        });
    }

    // The receiving side of each op.
    Status on_submit(const proto::FedJobRequest &r);
    Status on_lock(const proto::FedJobRequest &r, bool &changed);
    void on_unlock(const proto::FedJobRequest &r);
    void on_started(const proto::FedJobRequest &r);
    void on_revoke(const proto::FedJobRequest &r);
    void on_ended(const proto::FedJobRequest &r);
};

// The origin's jobs that have siblings to send or revoke, and what members owe the origins.
void FedJobs::Impl::sweep() {
    if (!self()) return;
    std::vector<uint32_t> ids;
    jobs.each([&](const Job &j) {
        if (fed_origin(j.id) == self() && (j.ext().siblings_viable & ~fed_bit(self())))
            ids.push_back(j.id);
    });
    for (uint32_t id : ids)
        if (Job *j = jobs.find(id)) sweep_origin_job(*j);
    tell_origin();
    give_back_unused_locks();
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
    if (x.cluster_lock == self()) { // taken by a start here that did not happen
        persist_after(job, [](JobExtra &e) { e.cluster_lock = 0; });
        return;
    }
    if (x.cluster_lock) follow(job);
    // Copies stay where the job may run: only with the member that has the lock (it runs it,
    // or may start it now), and nowhere else while the job is held or waits for a dependency.
    const bool eligible =
        job.hold == Hold::None && x.dependency.empty() && job.eligible_time <= Ctx::now();
    const uint64_t keep = x.cluster_lock ? fed_bit(x.cluster_lock)
                          : eligible     ? x.siblings_viable
                                         : 0;
    revoke(job, others & ~keep);
    if (!x.cluster_lock && eligible)
        submit_siblings(job, x.siblings_viable & ~x.siblings_active & ~me);
}

void FedJobs::Impl::submit_siblings(Job &job, uint64_t missing) {
    if (!missing) return;
    std::optional<std::vector<uint8_t>> rec;
    if (!stored_desc(ctx.store, job, rec) || !rec) return;
    FedMsg m{Op::Submit, job.id, job.uid, job.gid};
    m.viable = job.ext().siblings_viable;
    m.submit = std::move(*rec);
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

void FedJobs::Impl::tell_origin() {
    for (const auto &[key, m] : to_origin) {
        const auto k = key;
        send(fed_origin(m.job_id), m, [this, k](bool ok, int code, const std::string &) {
            if (ok || code) to_origin.erase(k); // heard (a refusal: the origin no longer has it)
        });
    }
}

void FedJobs::Impl::give_back_unused_locks() {
    const int64_t now = Ctx::now();
    for (auto it = lock_held.begin(); it != lock_held.end();) {
        Job *j = jobs.find(it->first);
        if (j && j->pending() && now - it->second < kLockUnusedSecs) {
            ++it;
            continue;
        }
        if (j && j->pending())
            send(fed_origin(j->id), {Op::Unlock, j->id}, [](bool, int, auto &) {});
        it = lock_held.erase(it);
    }
    std::erase_if(lock_refused, [&](const auto &kv) { return now - kv.second >= kLockUnusedSecs; });
    std::erase_if(followed, [this](const auto &kv) {
        const Job *j = jobs.find(kv.first);
        return !j || !j->pending();
    });
}

// This member started a federated job: the origin revokes the others.
void FedJobs::Impl::started(const Job &job) {
    lock_held.erase(job.id);
    if (fed_origin(job.id) == self()) return; // the sweep revokes them
    FedMsg m{Op::Started, job.id};
    m.start_time = job.start_time;
    to_origin[{job.id, Op::Started}] = m;
    tell_origin();
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
    to_origin.erase({job.id, Op::Started});
    to_origin[{job.id, Op::Ended}] = m;
    tell_origin();
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

int FedJobs::may_start(Job &job, std::string &why) {
    const JobExtra &x = job.ext();
    const uint32_t self = impl_->self();
    if (!self || !(x.siblings_viable & ~fed_bit(self))) return DROVER_OK; // no siblings
    why = kLockReason;
    if (job.state_flags & DROVER_JOB_FLAG_REVOKED) return DROVER_EPERM;
    if (fed_origin(job.id) == self) {
        if (x.cluster_lock && x.cluster_lock != self) return DROVER_EPERM;
        // Persisted with the start; the sweep clears it if the start fails.
        job.mutable_extra().cluster_lock = self;
        return DROVER_OK;
    }
    if (impl_->lock_held.count(job.id)) return DROVER_OK;
    impl_->ask_lock(job);
    return DROVER_EBUSY;
}

// Asks the origin for the job's lock, unless asked already or refused in the last seconds; a
// grant asks for a scheduling pass, which starts the job.
void FedJobs::Impl::ask_lock(const Job &job) {
    const int64_t now = Ctx::now();
    if (auto it = lock_refused.find(job.id); it != lock_refused.end()) {
        if (now - it->second < kLockUnusedSecs / 2) return;
        lock_refused.erase(it);
    }
    if (!lock_asked.insert(job.id).second) return;
    bool sent = send(fed_origin(job.id), {Op::Lock, job.id},
                     [this, id = job.id](bool ok, int, const std::string &) {
                         lock_asked.erase(id);
                         if (!ok) {
                             lock_refused[id] = Ctx::now();
                             return;
                         }
                         lock_held[id] = Ctx::now();
                         ctx.events.queue_changed.publish();
                     });
    if (!sent) lock_asked.erase(job.id);
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
        im.on_started(*r);
        break;
    case Op::Revoke:
    case Op::Cancel: // a revoked copy that runs is cancelled
        im.on_revoke(*r);
        break;
    case Op::Ended:
        im.on_ended(*r);
        break;
    default:
        return resp->error(DROVER_EINVAL, "unknown federation job request");
    }
    if (!s.ok()) return resp->error(s.code(), s.text());
    if (!changed) return reply_ok(resp);
    // What it changed is durable before the sender hears so.
    im.ctx.commit.after_commit([resp] { reply_ok(resp); });
}

Status FedJobs::Impl::on_submit(const proto::FedJobRequest &r) {
    if (fed_origin(r.job_id()) != r.sender())
        return invalid("sibling job " + std::to_string(r.job_id()) + " not from its origin");
    if (!r.submit()) return invalid("sibling job " + std::to_string(r.job_id()) + ": no job");
    return jobs.enter_sibling({r.submit()->data(), r.submit()->size()}, r.job_id(), r.uid(),
                              r.gid(), r.viable());
}

// The origin's side: one member at a time may start the job.
Status FedJobs::Impl::on_lock(const proto::FedJobRequest &r, bool &changed) {
    Job *j = fed_origin(r.job_id()) == self() ? jobs.find(r.job_id()) : nullptr;
    if (!j) return {DROVER_ENOENT, kInvalidJobId};
    const uint32_t lock = j->ext().cluster_lock;
    if (!j->pending() || j->hold != Hold::None || (lock && lock != r.sender()))
        return {DROVER_EBUSY, "Job locked by another sibling"};
    changed = lock != r.sender();
    if (changed) persist_after(*j, [&](JobExtra &x) { x.cluster_lock = r.sender(); });
    return {};
}

void FedJobs::Impl::on_unlock(const proto::FedJobRequest &r) {
    Job *j = fed_origin(r.job_id()) == self() ? jobs.find(r.job_id()) : nullptr;
    if (j && j->pending() && j->ext().cluster_lock == r.sender())
        persist_after(*j, [](JobExtra &x) { x.cluster_lock = 0; });
}

// The origin's side: a member started the job. Its own copy is revoked (kept to follow the
// job), the other siblings are revoked by the next sweep.
void FedJobs::Impl::on_started(const proto::FedJobRequest &r) {
    Job *j = fed_origin(r.job_id()) == self() ? jobs.find(r.job_id()) : nullptr;
    if (!j || !j->pending()) return;
    j->state_flags |= DROVER_JOB_FLAG_REVOKED;
    j->start_time = r.start_time();
    persist_after(*j, [&](JobExtra &x) {
        x.cluster_lock = r.sender();
        x.siblings_active |= fed_bit(r.sender());
    });
    spdlog::info("federation: job {} started on {}", j->id,
                 member_names(fed.view(), fed_bit(r.sender())));
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
    j->state_flags |= DROVER_JOB_FLAG_REVOKED;
    j->reason = "None";
    jobs.end_job(*j, DROVER_JOB_CANCELLED, 0);
}

// The origin's side: the job ended on the member that ran it (its copy ends alike, revoked),
// or was requeued there (it pends again, and may go to every viable member again).
void FedJobs::Impl::on_ended(const proto::FedJobRequest &r) {
    Job *j = fed_origin(r.job_id()) == self() ? jobs.find(r.job_id()) : nullptr;
    if (!j || !j->pending()) return;
    if (r.state() == DROVER_JOB_PENDING) {
        const uint64_t me = fed_bit(self());
        if (j->ext().siblings_viable & me) j->state_flags &= ~DROVER_JOB_FLAG_REVOKED;
        persist_after(*j, [](JobExtra &x) { x.cluster_lock = 0; });
        return;
    }
    end_copy(*j, r.state(), r.exit_status(), r.start_time(), r.end_time());
}

// The origin's copy of a job another member ran ends as it ended there (revoked: the member's
// record is the job's).
void FedJobs::Impl::end_copy(Job &job, uint32_t state, int32_t exit_status, int64_t start,
                             int64_t end) {
    job.state_flags |= DROVER_JOB_FLAG_REVOKED;
    job.start_time = start;
    job.reason = "None";
    jobs.end_job(job, state, exit_status);
    job.end_time = end;
    jobs.persist(job);
    followed.erase(job.id);
}

// Every so often the origin asks the member holding a job's lock how the job stands there, in
// case the member's word (Started, Ended) was lost: the member restarted, or the origin was
// down when it was sent.
void FedJobs::Impl::follow(const Job &job) {
    const int64_t now = Ctx::now();
    auto [it, added] = followed.emplace(job.id, now);
    if (!added && now - it->second < kFollowSecs) return;
    it->second = now;
    flatbuffers::FlatBufferBuilder fbb(64);
    auto ids = fbb.CreateVector(std::vector<uint32_t>{job.id});
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobInfoRequest,
                                    proto::CreateJobInfoRequest(fbb, ids).Union()));
    call(job.ext().cluster_lock, job.id,
         {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()},
         [this, id = job.id](const std::string &error, const net::Reply *reply) {
             const auto *r =
                 error.empty() && reply ? reply->msg->body_as_JobInfoResponse() : nullptr;
             if (r && r->jobs() && r->jobs()->size() == 1) followed_to(id, *r->jobs()->Get(0));
         });
}

void FedJobs::Impl::followed_to(uint32_t id, const proto::JobInfo &copy) {
    Job *j = jobs.find(id);
    if (!j || !j->pending() || copy.job_id() != id) return;
    const uint32_t base = copy.state() & 0xff;
    if (base == DROVER_JOB_PENDING || base == DROVER_JOB_RUNNING || base == DROVER_JOB_SUSPENDED) {
        if (base != DROVER_JOB_PENDING && !(j->state_flags & DROVER_JOB_FLAG_REVOKED)) {
            j->state_flags |= DROVER_JOB_FLAG_REVOKED; // it started there: Started was lost
            jobs.persist(*j);
        }
        return;
    }
    if (copy.state() & DROVER_JOB_FLAG_REVOKED) return; // not the copy that ran
    spdlog::info("federation: job {} ended on {} (found by asking)", id,
                 member_names(fed.view(), fed_bit(j->ext().cluster_lock)));
    end_copy(*j, base, copy.exit_status(), copy.start_time(), copy.end_time());
}

} // namespace drover::ctld
