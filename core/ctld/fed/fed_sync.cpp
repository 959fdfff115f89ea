// fed_sync.cpp - the origin asks the members, every few seconds, how its waiting jobs stand in
// their copies: what a member told it may have been lost (the origin was down or cut off when
// the member started or ended the job, or the member restarted before it could tell), and a
// member that runs a job must keep the others from it.
#include <map>
#include <spdlog/spdlog.h>

#include "ctld/context.hpp"
#include "ctld/events.hpp"
#include "ctld/fed/fed_jobs_impl.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "proto/fb_read.hpp"

namespace drover::ctld {

namespace {

constexpr int64_t kSyncSecs = 15;
// The keys of the one sync and the one poll of remote jobs under way with a member (no job has
// id 0 or 0xffffffff).
constexpr uint32_t kSyncKey = 0;
constexpr uint32_t kRemoteKey = 0xffffffffu;
// How often origins are asked about their jobs that dependencies here name.
constexpr int64_t kRemotePollSecs = 3;

// A JobInfoRequest for ids, revoked copies included.
std::vector<uint8_t> job_info_request(const std::vector<uint32_t> &ids) {
    flatbuffers::FlatBufferBuilder fbb(64 + ids.size() * 4);
    auto v = fbb.CreateVector(ids);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobInfoRequest,
                                    proto::CreateJobInfoRequest(fbb, v, 0, true).Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

} // namespace

void FedJobs::Impl::sync() {
    const int64_t now = Ctx::now();
    if (now - last_sync < kSyncSecs) return;
    last_sync = now;
    const uint64_t me = fed_bit(self());
    std::map<uint32_t, std::vector<uint32_t>> by_member;
    jobs.each([&](const Job &j) {
        if (fed_origin(j.id) != self() || !j.pending()) return;
        fed::each_member(j.ext().siblings_active & ~me,
                         [&](uint32_t member) { by_member[member].push_back(j.id); });
    });
    for (const auto &[member, ids] : by_member) {
        call(member, kSyncKey, job_info_request(ids),
             [this, member = member](const std::string &error, const net::Reply *reply) {
                 const auto *r =
                     error.empty() && reply ? reply->msg->body_as_JobInfoResponse() : nullptr;
                 if (r && r->jobs())
                     for (const auto *copy : *r->jobs()) synced(member, *copy);
             });
    }
}

// One member's copy of a job of this origin: one that runs is the job's (as if the member had
// said Started); one that ran and ended tells how the job ended.
void FedJobs::Impl::synced(uint32_t member, const proto::JobInfo &copy) {
    Job *j = jobs.find(copy.job_id());
    if (!j || !j->pending() || fed_origin(j->id) != self()) return;
    const uint32_t base = copy.state() & 0xff;
    if (base == DROVER_JOB_RUNNING || base == DROVER_JOB_SUSPENDED)
        return on_started(j->id, member, copy.start_time());
    const bool ran = copy.node_list() && copy.node_list()->size() != 0;
    if (base == DROVER_JOB_PENDING || (copy.state() & DROVER_JOB_FLAG_REVOKED) || !ran) return;
    spdlog::info("federation: job {} ended on {} (found by asking)", j->id,
                 member_names(fed.view(), fed_bit(member)));
    end_copy(*j, base, copy.exit_status(), copy.start_time(), copy.end_time());
}

std::optional<const Job *> FedJobs::remote_job(uint32_t job_id) {
    Impl &im = *impl_;
    const uint32_t origin = fed_origin(job_id);
    if (!im.self() || !origin || origin == im.self() || !im.fed.view().member(origin) ||
        im.remote_gone.count(job_id))
        return std::nullopt;
    im.remote_wanted[job_id] = Ctx::now();
    auto it = im.remote_jobs.find(job_id);
    return it == im.remote_jobs.end() ? nullptr : &it->second;
}

// Every few seconds, each origin is asked for the jobs of its that dependencies here named in
// the last minute.
void FedJobs::Impl::poll_remote_jobs() {
    const int64_t now = Ctx::now();
    if (now - last_remote_poll < kRemotePollSecs) return;
    last_remote_poll = now;
    std::erase_if(remote_wanted, [now](const auto &kv) { return now - kv.second > 60; });
    std::erase_if(remote_jobs, [this](const auto &kv) { return !remote_wanted.count(kv.first); });
    std::map<uint32_t, std::vector<uint32_t>> by_origin;
    for (const auto &[id, when] : remote_wanted) by_origin[fed_origin(id)].push_back(id);
    for (const auto &[origin, ids] : by_origin) {
        call(origin, kRemoteKey, job_info_request(ids),
             [this, origin = origin, ids = ids](const std::string &error, const net::Reply *reply) {
                 if (!error.empty() || !reply) return;
                 // The origin has none of them: its answer is "Invalid job id".
                 const auto *e = reply->msg->body_as_ErrorResponse();
                 if (e && e->code() != DROVER_ENOENT) return;
                 polled(origin, ids, reply->msg->body_as_JobInfoResponse());
             });
    }
}

// The origin's record of each job asked for (its copy, revoked when another member runs or ran
// it: then it runs while pending with a start time, and ended as the member said); one the
// origin no longer has ended long ago.
void FedJobs::Impl::polled(uint32_t, const std::vector<uint32_t> &asked,
                           const proto::JobInfoResponse *r) {
    bool changed = false;
    std::set<uint32_t> seen;
    if (r && r->jobs())
        for (const auto *info : *r->jobs()) {
            seen.insert(info->job_id());
            Job j;
            j.id = info->job_id();
            j.state = info->state() & 0xff;
            const bool elsewhere = (info->state() & DROVER_JOB_FLAG_REVOKED) && info->start_time();
            if (j.state == DROVER_JOB_PENDING && elsewhere) j.state = DROVER_JOB_RUNNING;
            j.exit_status = info->exit_status();
            j.start_time = j.state == DROVER_JOB_PENDING ? 0 : info->start_time();
            j.end_time = info->end_time();
            Job &old = remote_jobs[j.id];
            changed = changed || old.state != j.state || old.id != j.id;
            old = std::move(j);
        }
    for (uint32_t id : asked)
        if (!seen.count(id)) {
            remote_gone.insert(id);
            remote_jobs.erase(id);
            changed = true;
        }
    if (changed) ctx.events.queue_changed.publish();
}

} // namespace drover::ctld
