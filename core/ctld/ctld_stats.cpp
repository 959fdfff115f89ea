// ctld_stats.cpp - sdiag's answer.
#include "ctld/ctld_stats.hpp"

#include <cstddef>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/context.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "net/server.hpp"
#include "plugin/plugin_set.hpp"

namespace drover::ctld {

StatValues stats_values(Ctx &ctx, JobManager &jobs, bool reset) {
    CtldStats &s = ctx.acct.stats();
    const auto stats = ctx.plugins.sched_calls().stats(reset);
    const bool backfill = stats.has_value();
    const drover_sched_stats bf = stats.value_or(drover_sched_stats{});
    if (reset) s.reset(Ctx::now());
    StatValues v;
    auto add = [&](const char *k, uint64_t n) { v.emplace_back(k, n); };
    add("now", uint64_t(Ctx::now()));
    add("server_start", uint64_t(s.server_start));
    add("since", uint64_t(s.since));
    add("dbd_agent_queue_size", ctx.acct.backlog());
    add("jobs_submitted", s.submitted);
    add("jobs_started", s.started);
    add("jobs_completed", s.completed);
    add("jobs_canceled", s.canceled);
    add("jobs_failed", s.failed);
    add("jobs_pending", jobs.pending().size());
    add("jobs_running", jobs.running().size());
    add("schedule_cycles", s.cycles);
    add("schedule_cycle_last", s.cycle_last_usec);
    add("schedule_cycle_max", s.cycle_max_usec);
    add("schedule_cycle_sum", s.cycle_sum_usec);
    add("schedule_cycle_depth", s.depth_sum);
    add("schedule_queue_length", s.queue_length);
    if (backfill) {
        // Only what the plugin filled in (an older plugin's struct is shorter).
        auto has = [&](std::size_t end) { return bf.struct_size >= end; };
#define DROVER_BF(member)                                                                          \
    if (has(offsetof(drover_sched_stats, member) + sizeof bf.member))                              \
    add("bf_" #member, uint64_t(bf.member))
        DROVER_BF(backfilled_jobs);
        DROVER_BF(backfilled_jobs_since_reset);
        DROVER_BF(cycles);
        DROVER_BF(last_cycle_when);
        DROVER_BF(last_cycle_usec);
        DROVER_BF(max_cycle_usec);
        DROVER_BF(cycle_usec_sum);
        DROVER_BF(last_depth);
        DROVER_BF(last_depth_try);
        DROVER_BF(depth_sum);
        DROVER_BF(depth_try_sum);
        DROVER_BF(last_queue_length);
        DROVER_BF(queue_length_sum);
        DROVER_BF(last_table_size);
        DROVER_BF(table_size_sum);
#undef DROVER_BF
    }
    add("reset", reset ? 1 : 0);
    return v;
}

void stats_reply(Ctx &ctx, JobManager &jobs, const std::shared_ptr<net::Request> &req,
                 const std::shared_ptr<net::Responder> &resp, uint32_t admin_level) {
    const auto *m = req->msg->body_as_StatsRequest();
    if (m->reset() && admin_level < DROVER_ADMIN_OPERATOR)
        return resp->error(DROVER_EPERM, "Access/permission denied");
    flatbuffers::FlatBufferBuilder fbb(512);
    std::vector<flatbuffers::Offset<proto::KeyValue>> kv;
    for (const auto &[k, n] : stats_values(ctx, jobs, m->reset()))
        kv.push_back(proto::CreateKeyValueDirect(fbb, k, std::to_string(n).c_str()));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StatsResponse,
                                    proto::CreateStatsResponse(fbb, fbb.CreateVector(kv)).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace drover::ctld
