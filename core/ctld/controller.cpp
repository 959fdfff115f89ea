// controller.cpp - droverctld's wiring: parts, message routing and timers.
#include "ctld/controller.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <cerrno>
#include <cstring>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "common/config.hpp"
#include "common/hostlist.hpp"
#include "daemon/daemon.hpp"
#include "daemon/heap_trim.hpp"
#include "ctld/acct_admin.hpp"
#include "ctld/acct_queue.hpp"
#include "ctld/acct_recorder.hpp"
#include "ctld/ctld_stats.hpp"
#include "ctld/committer.hpp"
#include "ctld/context.hpp"
#include "ctld/handover.hpp"
#include "ctld/peers.hpp"
#include "ctld/privacy.hpp"
#include "ctld/repl_source.hpp"
#include "ctld/standby.hpp"
#include "ctld/job_mgr.hpp"
#include "ctld/node_mgr.hpp"
#include "ctld/scheduler.hpp"
#include "ctld/step_mgr.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "net/server.hpp"
#include "plugin/plugin_set.hpp"
#include "state/store.hpp"

namespace asio = boost::asio;

namespace drover::ctld {

namespace {

using Req = std::shared_ptr<net::Request>;
using Resp = net::ResponderPtr;

// A periodic timer on the loop.
class Every {
  public:
    Every(asio::io_context &io, std::chrono::milliseconds period, std::function<void()> fn)
        : timer_(io), period_(period), fn_(std::move(fn)) {
        arm();
    }

  private:
    void arm() {
        timer_.expires_after(period_);
        timer_.async_wait([this](boost::system::error_code ec) {
            if (ec) return;
            fn_();
            arm();
        });
    }
    asio::steady_timer timer_;
    std::chrono::milliseconds period_;
    std::function<void()> fn_;
};

void config_reply(const Config &conf, const Ctx &ctx, const Resp &resp) {
    flatbuffers::FlatBufferBuilder fbb(4096);
    std::vector<flatbuffers::Offset<proto::KeyValue>> kv;
    auto add = [&](const std::string &k, const std::string &v) {
        kv.push_back(proto::CreateKeyValueDirect(fbb, k.c_str(), v.c_str()));
    };
    add("AccountingStorageType", conf.accounting_storage_type);
    add("AuthType", conf.auth_type);
    add("ClusterName", conf.cluster_name);
    add("Epilog", conf.epilog.empty() ? "(null)" : conf.epilog);
    add("FirstJobId", std::to_string(conf.first_job_id));
    add("KillWait", std::to_string(conf.kill_wait) + " sec");
    add("MaxJobCount", std::to_string(conf.max_job_count));
    add("PluginDir", conf.plugin_dir.empty() ? "(built-in)" : conf.plugin_dir);
    add("ProctrackType", conf.proctrack_type);
    add("Prolog", conf.prolog.empty() ? "(null)" : conf.prolog);
    add("SchedulerParameters",
        conf.scheduler_parameters.empty() ? "(null)" : conf.scheduler_parameters);
    add("SchedulerType", conf.scheduler_type);
    add("SelectType", conf.select_type);
    std::string hosts;
    for (const auto &c : conf.controllers) hosts += (hosts.empty() ? "" : ",") + c.name;
    add("SlurmctldHost", hosts);
    add("SlurmctldPort", std::to_string(conf.slurmctld_port));
    add("SlurmctldTimeout", std::to_string(conf.slurmctld_timeout) + " sec");
    add("SlurmdPort", std::to_string(conf.slurmd_port));
    add("SlurmdSpoolDir", conf.slurmd_spool_dir);
    add("SlurmdTimeout", std::to_string(conf.slurmd_timeout) + " sec");
    add("SlurmUser", conf.slurm_user + "(" + std::to_string(ctx.slurm_uid) + ")");
    add("SLURM_CONF", conf.path);
    add("StateSaveLocation", conf.state_save_location);
    {
        state::Store::Space sp = ctx.store.space(true);
        add("StateSaveMaxSize", std::to_string(sp.map_bytes >> 20) + "M (" +
                                    std::to_string((sp.map_bytes - sp.free_bytes) >> 20) +
                                    "M used)");
    }
    add("SwitchType", conf.switch_type);
    add("TreeWidth", std::to_string(conf.tree_width));
    add("AccountingRecordsWaiting", std::to_string(ctx.acct.backlog()));
    auto v = fbb.CreateVector(kv);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ConfigResponse,
                                    proto::CreateConfigResponse(fbb, v).Union()));
    resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
}

} // namespace

namespace {

struct ActiveOutcome {
    bool stop = true;
    bool take_back = false; // as a standby, ask for control again once caught up
};

// The controller in control: recovers the store, serves until shut down or until control moves
// to another controller.
ActiveOutcome run_active(Config &conf, plugin::PluginSet &plugins, net::Authenticator &auth,
                         state::Store &store, std::size_t self, uint64_t seen_epoch,
                         bool cold_start) {
    asio::io_context io(1);
    Committer commit(io, store);
    net::CallPool pool(io, 8);
    AcctRecorder *recorder_ptr = nullptr; // set below; records are delivered only after recovery
    AcctQueue acct(io, plugins.acct(), conf.cluster_name,
                   [&recorder_ptr](uint64_t seq) { recorder_ptr->delivered(seq); });
    AcctRecorder recorder(commit, store, acct);
    recorder_ptr = &recorder;

    Ctx ctx{io,      conf,    plugins, auth,    store, commit, pool,     acct,
            nullptr, nullptr, nullptr, nullptr, 0,     {},     &recorder};
    ctx.host = conf.controllers.empty() ? daemon::short_hostname() : conf.controllers[self].name;
    ctx.slurm_uid = daemon::uid_of(conf.slurm_user);
    // Each time a controller takes control it starts a newer generation, which fences the
    // controller that had it: nodes and commands that have seen the newer one refuse the older.
    // The log for standbys starts before that generation's first transaction, so a standby that
    // held everything so far continues from it.
    ReplSource repl(io, store, commit);
    if (conf.controllers.size() > 1) commit.set_listener(&repl);
    // Controller i only uses generations equal to i modulo the number of controllers, so two that
    // take control apart from each other never share one.
    uint64_t ctls = std::max<uint64_t>(1, conf.controllers.size());
    ctx.epoch = std::max(state::get_meta_u64(store, kMetaEpoch, 0), seen_epoch) + 1;
    while (ctx.epoch % ctls != self % ctls) ++ctx.epoch;
    commit.set_epoch(ctx.epoch);
    state::put_meta_u64(commit.txn(), kMetaEpoch, ctx.epoch);
    commit.flush();
    ActiveOutcome outcome;
    Handover handover(ctx, repl, self, [&](bool take_back) {
        outcome = {false, take_back};
        io.stop();
    });

    ctx.fenced = [&handover] { handover.fenced_by_node(); };
    NodeManager nodes(ctx);
    JobManager jobs(ctx);
    Scheduler sched(ctx);
    StepManager steps(ctx);
    ctx.steps = &steps;
    ctx.nodes = &nodes;
    ctx.jobs = &jobs;
    ctx.sched = &sched;

    AcctAdmin admin(ctx);
    acct.stats().server_start = acct.stats().since = Ctx::now();
    nodes.recover();
    jobs.recover(cold_start);
    recorder.recover();
    nodes.record_events();
    admin.start();
    sched.init_select();
    commit.flush();

    std::unordered_map<proto::Body, std::function<void(const Req &, const Resp &)>> routes = {
        {proto::Body::JobSubmitRequest, [&](const Req &q, const Resp &r) { jobs.on_submit(q, r); }},
        {proto::Body::JobInfoRequest, [&](const Req &q, const Resp &r) { jobs.on_info(q, r); }},
        {proto::Body::JobSignalRequest, [&](const Req &q, const Resp &r) { jobs.on_signal(q, r); }},
        {proto::Body::JobUpdateRequest, [&](const Req &q, const Resp &r) { jobs.on_update(q, r); }},
        {proto::Body::JobCompleteRequest,
         [&](const Req &q, const Resp &r) { jobs.on_complete(q, r); }},
        {proto::Body::StepCreateRequest,
         [&](const Req &q, const Resp &r) { steps.on_create(q, r); }},
        {proto::Body::StepCompleteRequest,
         [&](const Req &q, const Resp &r) { steps.on_complete(q, r); }},
        {proto::Body::StepInfoRequest, [&](const Req &q, const Resp &r) { steps.on_info(q, r); }},
        {proto::Body::JobWaitRequest, [&](const Req &q, const Resp &r) { steps.on_wait(q, r); }},
        {proto::Body::NodeRegisterRequest,
         [&](const Req &q, const Resp &r) { nodes.on_register(q, r); }},
        {proto::Body::NodeInfoRequest,
         [&](const Req &q, const Resp &r) { nodes.on_node_info(q, r); }},
        {proto::Body::NodeUpdateRequest,
         [&](const Req &q, const Resp &r) { nodes.on_node_update(q, r); }},
        {proto::Body::PartitionInfoRequest,
         [&](const Req &q, const Resp &r) { nodes.on_partition_info(q, r); }},
        {proto::Body::ConfigRequest,
         [&](const Req &, const Resp &r) { config_reply(conf, ctx, r); }},
        {proto::Body::ControllerPingRequest,
         [&](const Req &, const Resp &r) {
             flatbuffers::FlatBufferBuilder fbb(128);
             auto h = fbb.CreateString(ctx.host);
             auto role = fbb.CreateString(kRoleActive);
             fbb.Finish(proto::CreateMessage(
                 fbb, proto::Body::ControllerPingResponse,
                 proto::CreateControllerPingResponse(fbb, h, role, ctx.epoch).Union()));
             r->reply({fbb.GetBufferPointer(), fbb.GetSize()});
         }},
        {proto::Body::AcctQueryRequest,
         [&](const Req &q, const Resp &r) {
             const auto *a = q->msg->body_as_AcctQueryRequest();
             AcctQuery query;
             if (a->job_ids()) query.job_ids.assign(a->job_ids()->begin(), a->job_ids()->end());
             query.uid = a->user_id();
             query.start_after = a->start_after();
             query.end_before = a->end_before();
             query.duplicates = a->duplicates();
             query.jobs_only = a->jobs_only();
             query.filters = acct_filters_from(*a);
             if (uint32_t only = Viewer(ctx, q->peer.uid).acct_records_user();
                 only != DROVER_NO_VAL)
                 query.uid = only;
             acct.query(std::move(query), [r](std::vector<uint8_t> msg) { r->reply(msg); });
         }},
        {proto::Body::AcctEventQueryRequest,
         [&](const Req &q, const Resp &r) {
             if (!Viewer(ctx, q->peer.uid).sees_events())
                 return r->error(DROVER_EPERM,
                                 std::string(" Error with request: ") + kAccessDenied);
             const auto *a = q->msg->body_as_AcctEventQueryRequest();
             AcctEventQuery query;
             if (a->clusters())
                 for (const auto *c : *a->clusters()) query.clusters.push_back(c->str());
             // As Slurm's sacctmgr: this cluster's events unless others (or all) are named.
             if (query.clusters.empty() && !a->all_clusters())
                 query.clusters.push_back(conf.cluster_name);
             if (a->nodes())
                 for (const auto *n : *a->nodes()) query.nodes.push_back(n->str());
             query.period_start = a->period_start();
             query.period_end = a->period_end();
             acct.event_query(std::move(query), [r](std::vector<uint8_t> msg) { r->reply(msg); });
         }},
        {proto::Body::AcctAdminRequest,
         [&](const Req &q, const Resp &r) { admin.on_request(q, r); }},
        {proto::Body::StatsRequest,
         [&](const Req &q, const Resp &r) {
             stats_reply(ctx, q, r, admin.admin_level(q->peer.uid));
         }},
        {proto::Body::ReconfigureRequest,
         [&](const Req &q, const Resp &r) {
             if (!ctx.is_admin(q->peer.uid))
                 return r->error(DROVER_EPERM, "Access/permission denied");
             try {
                 Config fresh = load_config(conf.path);
                 (void)fresh;
             } catch (const std::exception &e) {
                 return r->error(DROVER_EINVAL, e.what());
             }
             spdlog::info("reconfigure: {} re-read and valid; telling the node daemons", conf.path);
             nodes.reconfigure_nodes([r](std::size_t ok, std::vector<std::string> failed) {
                 std::string text =
                     "configuration re-read here and by " + std::to_string(ok) +
                     " node daemons; node and partition changes take effect at restart";
                 if (!failed.empty()) text += "; not re-read by " + hostlist_compress(failed);
                 spdlog::info("reconfigure: {}", text);
                 r->ok(text);
             });
         }},
        {proto::Body::ShutdownRequest,
         [&](const Req &q, const Resp &r) {
             if (!ctx.is_admin(q->peer.uid))
                 return r->error(DROVER_EPERM, "Access/permission denied");
             r->ok();
             handover.shutdown_standbys();
             asio::post(io, [&] { io.stop(); });
         }},
        {proto::Body::ReplPullRequest,
         [&](const Req &q, const Resp &r) {
             if (!ctx.is_admin(q->peer.uid))
                 return r->error(DROVER_EPERM, "Access/permission denied");
             repl.on_pull(*q->msg->body_as_ReplPullRequest(), r);
         }},
        {proto::Body::RelinquishRequest,
         [&](const Req &q, const Resp &r) {
             if (!ctx.is_admin(q->peer.uid))
                 return r->error(DROVER_EPERM, "Access/permission denied");
             handover.on_relinquish(q, r);
         }},
        {proto::Body::ControlRequest,
         [&](const Req &q, const Resp &r) {
             if (!ctx.is_admin(q->peer.uid))
                 return r->error(DROVER_EPERM, "Access/permission denied");
             r->ok("controller " + ctx.host + " is already in control");
         }},
    };

    net::Handler handler = [&](std::shared_ptr<net::Request> req, net::ResponderPtr resp) {
        auto type = req->msg->body_type();
        // Only the controllers and node daemons (root or SlurmUser) speak for generations: a user's
        // message carrying a newer one is not evidence of another controller in control.
        if (req->msg->epoch() > ctx.epoch && ctx.is_admin(req->peer.uid)) {
            handover.newer_epoch(req->msg->epoch());
            return resp->error(net::kNotInControl,
                               "controller " + ctx.host + " is no longer in control");
        }
        if (handover.handing_over() && type != proto::Body::ControllerPingRequest &&
            type != proto::Body::ReplPullRequest)
            return resp->error(net::kNotInControl,
                               "controller " + ctx.host + " is handing over control");
        auto it = routes.find(type);
        if (it == routes.end())
            return resp->error(DROVER_EINVAL, std::string("unexpected message ") +
                                                  proto::EnumNameBody(req->msg->body_type()));
        try {
            it->second(req, resp);
        } catch (const std::exception &e) {
            spdlog::error("{} from {}: {}", proto::EnumNameBody(req->msg->body_type()),
                          req->peer.addr, e.what());
            resp->error(DROVER_EIO, e.what());
        }
    };

    const auto &me = conf.controllers.empty() ? ControllerHost{"localhost", "127.0.0.1"}
                                              : conf.controllers[self];
    std::string bind = daemon::listen_address(me.addr.empty() ? me.name : me.addr);
    net::Server server(io, bind, conf.slurmctld_port, auth, me.name, handler,
                       net::server_limits(conf));
    net::AuthSocketKeeper auth_socket(io, net::auth_socket_path(conf), auth);

    uint32_t ping_s = std::clamp<uint32_t>(conf.slurmd_timeout / 3, 1, 60);
    // With backups, nodes must hear from the controller in control more often than a backup waits
    // (SlurmctldTimeout): a backup asks them before it takes control (standby.cpp).
    if (conf.controllers.size() > 1)
        ping_s = std::min(ping_s, std::max<uint32_t>(1, conf.slurmctld_timeout / 3));
    // Nothing changes on its own while control is handed over.
    auto unless_handing = [&](std::function<void()> fn) {
        return [&handover, fn = std::move(fn)] {
            if (!handover.handing_over()) fn();
        };
    };
    Every tick(io, std::chrono::seconds(1), unless_handing([&] {
                   jobs.tick();
                   steps.tick();
               }));
    Every resched(io, std::chrono::seconds(5), unless_handing([&] { sched.request(); }));
    Every ping(io, std::chrono::seconds(ping_s), unless_handing([&] { nodes.ping_all(); }));
    Every peers(io, std::chrono::seconds(1), [&] { handover.watch_peers(); });
    Every sync(io, std::chrono::seconds(1), [&] { store.sync(); });
    daemon::HeapTrimmer trim(io, std::chrono::seconds(2));

    asio::signal_set hup(io, SIGHUP);
    std::function<void()> on_hup = [&] {
        hup.async_wait([&](boost::system::error_code ec, int) {
            if (ec) return;
            try {
                load_config(conf.path);
                spdlog::info("SIGHUP: {} re-read and valid; node and partition changes take effect "
                             "at restart",
                             conf.path);
            } catch (const std::exception &e) {
                spdlog::error("SIGHUP: {}", e.what());
            }
            on_hup();
        });
    };
    on_hup();
    asio::signal_set signals(io, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code, int sig) {
        spdlog::info("signal {}: shutting down", sig);
        io.stop();
    });
    spdlog::info(
        "droverctld {} in control (generation {}) on {}:{} ({} nodes, {} partitions, {} jobs)",
        ctx.host, ctx.epoch, bind, server.port(), nodes.size(), nodes.partitions().size(),
        jobs.count());
    sched.request();
    nodes.ping_all();
    io.run();
    commit.flush();
    commit.release_all();
    store.sync();
    return outcome;
}

// LMDB writes through a shared memory map, which network filesystems do not keep coherent; state
// is replicated between controllers over the network, so a local directory is all each needs.
void warn_if_remote(const std::string &dir) {
    struct statfs fs {};
    std::string probe = dir;
    while (::statfs(probe.c_str(), &fs) != 0 && probe.find('/') != std::string::npos)
        probe = probe.rfind('/') == 0 ? "/" : probe.substr(0, probe.rfind('/'));
    constexpr long kRemote[] = {0x6969 /* NFS */,
                                0x517B /* SMB */,
                                long(0xFF534D42) /* CIFS */,
                                long(0xFE534D42) /* SMB2 */,
                                0x00C36400 /* Ceph */,
                                0x47504653 /* GPFS */,
                                0x0BD00BD0 /* Lustre */,
                                0x65735546 /* FUSE */};
    for (long t : kRemote)
        if (long(fs.f_type) == t) {
            spdlog::warn(
                "state directory {} is on a network filesystem: LMDB needs a local one (backup "
                "controllers copy state over the network, no shared StateSaveLocation is needed)",
                dir);
            return;
        }
}

} // namespace

int run_controller(const Options &opts) {
    Config conf = load_config(opts.config_path);
    for (const auto &w : conf.warnings) spdlog::warn("{}", w);
    conf.raw["drover.config_dir"] = conf.path.substr(0, conf.path.find_last_of('/') + 1);

    std::size_t self = self_index(conf, opts.controller_name);
    std::string dir = state_dir(conf, self);
    if (self > 0 && ::mkdir(conf.state_save_location.c_str(), 0700) != 0 && errno != EEXIST)
        throw std::runtime_error("cannot create " + conf.state_save_location + ": " +
                                 std::strerror(errno));
    warn_if_remote(dir);
    // Plugins that keep files under StateSaveLocation (accounting/lmdb) use this controller's own.
    conf.raw["statesavelocation"] = dir;

    plugin::PluginSet plugins(conf, "ctld");
    plugins.load(conf.auth_type);
    plugins.load(conf.select_type);
    plugins.load(conf.scheduler_type);
    plugins.load(conf.accounting_storage_type);
    net::Authenticator auth(plugins.auth());
    uint32_t slurm_uid = daemon::uid_of(conf.slurm_user);
    net::set_reply_check(
        net::admin_reply_check(auth, [slurm_uid](uint32_t u) { return u == 0 || u == slurm_uid; }));
    daemon::raise_fd_limit();

    bool sync_each = conf.state_save_sync == "yes" || conf.state_save_sync == "1";
    state::Store store(dir, sync_each, conf.state_save_max_size_mb << 20);

    // With backups, every controller starts as a standby: the primary takes control at once when
    // nobody has it, else it catches up and asks for it back; a backup waits.
    bool standby = conf.controllers.size() > 1;
    StandbyOptions so{self, self == 0, self == 0};
    uint64_t seen_epoch = 0;
    bool cold_start = opts.cold_start;
    for (;;) {
        if (standby) {
            StandbyOutcome o = run_standby(conf, store, auth, so);
            if (!o.take_control) break;
            seen_epoch = o.seen_epoch;
        }
        ActiveOutcome a = run_active(conf, plugins, auth, store, self, seen_epoch, cold_start);
        cold_start = false;
        if (a.stop) break;
        standby = true;
        so = {self, a.take_back, false};
    }
    store.sync();
    return 0;
}

} // namespace drover::ctld
