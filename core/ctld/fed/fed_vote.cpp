// fed_vote.cpp - which member starts a federated job. A job's voters are its viable members and
// its origin; a member (the origin too) starts its copy only once a majority of the voters voted
// for it. Each voter votes for one member at a time and keeps its vote in its copy of the job
// (JobExtra::cluster_lock), persisted before it answers, so two members never both hold a
// majority, whichever are down or cut off from each other, and a restart changes no vote. With
// the origin up, the origin's vote and a member's own make a majority of three; with the origin
// down, the other members' votes do.
#include <bit>
#include <spdlog/spdlog.h>

#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/fed/fed_jobs_impl.hpp"
#include "ctld/jobs/job_mgr.hpp"

namespace drover::ctld {

using fed::each_member;
using fed::Op;

namespace {

// A majority that has not started the job by then gives its votes back.
constexpr int64_t kLockUnusedSecs = 10;

int majority(uint64_t voters) {
    return std::popcount(voters) / 2 + 1;
}

} // namespace

int FedJobs::Impl::may_start(Job &job, std::string &why) {
    const uint64_t me = fed_bit(self());
    why = fed::kLockReason;
    // Outside a federation (it was deleted, or this cluster left it) a copy never runs; the
    // origin's job runs as a job of its own.
    if (!me) return sibling_copy(job) ? DROVER_EPERM : DROVER_OK;
    if (!(fed::voters(job) & ~me)) return DROVER_OK; // no siblings
    if (job.state_flags & DROVER_JOB_FLAG_REVOKED) return DROVER_EPERM;
    // FedState=INACTIVE: this member schedules no federated job (it still votes).
    if (const FedCluster *c = fed.view().self(); c && c->state == FedState::Inactive)
        return DROVER_EPERM;
    if (lock_held.count(job.id)) return DROVER_OK;
    const uint32_t vote = job.ext().cluster_lock;
    if (vote && vote != self()) return DROVER_EPERM; // this voter voted for another member
    if (gathering.count(job.id)) return DROVER_EBUSY;
    if (auto it = retry_at.find(job.id); it != retry_at.end() && Ctx::now() < it->second)
        return DROVER_EBUSY;
    gather(job);
    return lock_held.count(job.id) ? DROVER_OK : DROVER_EBUSY;
}

// Votes for this controller (its own, persisted with the start) and asks every other voter.
void FedJobs::Impl::gather(Job &job) {
    const uint64_t me = fed_bit(self());
    Gathering &g = gathering[job.id];
    g = {fed::voters(job) & ~me, me, 0};
    job.mutable_extra().cluster_lock = self();
    each_member(g.asked, [&](uint32_t member) {
        bool sent = send(member, {Op::Lock, job.id},
                         [this, id = job.id, member](bool ok, int, const std::string &) {
                             auto it = gathering.find(id);
                             if (it != gathering.end()) {
                                 (ok ? it->second.granted : it->second.refused) |= fed_bit(member);
                                 return counted(id);
                             }
                             if (!ok) return;
                             // A vote that came after the count: kept with the majority, else
                             // given back (never once the job started here: it is the job's).
                             if (auto h = lock_held.find(id); h != lock_held.end())
                                 h->second.second |= fed_bit(member);
                             else if (const Job *j = jobs.find(id); j && j->pending())
                                 release(id, fed_bit(member));
                         });
        if (!sent) g.refused |= fed_bit(member);
    });
    counted(job.id);
}

// The votes gathered so far for a job decide: a majority (a scheduling pass starts the job),
// none possible any more (the votes go back, another try in a few seconds), or wait for more.
void FedJobs::Impl::counted(uint32_t id) {
    auto it = gathering.find(id);
    if (it == gathering.end()) return;
    const Gathering g = it->second;
    Job *j = jobs.find(id);
    const int need = j ? majority(fed::voters(*j)) : 1;
    const uint64_t me = fed_bit(self());
    if (j && j->pending() && std::popcount(g.granted) >= need) {
        lock_held[id] = {Ctx::now(), g.granted & ~me};
        gathering.erase(it);
        ctx.events.queue_changed.publish();
        return;
    }
    const uint64_t open = g.asked & ~g.granted & ~g.refused;
    if (j && j->pending() && std::popcount(g.granted) + std::popcount(open) >= need) return;
    gathering.erase(it);
    release(id, g.granted & ~me);
    // Members that lost at once try again at different times.
    retry_at[id] = Ctx::now() + 1 + int64_t((id ^ self()) % 3);
}

// Gives the votes of members back, and this controller's own.
void FedJobs::Impl::release(uint32_t id, uint64_t granted) {
    each_member(granted, [&](uint32_t member) {
        send(member, {Op::Unlock, id}, [](bool, int, const std::string &) {});
    });
    Job *j = jobs.find(id);
    if (j && j->pending() && j->ext().cluster_lock == self())
        persist_after(*j, [](JobExtra &x) { x.cluster_lock = 0; });
}

void FedJobs::Impl::give_back_unused_locks() {
    const int64_t now = Ctx::now();
    for (auto it = lock_held.begin(); it != lock_held.end();) {
        const Job *j = jobs.find(it->first);
        if (j && j->pending() && now - it->second.first < kLockUnusedSecs) {
            ++it;
            continue;
        }
        if (j && j->pending()) release(it->first, it->second.second);
        it = lock_held.erase(it);
    }
    std::erase_if(retry_at, [now](const auto &kv) { return kv.second < now; });
}

// A voter's side: its vote goes to one member at a time, and never while it wants the job
// itself, nor for a job that no longer waits here (it runs or ran here, or is held).
Status FedJobs::Impl::on_lock(const proto::FedJobRequest &r, bool &changed) {
    Job *j = jobs.find(r.job_id());
    if (!j) return {DROVER_ENOENT, kInvalidJobId};
    const uint32_t vote = j->ext().cluster_lock;
    if (!j->pending() || j->hold != Hold::None || (vote && vote != r.sender()) ||
        gathering.count(j->id) || lock_held.count(j->id))
        return {DROVER_EBUSY, fed::kLocked};
    changed = vote != r.sender();
    if (changed) persist_after(*j, [&](JobExtra &x) { x.cluster_lock = r.sender(); });
    return {};
}

void FedJobs::Impl::on_unlock(const proto::FedJobRequest &r) {
    Job *j = jobs.find(r.job_id());
    if (j && j->pending() && j->ext().cluster_lock == r.sender())
        persist_after(*j, [](JobExtra &x) { x.cluster_lock = 0; });
}

} // namespace drover::ctld
