// controller.cpp - droverctld's wiring: parts, message routing and timers.
#include "ctld/controller.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <pwd.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/hostlist.hpp"
#include "daemon/daemon.hpp"
#include "daemon/heap_trim.hpp"
#include "daemon/log_reopen.hpp"
#include "daemon/service.hpp"
#include "ctld/acct/acct_admin.hpp"
#include "ctld/fed/federation.hpp"
#include "ctld/fed/fed_jobs.hpp"
#include "ctld/acct/acct_queue.hpp"
#include "ctld/acct/acct_recorder.hpp"
#include "ctld/ctld_stats.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/context.hpp"
#include "ctld/controller_routes.hpp"
#include "ctld/control/config_check.hpp"
#include "ctld/control/token_auth.hpp"
#include "ctld/control/handover.hpp"
#include "ctld/control/peers.hpp"
#include "ctld/privacy.hpp"
#include "ctld/store/repl_source.hpp"
#include "ctld/control/standby.hpp"
#include "ctld/events.hpp"
#include "ctld/jobs/job_mgr.hpp"
#include "ctld/jobs/job_signals.hpp"
#include "ctld/metrics/metrics.hpp"
#include "ctld/sched/launcher.hpp"
#include "ctld/power/power_save.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/sched/placement.hpp"
#include "ctld/resv/reservations.hpp"
#include "ctld/sched/priorities.hpp"
#include "ctld/sched/scheduler.hpp"
#include "ctld/steps/step_mgr.hpp"
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

} // namespace

namespace {

struct ActiveOutcome {
    bool stop = true;
    bool take_back = false; // as a standby, ask for control again once caught up
};

// The controller in control: its parts as members, built in declaration order (each may use
// those above it) and destroyed in reverse; recovers the store, then serves until shut down or
// until control moves to another controller.
class InControl {
  public:
    InControl(Config &conf, plugin::PluginSet &plugins, net::Authenticator &auth,
              state::Store &store, const TokenAuth &tokens, std::size_t self, uint64_t seen_epoch)
        : tokens_(tokens), commit_(io_, store), pool_(io_, 8),
          acct_(io_, plugins.acct_calls(), conf.cluster_name,
                [this](uint64_t seq) { recorder_.delivered(seq); }),
          recorder_(commit_, store, acct_), ctx_{io_,   conf,  plugins, auth, store, commit_,
                                                 pool_, acct_, events_, 0,    {},    &recorder_},
          fed_(ctx_), repl_(io_, store, commit_), epoch_(start_generation(self, seen_epoch)),
          nodes_(ctx_), handover_(ctx_, nodes_, repl_, self,
                                  [this](bool take_back) {
                                      outcome_ = {false, take_back};
                                      io_.stop();
                                  }),
          place_(plugins.select_calls(), nodes_), jobs_(ctx_, nodes_, place_),
          prio_(ctx_, nodes_, jobs_), resv_(ctx_, nodes_, jobs_), steps_(ctx_, nodes_, jobs_),
          signals_(ctx_, jobs_, steps_), sched_(ctx_, nodes_, jobs_, place_, resv_),
          fed_jobs_(ctx_, jobs_, fed_), launcher_(ctx_, nodes_, jobs_), power_(ctx_, nodes_, jobs_),
          admin_(ctx_), metrics_(ctx_, nodes_, jobs_, repl_),
          router_([this](uint32_t uid) { return ctx_.is_admin(uid); }) {
        // scontrol delete partition is refused while a job is pending or running in it.
        nodes_.set_partition_in_use([this](const std::string &part) {
            auto in = [&](const Job *j) { return j->partition == part; };
            return std::ranges::any_of(jobs_.pending(), in) ||
                   std::ranges::any_of(jobs_.running(), in);
        });
        // A node in a reservation now shows so (Slurm's RESERVED, MAINT).
        nodes_.set_shown_flags([this](uint32_t i) { return resv_.shown_flags(i, Ctx::now()); });
        router_.add(jobs_.routes());
        router_.add(signals_.routes());
        router_.add(steps_.routes());
        router_.add(nodes_.routes());
        router_.add(prio_.routes());
        router_.add(resv_.routes());
        router_.add(power_.routes());
        ctx_.fed = &fed_;
        router_.add(acct_routes(ctx_, admin_));
        router_.add({{proto::Body::FedInfoRequest, net::Caller::Anyone,
                      net::member(&fed_, &Federation::on_info)},
                     {proto::Body::FedJobRequest, net::Caller::Admin,
                      net::member(&fed_jobs_, &FedJobs::on_request)}});
        sched_.set_start_gate(
            [this](Job &job, std::string &why) { return fed_jobs_.may_start(job, why); });
        fed_jobs_.set_leave([this] { admin_.leave_federation(); });
        jobs_.set_remote_job([this](uint32_t id) { return fed_jobs_.remote_job(id); });
        jobs_.set_update_forward(
            [this](Job &job, const Req &req, const Resp &resp) {
                return fed_jobs_.forward_update(job, req, resp);
            },
            [this](const Job &job, const Req &req) { fed_jobs_.updated(job, req); });
        signals_.set_signal_forward(
            [this](Job &job, int sig, JobManager::SignalScope scope, uint32_t uid) {
                return fed_jobs_.forward_signal(job, sig, int(scope), uid);
            });
        router_.add(controller_routes({ctx_, admin_, handover_, repl_, nodes_, jobs_, power_,
                                       tokens_, [this] { io_.stop(); }}));
    }

    ActiveOutcome run(bool cold_start, const ControllerHost &me);

  private:
    uint64_t start_generation(std::size_t self, uint64_t seen_epoch);
    void recover(bool cold_start);
    void serve(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

    const TokenAuth &tokens_;
    asio::io_context io_{1};
    Committer commit_;
    net::CallPool pool_;
    AcctQueue acct_; // delivers to recorder_ (below), only once recovered
    AcctRecorder recorder_;
    Events events_; // what a part publishes, for the parts built after it
    Ctx ctx_;
    Federation fed_;
    ReplSource repl_;
    uint64_t epoch_;
    ActiveOutcome outcome_;
    NodeManager nodes_;
    Handover handover_;
    Placement place_;
    JobManager jobs_;
    Priorities prio_;
    Reservations resv_;
    StepManager steps_;
    JobSignals signals_;
    Scheduler sched_;
    FedJobs fed_jobs_;
    Launcher launcher_;
    PowerSaver power_;
    AcctAdmin admin_;
    Metrics metrics_;
    net::Router router_;
};

// Each time a controller takes control it starts a newer generation, which fences the controller
// that had it: nodes and commands that have seen the newer one refuse the older. The log for
// standbys starts before that generation's first transaction, so a standby that held everything
// so far continues from it.
uint64_t InControl::start_generation(std::size_t self, uint64_t seen_epoch) {
    const Config &conf = ctx_.conf;
    ctx_.host = conf.controllers.empty() ? daemon::short_hostname() : conf.controllers[self].name;
    ctx_.slurm_uid = daemon::uid_of(conf.slurm_user);
    ctx_.fenced = [this] { handover_.fenced_by_node(); };
    if (conf.controllers.size() > 1) commit_.set_listener(&repl_);
    // Controller i only uses generations equal to i modulo the number of controllers, so two that
    // take control apart from each other never share one.
    uint64_t ctls = std::max<uint64_t>(1, conf.controllers.size());
    ctx_.epoch = std::max(state::get_meta_u64(ctx_.store, kMetaEpoch, 0), seen_epoch) + 1;
    while (ctx_.epoch % ctls != self % ctls) ++ctx_.epoch;
    commit_.set_epoch(ctx_.epoch);
    state::put_meta_u64(commit_.txn(), kMetaEpoch, ctx_.epoch);
    commit_.flush();
    return ctx_.epoch;
}

void InControl::recover(bool cold_start) {
    acct_.stats().server_start = acct_.stats().since = Ctx::now();
    nodes_.recover(cold_start);
    jobs_.recover(cold_start);
    steps_.recover(cold_start);
    recorder_.recover();
    nodes_.record_events();
    admin_.start();
    prio_.start();
    resv_.start();
    power_.start(cold_start);
    sched_.init_select();
    commit_.flush();
}

void InControl::serve(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp) {
    auto type = req->msg->body_type();
    // A token names the user the request runs as, whoever brought it (drover-restd).
    const auto *token = req->msg->token();
    const auto *user = req->msg->token_user();
    if (token || user) {
        Status s = tokens_.admit(token ? token->string_view() : "", user ? user->string_view() : "",
                                 Ctx::now(), req->peer);
        if (!s.ok()) return resp->error(s.code(), s.text());
    }
    // Only the controllers and node daemons (root or SlurmUser) speak for generations: a user's
    // message carrying a newer one is not evidence of another controller in control.
    if (req->msg->epoch() > ctx_.epoch && ctx_.is_admin(req->peer.uid)) {
        handover_.newer_epoch(req->msg->epoch());
        return resp->error(net::kNotInControl,
                           "controller " + ctx_.host + " is no longer in control");
    }
    if (handover_.handing_over() && type != proto::Body::ControllerPingRequest &&
        type != proto::Body::ReplPullRequest)
        return resp->error(net::kNotInControl,
                           "controller " + ctx_.host + " is handing over control");
    router_.dispatch(req, resp);
}

ActiveOutcome InControl::run(bool cold_start, const ControllerHost &me) {
    const Config &conf = ctx_.conf;
    recover(cold_start);
    std::string bind = daemon::listen_address(me.addr.empty() ? me.name : me.addr);
    net::Server server(
        io_, bind, conf.slurmctld_port, ctx_.auth, me.name,
        [this](std::shared_ptr<net::Request> q, net::ResponderPtr r) { serve(q, r); },
        net::server_limits(conf));
    net::AuthSocketKeeper auth_socket(io_, net::auth_socket_path(conf), ctx_.auth);
    if (metrics_enabled(conf))
        server.serve_http([this](const std::string &path) { return metrics_.http(path); });

    uint32_t ping_s = std::clamp<uint32_t>(conf.slurmd_timeout / 3, 1, 60);
    // With backups, nodes must hear from the controller in control more often than a backup waits
    // (SlurmctldTimeout): a backup asks them before it takes control (standby.cpp).
    if (conf.controllers.size() > 1)
        ping_s = std::min(ping_s, std::max<uint32_t>(1, conf.slurmctld_timeout / 3));
    // Nothing changes on its own while control is handed over.
    auto unless_handing = [this](std::function<void()> fn) {
        return [this, fn = std::move(fn)] {
            if (!handover_.handing_over()) fn();
        };
    };
    Every tick(io_, std::chrono::seconds(1), unless_handing([this] {
                   jobs_.tick();
                   steps_.tick();
                   resv_.tick();
                   nodes_.reboot_tick();
               }));
    Every resched(io_, std::chrono::seconds(5), unless_handing([this] { sched_.request(); }));
    Every ping(io_, std::chrono::seconds(ping_s), unless_handing([this] { nodes_.ping_all(); }));
    Every power(io_, std::chrono::seconds(std::max<uint32_t>(conf.power.interval, 1)),
                unless_handing([this] { power_.pass(); }));
    Every peers(io_, std::chrono::seconds(1), [this] { handover_.watch_peers(); });
    Every sync(io_, std::chrono::seconds(1), [this] { ctx_.store.sync(); });
    daemon::HeapTrimmer trim(io_, std::chrono::seconds(2));
    daemon::LogReopener reopen(io_);

    daemon::SignalWatch hup(io_, SIGHUP, [&conf] { check_config_on_hup(conf.path); });
    asio::signal_set signals(io_, SIGINT, SIGTERM);
    signals.async_wait([this](boost::system::error_code, int sig) {
        spdlog::info("signal {}: shutting down", sig);
        io_.stop();
    });
    spdlog::info(
        "droverctld {} in control (generation {}) on {}:{} ({} nodes, {} partitions, {} jobs)",
        ctx_.host, ctx_.epoch, bind, server.port(), nodes_.size(), nodes_.partitions().size(),
        jobs_.count());
    sched_.request();
    nodes_.ping_all();
    daemon::notify_ready();
    io_.run();
    commit_.flush();
    commit_.release_all();
    ctx_.store.sync();
    return outcome_;
}

ActiveOutcome run_active(Config &conf, plugin::PluginSet &plugins, net::Authenticator &auth,
                         state::Store &store, const TokenAuth &tokens, std::size_t self,
                         uint64_t seen_epoch, bool cold_start) {
    InControl ctl(conf, plugins, auth, store, tokens, self, seen_epoch);
    const auto &me = conf.controllers.empty() ? ControllerHost{"localhost", "127.0.0.1"}
                                              : conf.controllers[self];
    return ctl.run(cold_start, me);
}

// JobSubmitPlugins=lua,job_submit/other: each as a plugin id, in order.
std::vector<std::string> job_submit_plugin_ids(const Config &conf) {
    std::vector<std::string> ids;
    auto it = conf.raw.find("jobsubmitplugins");
    if (it == conf.raw.end()) return ids;
    for (const std::string &name : detail::split_list(it->second))
        ids.push_back(name.find('/') == std::string::npos ? "job_submit/" + name : name);
    return ids;
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
    if (!conf.accounting_storage_type.empty()) plugins.load(conf.accounting_storage_type); // none
    if (!conf.priority_type.empty()) plugins.load(conf.priority_type); // priority/basic: none
    for (const std::string &id : job_submit_plugin_ids(conf)) plugins.load(id);
    net::Authenticator auth(plugins.auth_calls());
    uint32_t slurm_uid = daemon::uid_of(conf.slurm_user);
    net::set_reply_check(
        net::admin_reply_check(auth, [slurm_uid](uint32_t u) { return u == 0 || u == slurm_uid; }));
    daemon::raise_fd_limit();
    const TokenAuth tokens(conf, slurm_uid); // fails the start when the key cannot be read

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
        ActiveOutcome a =
            run_active(conf, plugins, auth, store, tokens, self, seen_epoch, cold_start);
        cold_start = false;
        if (a.stop) break;
        standby = true;
        so = {self, a.take_back, false};
    }
    store.sync();
    return 0;
}

} // namespace drover::ctld
