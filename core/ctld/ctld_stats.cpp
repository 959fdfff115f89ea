// ctld_stats.cpp - sdiag's answer.
#include "ctld/ctld_stats.hpp"

#include "ctld/acct_queue.hpp"
#include "ctld/context.hpp"
#include "ctld/job_mgr.hpp"
#include "ctld/scheduler.hpp"
#include "net/server.hpp"

namespace drover::ctld {

void stats_reply(Ctx &ctx, const std::shared_ptr<net::Request> &req,
                 const std::shared_ptr<net::Responder> &resp, uint32_t admin_level) {
    CtldStats &s = ctx.acct.stats();
    const auto *m = req->msg->body_as_StatsRequest();
    if (m->reset()) {
        if (admin_level < DROVER_ADMIN_OPERATOR) return resp->error(DROVER_EPERM, "Access/permission denied");
        s.reset(Ctx::now());
    }
    flatbuffers::FlatBufferBuilder fbb(512);
    std::vector<flatbuffers::Offset<proto::KeyValue>> kv;
    auto add = [&](const char *k, uint64_t v) {
        kv.push_back(proto::CreateKeyValueDirect(fbb, k, std::to_string(v).c_str()));
    };
    add("now", uint64_t(Ctx::now()));
    add("server_start", uint64_t(s.server_start));
    add("since", uint64_t(s.since));
    add("dbd_agent_queue_size", ctx.acct.backlog());
    add("jobs_submitted", s.submitted);
    add("jobs_started", s.started);
    add("jobs_completed", s.completed);
    add("jobs_canceled", s.canceled);
    add("jobs_failed", s.failed);
    add("jobs_pending", ctx.jobs ? ctx.jobs->pending().size() : 0);
    add("jobs_running", ctx.jobs ? ctx.jobs->running().size() : 0);
    add("schedule_cycles", ctx.sched ? ctx.sched->passes() : 0);
    add("reset", m->reset() ? 1 : 0);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::StatsResponse,
                                    proto::CreateStatsResponse(fbb, fbb.CreateVector(kv)).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

}  // namespace drover::ctld
