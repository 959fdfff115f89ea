// tree_forward.cpp - serving a ForwardRequest: own share as the origin user, the rest down the
// tree.
#include "noded/tree_forward.hpp"

#include <drover/plugin.h>

#include <algorithm>
#include <chrono>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "common/config.hpp"
#include "net/authenticator.hpp"
#include "net/fanout.hpp"
#include "net/server.hpp"
#include "noded/node_instance.hpp"

namespace drover::noded {

namespace {

// Collects a handler's answer as one node's outcome.
struct OutcomeResponder : net::Responder {
    explicit OutcomeResponder(std::function<void(int, std::string)> f) : done(std::move(f)) {}
    void reply(std::span<const uint8_t> message) override {
        if (!done) return;
        flatbuffers::Verifier v(message.data(), message.size());
        int rc = 0;
        std::string text;
        if (v.VerifyBuffer<proto::Message>(nullptr)) {
            const auto *m = flatbuffers::GetRoot<proto::Message>(message.data());
            if (const auto *e = m->body_as_ErrorResponse()) {
                rc = e->code() ? e->code() : DROVER_EIO;
                text = e->message() ? e->message()->str() : "";
            }
        }
        auto f = std::move(done);
        done = nullptr;
        f(rc, text);
    }
    ~OutcomeResponder() override {
        if (done) done(DROVER_EIO, "no answer");
    }
    std::function<void(int, std::string)> done;
};

} // namespace

void serve_forward(NodeShared &sh, const std::string &self,
                   const std::shared_ptr<net::Request> &req,
                   const std::shared_ptr<net::Responder> &resp, const ShareHandler &run_here) {
    const auto *f = req->msg->body_as_ForwardRequest();
    std::vector<std::string> nodes;
    if (f->nodes())
        for (const auto *s : *f->nodes()) nodes.push_back(s->str());
    if (nodes.empty() || !f->inner() || f->inner()->size() == 0)
        return resp->error(DROVER_EINVAL, "empty forward");
    if (nodes.front() != self)
        return resp->error(DROVER_EINVAL, "a forward for " + nodes.front() + " reached " + self);
    Status why;
    auto origin = net::forward_origin(req->peer.uid, f->origin_uid(), sh.is_admin, &why);
    if (!origin) return resp->error(why.code(), why.text());

    // The sender learns at once that this node is alive: its hop timeout is over. A ping at the
    // end of a branch is answered at once and needs no ForwardAccepted before it, which spares most
    // hops of a ping round a frame (anything else may keep the loop busy a while: accepted first).
    bool quick_ping = nodes.size() == 1 &&
                      flatbuffers::GetRoot<proto::Message>(f->inner()->data())->body_type() ==
                          proto::Body::PingRequest;
    if (!quick_ping) resp->accept();
    int timeout = int(std::min(f->timeout_ms(), kMaxForwardTimeoutMs));

    auto results = std::make_shared<std::vector<net::NodeOutcome>>();
    auto waiting = std::make_shared<int>(2);
    auto done = [resp, results, waiting] {
        if (--*waiting) return;
        flatbuffers::FlatBufferBuilder fbb(256 + results->size() * 48);
        std::vector<flatbuffers::Offset<proto::NodeResult>> rs;
        for (const auto &r : *results)
            rs.push_back(
                proto::CreateNodeResultDirect(fbb, r.node.c_str(), r.rc, r.message.c_str()));
        auto v = fbb.CreateVector(rs);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardResponse,
                                        proto::CreateForwardResponse(fbb, v).Union()));
        resp->reply({fbb.GetBufferPointer(), fbb.GetSize()});
    };
    // Our own share: the inner request (verified with the outer one), as the origin sent it.
    auto inner = std::make_shared<net::Request>();
    inner->bytes.assign(f->inner()->begin(), f->inner()->end());
    inner->msg = flatbuffers::GetRoot<proto::Message>(inner->bytes.data());
    inner->peer = req->peer;
    inner->peer.uid = *origin;
    inner->forwarded = true;
    // Our own answer is due before the sender's deadline, however long the handler takes.
    auto answered = std::make_shared<bool>(false);
    auto own_done = [results, done, self, answered](int rc, std::string text) {
        if (*answered) return;
        *answered = true;
        results->push_back({self, rc, std::move(text)});
        done();
    };
    int own_ms = timeout * 9 / 10;
    auto due =
        std::make_shared<boost::asio::steady_timer>(sh.io, std::chrono::milliseconds(own_ms));
    due->async_wait([own_done, due, own_ms](boost::system::error_code ec) {
        if (!ec) own_done(DROVER_EIO, "no answer within " + std::to_string(own_ms) + " ms");
    });
    run_here(inner, std::make_shared<OutcomeResponder>([own_done, due](int rc, std::string text) {
                 due->cancel();
                 own_done(rc, std::move(text));
             }));
    // The rest, split again, on the origin's behalf; they answer before this node must.
    std::vector<std::string> rest(std::make_move_iterator(nodes.begin() + 1),
                                  std::make_move_iterator(nodes.end()));
    int child_timeout = std::max(200, timeout * 8 / 10);
    const Config &conf = sh.conf;
    auto resolve = [&conf](const std::string &n, std::string *host, uint16_t *port) {
        const NodeConf *c = conf.find_node(n);
        if (!c) return false;
        *host = conf.node_addr(*c);
        *port = conf.node_port(*c);
        return true;
    };
    net::forward(
        sh.io, resolve, std::move(rest), f->tree_width(), child_timeout,
        {f->inner()->data(), f->inner()->size()}, sh.auth.self_signer(),
        [results, done](std::vector<net::NodeOutcome> rs) {
            for (auto &r : rs) results->push_back(std::move(r));
            done();
        },
        &sh.calls_io, *origin);
    if (quick_ping && *waiting > 0) resp->accept(); // (not answered after all)
}

} // namespace drover::noded
