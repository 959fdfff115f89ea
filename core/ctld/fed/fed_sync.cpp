// fed_sync.cpp - the origin asks the members, every few seconds, how its waiting jobs stand in
// their copies: what a member told it may have been lost (the origin was down or cut off when
// the member started or ended the job, or the member restarted before it could tell), and a
// member that runs a job must keep the others from it.
#include <map>
#include <spdlog/spdlog.h>

#include "ctld/context.hpp"
#include "ctld/fed/fed_jobs_impl.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "proto/fb_read.hpp"

namespace drover::ctld {

namespace {

constexpr int64_t kSyncSecs = 15;
// The key of the one sync under way with a member (no job has id 0).
constexpr uint32_t kSyncKey = 0;

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
        flatbuffers::FlatBufferBuilder fbb(64 + ids.size() * 4);
        auto v = fbb.CreateVector(ids);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::JobInfoRequest,
                                        proto::CreateJobInfoRequest(fbb, v, 0, true).Union()));
        call(member, kSyncKey, {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()},
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

} // namespace drover::ctld
