// handover.cpp - handing control to a standby, and stepping down for a newer generation.
#include "ctld/control/handover.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include "common/config.hpp"
#include "ctld/store/committer.hpp"
#include "ctld/nodes/node_mgr.hpp"
#include "ctld/control/peers.hpp"
#include "ctld/store/repl_source.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"

namespace asio = boost::asio;

namespace drover::ctld {

struct Handover::Impl {
    Ctx &ctx;
    const NodeManager &nodes;
    ReplSource &repl;
    std::size_t self;
    std::function<void(bool)> step_down;
    bool handing = false, watching = false, stepped = false;
    int64_t last_peer_answer = Ctx::now();
    asio::steady_timer grace;

    Impl(Ctx &c, const NodeManager &n, ReplSource &r, std::size_t s, std::function<void(bool)> sd)
        : ctx(c), nodes(n), repl(r), self(s), step_down(std::move(sd)), grace(c.io) {}

    void leave(bool take_back) {
        if (std::exchange(stepped, true)) return;
        step_down(take_back);
    }
};

Handover::Handover(Ctx &ctx, const NodeManager &nodes, ReplSource &repl, std::size_t self,
                   std::function<void(bool)> step_down)
    : impl_(std::make_unique<Impl>(ctx, nodes, repl, self, std::move(step_down))) {}

Handover::~Handover() = default;

bool Handover::handing_over() const {
    return impl_->handing;
}

void Handover::on_relinquish(const std::shared_ptr<net::Request> &req,
                             const net::ResponderPtr &resp) {
    auto &I = *impl_;
    const auto *r = req->msg->body_as_RelinquishRequest();
    std::string name = r->name() ? r->name()->str() : "?";
    if (I.handing) return resp->error(DROVER_EBUSY, "control is already being handed over");
    spdlog::info("{} asks for control: handing over", name);
    I.handing = true;
    I.ctx.commit.flush();
    I.repl.when_caught_up(name, 5000, [&I, name, resp](bool ok) {
        if (!ok) {
            I.handing = false;
            spdlog::warn("{} did not catch up within 5 s: keeping control", name);
            return resp->error(DROVER_EBUSY,
                               name + " did not catch up with the controller in control");
        }
        I.ctx.commit.freeze();
        flatbuffers::FlatBufferBuilder fbb(64);
        fbb.Finish(proto::CreateMessage(
            fbb, proto::Body::RelinquishResponse,
            proto::CreateRelinquishResponse(fbb, I.ctx.commit.seq(), I.ctx.epoch).Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
        spdlog::info("handed control to {} at transaction {}; standing by", name,
                     I.ctx.commit.seq());
        // Time for the reply to leave before this controller's server closes.
        I.grace.expires_after(std::chrono::milliseconds(300));
        I.grace.async_wait([&I](boost::system::error_code ec) {
            if (!ec) I.leave(false);
        });
    });
}

void Handover::newer_epoch(uint64_t epoch) {
    spdlog::warn("a request carried controller generation {}, newer than ours ({}): another "
                 "controller is in control; stepping down",
                 epoch, impl_->ctx.epoch);
    impl_->leave(impl_->self == 0);
}

void Handover::fenced_by_node() {
    spdlog::warn("a node refused generation {}: it has seen a newer controller; stepping down",
                 impl_->ctx.epoch);
    impl_->leave(impl_->self == 0);
}

void Handover::watch_peers() {
    auto &I = *impl_;
    const Config &conf = I.ctx.conf;
    if (conf.controllers.size() < 2 || I.watching || I.stepped) return;
    I.watching = true;
    auto st = std::make_shared<std::vector<PeerStatus>>(conf.controllers.size());
    // The pings may still run while this controller steps down: they hold nothing of ours.
    I.ctx.pool.run(
        [&conf, st, self = I.self, sign = I.ctx.auth.self_signer()] {
            *st = ping_others(conf, self, sign, 1000);
        },
        [&I, &conf, st] {
            I.watching = false;
            int64_t now = Ctx::now();
            for (const PeerStatus &p : *st)
                if (p.up) I.last_peer_answer = now;
            // Cut off from every other controller and every node for SlurmctldTimeout: a backup
            // that can reach them may have taken control. Stop acknowledging changes no one
            // else will hold.
            int64_t heard = std::max(I.last_peer_answer, I.nodes.last_answer());
            bool has_nodes = I.nodes.size() > 0;
            if (has_nodes && now - heard > int64_t(conf.slurmctld_timeout)) {
                spdlog::warn(
                    "no other controller and no node has answered for {} s: this controller "
                    "may be cut off; stepping down",
                    now - heard);
                return I.leave(I.self == 0);
            }
            for (std::size_t i = 0; i < st->size(); ++i) {
                const PeerStatus &p = (*st)[i];
                // Two in control: the newer generation wins; at equal ones, the one listed first.
                if (p.active && (p.epoch > I.ctx.epoch || (p.epoch == I.ctx.epoch && i < I.self))) {
                    spdlog::warn("{} is in control with generation {} (ours {}): stepping down",
                                 conf.controllers[i].name, p.epoch, I.ctx.epoch);
                    return I.leave(I.self == 0);
                }
            }
        });
}

void Handover::shutdown_standbys() {
    auto &I = *impl_;
    const Config &conf = I.ctx.conf;
    for (std::size_t i = 0; i < conf.controllers.size(); ++i) {
        if (i == I.self) continue;
        flatbuffers::FlatBufferBuilder fbb(64);
        auto from = fbb.CreateString(I.ctx.host);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::ShutdownRequest,
                                        proto::CreateShutdownRequest(fbb, from).Union()));
        I.ctx.pool.call(peer_addr(conf, i), conf.slurmctld_port, conf.controllers[i].name,
                        {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()},
                        I.ctx.auth.self_signer(), 2000,
                        [](const std::string &, std::shared_ptr<net::Reply>) {});
    }
}

} // namespace drover::ctld
