// controller_routes.cpp - the controller's own messages and the accounting queries.
#include "ctld/controller_routes.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "common/hostlist.hpp"
#include "ctld/acct/acct_admin.hpp"
#include "ctld/acct/acct_query.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "common/config_report.hpp"
#include "ctld/ctld_stats.hpp"
#include "ctld/control/handover.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/control/peers.hpp"
#include "ctld/control/token_auth.hpp"
#include "ctld/power/power_save.hpp"
#include "ctld/privacy.hpp"
#include "ctld/store/repl_source.hpp"
#include "state/store.hpp"
#include "proto/key_values.hpp"

namespace drover::ctld {

namespace {

using Req = std::shared_ptr<net::Request>;
using Resp = net::ResponderPtr;
using net::Caller;

// scontrol show config: config_report's lines, with what only the running controller knows.
void config_reply(const Ctx &ctx, const PowerSaver &power, const Resp &resp) {
    state::Store::Space sp = ctx.store.space(true);
    ConfigFacts facts;
    facts.slurm_uid = ctx.slurm_uid;
    facts.boot_time = ctx.acct.stats().server_start;
    facts.store_map_mb = sp.map_bytes >> 20;
    facts.store_used_mb = (sp.map_bytes - sp.free_bytes) >> 20;
    facts.acct_waiting = ctx.acct.backlog();
    facts.power = &power.settings();
    flatbuffers::FlatBufferBuilder fbb(8192);
    auto v = proto::key_values(fbb, config_report(ctx.conf, facts));
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ConfigResponse,
                                    proto::CreateConfigResponse(fbb, v).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

void ping_reply(const Ctx &ctx, const Resp &resp) {
    flatbuffers::FlatBufferBuilder fbb(128);
    auto h = fbb.CreateString(ctx.host);
    auto role = fbb.CreateString(kRoleActive);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::ControllerPingResponse,
                             proto::CreateControllerPingResponse(fbb, h, role, ctx.epoch).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

// scontrol reconfigure: the file must parse here; the node daemons then re-read theirs.
void reconfigure(const Ctx &ctx, NodeManager &nodes, PowerSaver &power, const Resp &resp) {
    try {
        power.reconfigured(load_config(ctx.conf.path).power);
    } catch (const std::exception &e) {
        return resp->error(DROVER_EINVAL, e.what());
    }
    spdlog::info("reconfigure: {} re-read and valid; telling the node daemons", ctx.conf.path);
    nodes.reconfigure_nodes([resp](std::size_t ok, std::vector<std::string> failed) {
        std::string text = "configuration re-read here and by " + std::to_string(ok) +
                           " node daemons; node and partition changes take effect at restart";
        if (!failed.empty()) text += "; not re-read by " + hostlist_compress(failed);
        spdlog::info("reconfigure: {}", text);
        resp->ok(text);
    });
}

void acct_query(Ctx &ctx, const Req &q, const Resp &r) {
    const auto *a = q->msg->body_as_AcctQueryRequest();
    AcctQuery query;
    if (a->job_ids()) query.job_ids.assign(a->job_ids()->begin(), a->job_ids()->end());
    query.uid = a->user_id();
    query.start_after = a->start_after();
    query.end_before = a->end_before();
    query.duplicates = a->duplicates();
    query.jobs_only = a->jobs_only();
    query.filters = acct_filters_from(*a, ctx.conf.cluster_name);
    if (uint32_t only = Viewer(ctx, q->peer.uid).acct_records_user(); only != DROVER_NO_VAL)
        query.uid = only;
    ctx.acct.query(std::move(query), [r](std::vector<uint8_t> msg) { r->reply(msg); });
}

void acct_event_query(Ctx &ctx, const Req &q, const Resp &r) {
    if (!Viewer(ctx, q->peer.uid).sees_events())
        return r->error(DROVER_EPERM, std::string(" Error with request: ") + kAccessDenied);
    const auto *a = q->msg->body_as_AcctEventQueryRequest();
    AcctEventQuery query;
    if (a->clusters())
        for (const auto *c : *a->clusters()) query.clusters.push_back(c->str());
    // As Slurm's sacctmgr: this cluster's events unless others (or all) are named.
    if (query.clusters.empty() && !a->all_clusters())
        query.clusters.push_back(ctx.conf.cluster_name);
    if (a->nodes())
        for (const auto *n : *a->nodes()) query.nodes.push_back(n->str());
    query.period_start = a->period_start();
    query.period_end = a->period_end();
    ctx.acct.event_query(std::move(query), [r](std::vector<uint8_t> msg) { r->reply(msg); });
}

// scontrol token: the token for the caller (or, for root and SlurmUser, for username).
void token_reply(const TokenAuth &tokens, const Req &q, const Resp &r) {
    const auto *t = q->msg->body_as_TokenRequest();
    std::string token;
    Status s = tokens.mint(q->peer.uid, t->username() ? t->username()->string_view() : "",
                           t->lifespan(), Ctx::now(), &token);
    if (!s.ok()) return r->error(s.code(), s.text());
    flatbuffers::FlatBufferBuilder fbb(512);
    auto v = fbb.CreateString(token);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::TokenResponse,
                                    proto::CreateTokenResponse(fbb, v).Union()));
    r->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace

net::Routes controller_routes(const ControllerParts &p) {
    Ctx &ctx = p.ctx;
    return {
        {proto::Body::ConfigRequest, Caller::Anyone,
         [&ctx, &power = p.power](const Req &, const Resp &r) { config_reply(ctx, power, r); }},
        {proto::Body::ControllerPingRequest, Caller::Anyone,
         [&ctx](const Req &, const Resp &r) { ping_reply(ctx, r); }},
        {proto::Body::TokenRequest, Caller::Anyone,
         [&tokens = p.tokens](const Req &q, const Resp &r) { token_reply(tokens, q, r); }},
        {proto::Body::StatsRequest, Caller::Anyone,
         [&ctx, &admin = p.admin, &jobs = p.jobs](const Req &q, const Resp &r) {
             stats_reply(ctx, jobs, q, r, admin.admin_level(q->peer.uid));
         }},
        {proto::Body::ReconfigureRequest, Caller::Admin,
         [&ctx, &nodes = p.nodes, &power = p.power](const Req &, const Resp &r) {
             reconfigure(ctx, nodes, power, r);
         }},
        {proto::Body::ShutdownRequest, Caller::Admin,
         [&handover = p.handover, &io = ctx.io, stop = p.stop](const Req &, const Resp &r) {
             r->ok();
             handover.shutdown_standbys();
             boost::asio::post(io, stop);
         }},
        {proto::Body::ReplPullRequest, Caller::Admin,
         [&repl = p.repl](const Req &q, const Resp &r) {
             repl.on_pull(*q->msg->body_as_ReplPullRequest(), r);
         }},
        {proto::Body::RelinquishRequest, Caller::Admin,
         net::member(&p.handover, &Handover::on_relinquish)},
        {proto::Body::ControlRequest, Caller::Admin,
         [&ctx](const Req &, const Resp &r) {
             r->ok("controller " + ctx.host + " is already in control");
         }},
    };
}

net::Routes acct_routes(Ctx &ctx, AcctAdmin &admin) {
    return {
        {proto::Body::AcctQueryRequest, Caller::Anyone,
         [&ctx](const Req &q, const Resp &r) { acct_query(ctx, q, r); }},
        {proto::Body::AcctEventQueryRequest, Caller::Anyone,
         [&ctx](const Req &q, const Resp &r) { acct_event_query(ctx, q, r); }},
        // Decides by the caller's admin level in the accounting store.
        {proto::Body::AcctAdminRequest, Caller::Anyone,
         net::member(&admin, &AcctAdmin::on_request)},
    };
}

} // namespace drover::ctld
