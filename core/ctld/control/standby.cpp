// standby.cpp - a standby controller's loop: finding the controller in control, pulling its
// transactions, answering pings, and deciding when to take control.
#include "ctld/control/standby.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <chrono>
#include <optional>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/control/config_check.hpp"
#include "ctld/control/peers.hpp"
#include "ctld/store/repl_replica.hpp"
#include "daemon/daemon.hpp"
#include "daemon/log_reopen.hpp"
#include "daemon/service.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"
#include "net/server.hpp"
#include "state/store.hpp"

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace drover::ctld {

namespace {

constexpr uint32_t kPullWaitMs = 500;

std::vector<uint8_t> finish_msg(flatbuffers::FlatBufferBuilder &fbb) {
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

// The standby's state; every member is used on the loop's thread only.
struct Standby {
    const Config &conf;
    const net::Authenticator &auth;
    const StandbyOptions &opts;
    asio::io_context io{1};
    net::CallPool pool{io, 3};
    ReplReplica replica;
    std::string me;
    StandbyOutcome out;
    std::optional<std::size_t> source; // the controller in control, when known
    Clock::time_point last_contact = Clock::now();
    Clock::time_point last_find{};
    bool finding = false, pulling = false, asking = false, checking = false, done = false;
    bool first_round = true;
    bool warned_witness = false;
    bool warned_alone = false;
    bool forced = false;                 // an administrator asked for control (scontrol takeover)
    bool want_control;                   // ask for control once caught up
    std::optional<uint64_t> handed_head; // the active handed over at this transaction

    Standby(const Config &c, state::Store &store, const net::Authenticator &a,
            const StandbyOptions &o)
        : conf(c), auth(a), opts(o), replica(store), me(c.controllers[o.self].name),
          want_control(o.take_back) {
        out.seen_epoch = std::max(state::get_meta_u64(store, kMetaEpoch, 0),
                                  state::get_meta_u64(store, kMetaReplEpoch, 0));
    }

    void finish(bool take) {
        if (done) return;
        done = true;
        out.take_control = take;
        io.stop();
    }

    void after(int ms, std::function<void()> fn) {
        auto t = std::make_shared<asio::steady_timer>(io, std::chrono::milliseconds(ms));
        t->async_wait([t, fn = std::move(fn)](boost::system::error_code ec) {
            if (!ec) fn();
        });
    }

    // Pings the other controllers and follows the one in control with the highest epoch.
    void find() {
        if (done || source) return;
        if (finding) {
            if (forced) after(100, [this] { find(); }); // the answer must come from a fresh round
            return;
        }
        finding = true;
        last_find = Clock::now();
        auto st = std::make_shared<std::vector<PeerStatus>>(conf.controllers.size());
        pool.run([this, st] { *st = ping_others(conf, opts.self, auth.self_signer(), 1000); },
                 [this, st] {
                     finding = false;
                     if (done) return;
                     std::optional<std::size_t> best;
                     for (std::size_t i = 0; i < st->size(); ++i) {
                         const PeerStatus &p = (*st)[i];
                         out.seen_epoch = std::max(out.seen_epoch, p.epoch);
                         if (p.active && (!best || p.epoch > (*st)[*best].epoch)) best = i;
                     }
                     bool first = std::exchange(first_round, false);
                     if (best) {
                         source = best;
                         last_contact = Clock::now();
                         spdlog::info(
                             "standby: following {} (in control, epoch {}) from transaction {}",
                             conf.controllers[*best].name, (*st)[*best].epoch, replica.seq());
                         return pull();
                     }
                     if ((first && opts.start_if_alone) || forced) {
                         spdlog::info("no other controller is in control: taking control");
                         finish(true);
                     }
                 });
    }

    void lost(const std::string &why) {
        if (source) spdlog::warn("standby: lost {}: {}", conf.controllers[*source].name, why);
        source.reset();
        replica.abandon_copy();
    }

    void pull() {
        if (!source || pulling || done) return;
        pulling = true;
        std::size_t from = *source;
        pool.call(peer_addr(conf, from), conf.slurmctld_port, conf.controllers[from].name,
                  replica.pull_request(me, kPullWaitMs), auth.self_signer(),
                  int(kPullWaitMs) + 4000,
                  [this, from](const std::string &err, std::shared_ptr<net::Reply> reply) {
                      pulling = false;
                      if (done || source != from) return;
                      const proto::ReplPullResponse *r = nullptr;
                      std::string why = err;
                      if (why.empty()) {
                          try {
                              r = reply->as<proto::ReplPullResponse>();
                              replica.apply(*r);
                          } catch (const std::exception &e) {
                              why = e.what();
                          }
                      }
                      if (!why.empty()) return lost(why);
                      last_contact = Clock::now();
                      out.seen_epoch = std::max(out.seen_epoch, replica.active_epoch());
                      if (handed_head && replica.seq() >= *handed_head) return finish(true);
                      if (want_control && replica.caught_up()) ask_control();
                      pull();
                  });
    }

    // Asks the controller in control to hand control over.
    void ask_control() {
        if (asking || done || !source) return;
        asking = true;
        want_control = false;
        std::size_t from = *source;
        spdlog::info("asking {} for control at transaction {}", conf.controllers[from].name,
                     replica.seq());
        flatbuffers::FlatBufferBuilder fbb(128);
        auto n = fbb.CreateString(me);
        fbb.Finish(
            proto::CreateMessage(fbb, proto::Body::RelinquishRequest,
                                 proto::CreateRelinquishRequest(fbb, n, out.seen_epoch).Union()));
        pool.call(peer_addr(conf, from), conf.slurmctld_port, conf.controllers[from].name,
                  finish_msg(fbb), auth.self_signer(), 15000,
                  [this, from](const std::string &err, std::shared_ptr<net::Reply> reply) {
                      asking = false;
                      if (done) return;
                      std::string why = err;
                      if (why.empty()) {
                          try {
                              const auto *r = reply->as<proto::RelinquishResponse>();
                              out.seen_epoch = std::max(out.seen_epoch, r->epoch());
                              handed_head = r->head_seq();
                              spdlog::info("{} handed over control at transaction {}",
                                           conf.controllers[from].name, r->head_seq());
                              if (replica.seq() >= r->head_seq()) return finish(true);
                              return pull();
                          } catch (const std::exception &e) {
                              why = e.what();
                          }
                      }
                      spdlog::warn("{} did not hand over control: {}; asking again later",
                                   conf.controllers[from].name, why);
                      after(2000, [this] {
                          want_control = true;
                          if (replica.caught_up()) ask_control();
                      });
                  });
    }

    // Pings a few nodes spread over the configuration (a worker thread): whether any answers.
    // What the nodes say (a sample of up to 8 of them): whether any answers, and whether one of
    // them heard from the controller in control within SlurmctldTimeout (which one, how long ago).
    struct NodeWitness {
        bool answered = false;
        std::string heard_by;
        uint32_t quiet_ms = 0;
    };
    NodeWitness ask_nodes() const {
        NodeWitness w;
        std::size_t n = conf.nodes.size(), step = std::max<std::size_t>(1, n / 8);
        for (std::size_t i = 0; i < n; i += step) {
            const NodeConf &c = conf.nodes[i];
            flatbuffers::FlatBufferBuilder fbb(64);
            fbb.Finish(proto::CreateMessage(fbb, proto::Body::PingRequest,
                                            proto::CreatePingRequest(fbb).Union()));
            try {
                net::Reply r =
                    net::call(conf.node_addr(c), conf.node_port(c), c.name,
                              {fbb.GetBufferPointer(), fbb.GetSize()}, auth.self_signer(), 1000);
                w.answered = true;
                const auto *p = r.as<proto::PingResponse>();
                if (p->quiet_ms() < uint64_t(conf.slurmctld_timeout) * 1000) {
                    w.heard_by = c.name;
                    w.quiet_ms = p->quiet_ms();
                    return w;
                }
            } catch (const std::exception &) {}
        }
        return w;
    }

    // No controller in control for SlurmctldTimeout: take control unless one is in control after
    // all, one listed before this one is alive to take it, or no node answers here.
    void consider_taking_control() {
        if (checking || done) return;
        checking = true;
        auto st = std::make_shared<std::vector<PeerStatus>>(conf.controllers.size());
        auto up = std::make_shared<std::optional<std::size_t>>();
        auto nodes = std::make_shared<NodeWitness>();
        nodes->answered = conf.nodes.empty();
        pool.run(
            [this, st, up, nodes] {
                // Nodes first: when a cut link returns, the other controllers are asked after it.
                if (!conf.nodes.empty()) *nodes = ask_nodes();
                for (std::size_t i = 0; i < st->size(); ++i) {
                    if (i == opts.self) continue;
                    (*st)[i] = ping_peer(conf, i, auth.self_signer(), 1000);
                    if ((*st)[i].up && (i < opts.self || (*st)[i].active) && !*up) *up = i;
                }
            },
            [this, st, up, nodes] {
                checking = false;
                if (done || source) return;
                for (const PeerStatus &p : *st) out.seen_epoch = std::max(out.seen_epoch, p.epoch);
                if (*up && (*st)[**up].active) { // one took control meanwhile (or came back)
                    last_contact = Clock::now();
                    return find();
                }
                if (*up) {
                    spdlog::debug("standby: {} is alive and listed first; it takes control",
                                  conf.controllers[**up].name);
                    return find();
                }
                // A controller that reaches no node is the one cut off: taking control there
                // would only start a generation that no node follows.
                if (!nodes->answered) {
                    if (!warned_alone)
                        spdlog::warn(
                            "no controller is in control, but no node answers here either: "
                            "not taking control");
                    warned_alone = true;
                    return;
                }
                // Nodes still hear from the controller in control: it is alive and cut off from
                // this one only. Taking control would start a second history beside the one it
                // goes on acknowledging; standing by loses nothing (its changes come here once
                // the link returns).
                if (!nodes->heard_by.empty()) {
                    if (!warned_witness)
                        spdlog::warn("no word from the controller in control for {} s, but node {} "
                                     "heard from it "
                                     "{} ms ago: it is alive, not taking control",
                                     conf.slurmctld_timeout, nodes->heard_by, nodes->quiet_ms);
                    warned_witness = true;
                    return;
                }
                warned_witness = false;
                spdlog::warn(
                    "no controller has been in control for {} s (SlurmctldTimeout): taking "
                    "control at transaction {}",
                    conf.slurmctld_timeout, replica.seq());
                finish(true);
            });
    }

    void tick() {
        if (done || source) return;
        auto now = Clock::now();
        if (now - last_contact > std::chrono::seconds(conf.slurmctld_timeout))
            consider_taking_control();
        else if (now - last_find > std::chrono::milliseconds(500))
            find();
    }

    void on_request(std::shared_ptr<net::Request> req, net::ResponderPtr resp) {
        const auto type = req->msg->body_type();
        bool admin = req->peer.uid == 0 || req->peer.uid == daemon::uid_of(conf.slurm_user);
        if (type == proto::Body::ControllerPingRequest) {
            flatbuffers::FlatBufferBuilder fbb(128);
            auto h = fbb.CreateString(me);
            auto role = fbb.CreateString(kRoleStandby);
            fbb.Finish(proto::CreateMessage(
                fbb, proto::Body::ControllerPingResponse,
                proto::CreateControllerPingResponse(fbb, h, role, out.seen_epoch).Union()));
            return resp->reply(finish_msg(fbb));
        }
        if (type == proto::Body::ControlRequest || type == proto::Body::ShutdownRequest) {
            if (!admin) return resp->error(DROVER_EPERM, "Access/permission denied");
            if (type == proto::Body::ShutdownRequest) {
                // A command's shutdown goes to the controller in control, which passes it on.
                if (!req->msg->body_as_ShutdownRequest()->from_controller())
                    return resp->error(net::kNotInControl,
                                       "controller " + me + " is a backup in standby");
                spdlog::info("shutdown passed on by {}",
                             req->msg->body_as_ShutdownRequest()->from_controller()->str());
                resp->ok();
                return after(50, [this] { finish(false); });
            }
            resp->ok("controller " + me + " is taking control");
            want_control = true;
            if (source) return ask_control();
            // Ask whoever is in control; take control directly only when nobody is.
            forced = true;
            last_find = {};
            return find();
        }
        resp->error(net::kNotInControl, "controller " + me + " is a backup in standby");
    }
};

} // namespace

StandbyOutcome run_standby(const Config &conf, state::Store &store, const net::Authenticator &auth,
                           const StandbyOptions &opts) {
    Standby sb(conf, store, auth, opts);
    const auto &self = conf.controllers[opts.self];
    std::string bind = daemon::listen_address(self.addr.empty() ? self.name : self.addr);
    net::Server server(
        sb.io, bind, conf.slurmctld_port, auth, self.name,
        [&sb](std::shared_ptr<net::Request> q, net::ResponderPtr r) { sb.on_request(q, r); },
        net::server_limits(conf));
    net::AuthSocketKeeper auth_socket(sb.io, net::auth_socket_path(conf), auth);
    asio::signal_set signals(sb.io, SIGINT, SIGTERM);
    signals.async_wait([&sb](boost::system::error_code ec, int sig) {
        if (ec) return;
        spdlog::info("signal {}: shutting down", sig);
        sb.finish(false);
    });
    spdlog::info("droverctld {} in standby on {}:{} at transaction {}", sb.me, bind, server.port(),
                 sb.replica.seq());
    std::function<void()> tick = [&] {
        sb.tick();
        sb.after(250, tick);
    };
    sb.find();
    sb.after(250, tick);
    daemon::LogReopener reopen(sb.io); // SIGUSR2 and SIGHUP as in control
    daemon::SignalWatch hup(sb.io, SIGHUP, [&conf] { check_config_on_hup(conf.path); });
    daemon::notify_ready(); // a standby serves too (its peers, the handover)
    sb.io.run();
    return sb.out;
}

} // namespace drover::ctld
