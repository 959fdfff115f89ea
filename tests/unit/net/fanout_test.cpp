// fanout_test.cpp - split_tree and tree_depth, and net::forward through a tree of real loopback
// servers: every node is named in the one aggregated reply, a node that takes the connection and
// never accepts the request costs one hop timeout (its part is sent again, split), one that
// accepts and never answers is reported with its part at the deadline, an unknown node costs
// nothing, and no more than TreeWidth messages leave one forward at a time.
#include <gtest/gtest.h>

#include <drover/plugin.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>

#include "net/call_loop.hpp"
#include "net/fanout.hpp"
#include "proto/frame.hpp"

namespace asio = boost::asio;
using asio::ip::tcp;
using namespace drover;
using namespace std::chrono_literals;

namespace {

std::vector<std::string> names(int n) {
    std::vector<std::string> v;
    for (int i = 0; i < n; ++i) v.push_back("n" + std::to_string(i));
    return v;
}

TEST(SplitTree, ContiguousNearEqualParts) {
    auto all = names(10);
    auto parts = net::split_tree(all, 3);
    ASSERT_EQ(parts.size(), 3u);
    EXPECT_EQ(parts[0].size(), 4u);
    EXPECT_EQ(parts[1].size(), 3u);
    EXPECT_EQ(parts[2].size(), 3u);
    EXPECT_EQ(parts[0].front(), "n0");
    EXPECT_EQ(parts[1].front(), "n4");
    EXPECT_EQ(parts[2].back(), "n9");
    EXPECT_EQ(net::split_tree(all, 50).size(), 10u); // never more parts than nodes
    EXPECT_EQ(net::split_tree(all, 0).size(), 1u);   // width 0 acts as 1
    EXPECT_TRUE(net::split_tree({}, 4).empty());
}

// Whom a forwarded request acts for: the sender, or the user a forwarding node (root or SlurmUser)
// names; a user naming anyone else is refused, so no node of the tree acts for more than the user.
TEST(ForwardOrigin, OnlyAdministratorsNameAnotherUser) {
    auto admin = [](uint32_t uid) { return uid == 0 || uid == 500; };
    Status why;
    EXPECT_EQ(net::forward_origin(1000, net::kSenderOrigin, admin, &why), 1000u);
    EXPECT_EQ(net::forward_origin(1000, 1000, admin, &why), 1000u);
    EXPECT_EQ(net::forward_origin(0, net::kSenderOrigin, admin, &why), 0u);
    EXPECT_EQ(net::forward_origin(0, 1000, admin, &why),
              1000u); // a node passing a user's request on
    EXPECT_EQ(net::forward_origin(500, 1000, admin, &why), 1000u); // SlurmUser's droverd likewise
    EXPECT_TRUE(why.ok());
    EXPECT_FALSE(net::forward_origin(1000, 0, admin, &why)); // a user may not act as root
    EXPECT_EQ(why.code(), DROVER_EPERM);
    EXPECT_NE(why.text().find("may not act for uid 0"), std::string::npos) << why.text();
    EXPECT_FALSE(net::forward_origin(1000, 1001, admin, &why)); // nor as another user
}

// The origin travels in every ForwardRequest a forward sends.
TEST(ForwardOrigin, CarriedInTheRequest) {
    auto all = names(4);
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::PingRequest, proto::CreatePingRequest(fbb).Union()));
    std::vector<uint8_t> inner(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
    auto check = [&](uint32_t origin) {
        auto msg = net::make_forward_request(all, 3, 1000, inner, origin);
        flatbuffers::Verifier v(msg.data(), msg.size());
        ASSERT_TRUE(v.VerifyBuffer<proto::Message>(nullptr));
        const auto *f = flatbuffers::GetRoot<proto::Message>(msg.data())->body_as_ForwardRequest();
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->origin_uid(), origin);
        EXPECT_EQ(f->nodes()->size(), 4u);
    };
    check(net::kSenderOrigin);
    check(1000);
}

TEST(SplitTree, Depth) {
    EXPECT_EQ(net::tree_depth(0, 50), 0u);
    EXPECT_EQ(net::tree_depth(1, 50), 1u);
    EXPECT_EQ(net::tree_depth(51, 50), 2u);
    EXPECT_EQ(net::tree_depth(52, 50), 3u);
    EXPECT_EQ(net::tree_depth(10000, 50), 4u);
}

// A node on loopback: answers a ForwardRequest the way droverd does (its own result, then the
// rest of its part forwarded with net::forward), or, when hung, accepts and never answers.
class FakeNode : public std::enable_shared_from_this<FakeNode> {
  public:
    struct Cluster;
    FakeNode(asio::io_context &io, Cluster &c, std::string name)
        : io_(io), cluster_(c), name_(std::move(name)),
          acceptor_(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {}
    uint16_t port() const { return acceptor_.local_endpoint().port(); }
    void start() { accept(); }
    bool hung = false;   // takes the connection, never accepts nor answers
    bool silent = false; // accepts, never answers
    int requests = 0;    // ForwardRequests this node received

  private:
    struct Conn {
        tcp::socket sock;
        uint8_t header[proto::kFrameHeaderSize];
        std::vector<uint8_t> body;
        proto::Body type = proto::Body::NONE;
        std::deque<std::vector<uint8_t>> out; // frames to write, the front one being written
    };
    void accept();
    void read(std::shared_ptr<Conn> c);
    void answer(std::shared_ptr<Conn> c);
    static void send(std::shared_ptr<Conn> c, std::vector<uint8_t> frame);

    asio::io_context &io_;
    Cluster &cluster_;
    std::string name_;
    tcp::acceptor acceptor_;
    std::vector<std::shared_ptr<Conn>> held_; // a hung node's connections, kept open
};

struct FakeNode::Cluster {
    asio::io_context &io;
    std::map<std::string, std::shared_ptr<FakeNode>> nodes;
    int open_from_root = 0, max_open_from_root = 0; // requests of the root's own hops in flight

    Cluster(asio::io_context &io, int n, std::set<std::string> hung = {},
            std::set<std::string> silent = {})
        : io(io) {
        for (const auto &name : names(n)) {
            auto node = std::make_shared<FakeNode>(io, *this, name);
            node->hung = hung.count(name) > 0;
            node->silent = silent.count(name) > 0;
            node->start();
            nodes[name] = node;
        }
    }
    net::Resolver resolver() {
        return [this](const std::string &n, std::string *host, uint16_t *port) {
            auto it = nodes.find(n);
            if (it == nodes.end()) return false;
            *host = "127.0.0.1";
            *port = it->second->port();
            return true;
        };
    }
};

// The fake nodes check no credential; a frame must still carry one.
const std::vector<uint8_t> kCredential{1, 2, 3};

net::Signer no_credential() {
    return [](std::span<const uint8_t>, std::string_view) { return net::Seal{{}, kCredential}; };
}

std::vector<uint8_t> frame_of(const flatbuffers::FlatBufferBuilder &fbb) {
    return proto::make_frame({fbb.GetBufferPointer(), fbb.GetSize()}, "", proto::Digest{},
                             kCredential);
}

std::vector<uint8_t> ping_message() {
    flatbuffers::FlatBufferBuilder fbb(64);
    fbb.Finish(
        proto::CreateMessage(fbb, proto::Body::PingRequest, proto::CreatePingRequest(fbb).Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

void FakeNode::accept() {
    acceptor_.async_accept(
        [self = shared_from_this()](boost::system::error_code ec, tcp::socket s) {
            if (ec) return;
            auto c = std::make_shared<Conn>(Conn{std::move(s), {}, {}, {}, {}});
            self->read(c);
            self->accept();
        });
}

void FakeNode::read(std::shared_ptr<Conn> c) {
    asio::async_read(
        c->sock, asio::buffer(c->header),
        [self = shared_from_this(), c](boost::system::error_code ec, std::size_t) {
            if (ec) return;
            proto::FrameHeader h;
            ASSERT_EQ(proto::decode_frame_header(c->header, &h), "");
            c->body.resize(h.preamble_len + h.body_len);
            asio::async_read(
                c->sock, asio::buffer(c->body),
                [self, c, h](boost::system::error_code ec, std::size_t) {
                    if (ec) return;
                    proto::Preamble p;
                    ASSERT_EQ(proto::decode_preamble({c->body.data(), h.preamble_len}, &p), "");
                    EXPECT_EQ(p.to, self->name_); // each hop is sealed for the node it goes to
                    c->type = h.type;
                    c->body.erase(c->body.begin(), c->body.begin() + h.preamble_len);
                    ++self->requests;
                    if (self->hung) return self->held_.push_back(c);
                    self->answer(c);
                });
        });
}

void FakeNode::send(std::shared_ptr<Conn> c, std::vector<uint8_t> frame) {
    c->out.push_back(std::move(frame));
    if (c->out.size() > 1) return;
    asio::async_write(c->sock, asio::buffer(c->out.front()),
                      [c](boost::system::error_code ec, std::size_t) {
                          c->out.pop_front();
                          if (!ec && !c->out.empty()) {
                              auto next = std::move(c->out.front());
                              c->out.pop_front();
                              send(c, std::move(next));
                          }
                      });
}

void FakeNode::answer(std::shared_ptr<Conn> c) {
    {
        flatbuffers::FlatBufferBuilder fbb(32);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardAccepted,
                                        proto::CreateForwardAccepted(fbb).Union()));
        send(c, frame_of(fbb));
    }
    if (silent) return held_.push_back(c);
    const proto::Message *m = nullptr;
    ASSERT_EQ(proto::verify_message(c->body, c->type, &m), "");
    const auto *f = m->body_as_ForwardRequest();
    ASSERT_NE(f, nullptr);
    std::vector<std::string> part;
    for (const auto *s : *f->nodes()) part.push_back(s->str());
    EXPECT_EQ(part.front(), name_); // a part goes to its first node
    auto results = std::make_shared<std::vector<net::NodeOutcome>>();
    results->push_back({name_, 0, ""});
    auto reply = [self = shared_from_this(), c, results] {
        flatbuffers::FlatBufferBuilder fbb(256);
        std::vector<flatbuffers::Offset<proto::NodeResult>> rs;
        for (const auto &r : *results)
            rs.push_back(
                proto::CreateNodeResultDirect(fbb, r.node.c_str(), r.rc, r.message.c_str()));
        auto vec = fbb.CreateVector(rs);
        fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardResponse,
                                        proto::CreateForwardResponse(fbb, vec).Union()));
        send(c, frame_of(fbb));
    };
    if (part.size() == 1) return reply();
    std::vector<std::string> rest(part.begin() + 1, part.end());
    int child_timeout = std::max(100, int(f->timeout_ms() * 8 / 10));
    net::forward(io_, cluster_.resolver(), rest, f->tree_width(), child_timeout,
                 {f->inner()->data(), f->inner()->size()}, no_credential(),
                 [results, reply](std::vector<net::NodeOutcome> rs) {
                     for (auto &r : rs) results->push_back(std::move(r));
                     reply();
                 });
}

struct Round {
    std::vector<net::NodeOutcome> outcomes;
    int calls = 0;
    std::chrono::milliseconds took{};
};

// One forward from the "controller" to nodes, run until done (or 10 s).
Round forward_round(asio::io_context &io, FakeNode::Cluster &c,
                    const std::vector<std::string> &nodes, unsigned width, int timeout_ms) {
    Round r;
    auto t0 = std::chrono::steady_clock::now();
    net::forward(io, c.resolver(), nodes, width, timeout_ms, ping_message(), no_credential(),
                 [&](std::vector<net::NodeOutcome> out) {
                     ++r.calls;
                     r.outcomes = std::move(out);
                     r.took = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::steady_clock::now() - t0);
                     io.stop();
                 });
    io.run_for(10s);
    io.restart();
    return r;
}

std::map<std::string, net::NodeOutcome> by_node(const std::vector<net::NodeOutcome> &v) {
    std::map<std::string, net::NodeOutcome> m;
    for (const auto &o : v) EXPECT_TRUE(m.emplace(o.node, o).second) << o.node << " named twice";
    return m;
}

// Checks that the round named each of n nodes once, dead failed and every other answered.
std::map<std::string, net::NodeOutcome> expect_all_but(const Round &r, std::size_t n,
                                                       const std::string &dead) {
    EXPECT_EQ(r.calls, 1);
    auto m = by_node(r.outcomes);
    EXPECT_EQ(m.size(), n);
    EXPECT_EQ(m[dead].rc, DROVER_EIO) << dead;
    for (const auto &[name, o] : m) {
        if (name == dead) continue;
        EXPECT_EQ(o.rc, 0) << name << ": " << o.message;
    }
    return m;
}

TEST(Forward, EveryNodeAnswersThroughTheTree) {
    asio::io_context io(1);
    FakeNode::Cluster c(io, 40);
    Round r = forward_round(io, c, names(40), 3, 2000);
    ASSERT_EQ(r.calls, 1);
    auto m = by_node(r.outcomes);
    EXPECT_EQ(m.size(), 40u);
    for (const auto &[n, o] : m) EXPECT_EQ(o.rc, 0) << n << ": " << o.message;
    for (const auto &[n, node] : c.nodes) EXPECT_EQ(node->requests, 1) << n; // one message each
}

TEST(Forward, HopsServedOnASecondLoopReportOnTheFirst) {
    asio::io_context io(1);
    FakeNode::Cluster c(io, 25, {"n9"});
    net::CallLoop calls;
    Round r;
    auto home = std::this_thread::get_id();
    net::forward(
        io, c.resolver(), names(25), 3, 400, ping_message(), no_credential(),
        [&](std::vector<net::NodeOutcome> out) {
            EXPECT_EQ(std::this_thread::get_id(), home);
            ++r.calls;
            r.outcomes = std::move(out);
            io.stop();
        },
        &calls.io());
    io.run_for(10s);
    expect_all_but(r, 25, "n9");
}

TEST(Forward, HopAcceptTimeoutIsAShareOfTheBudget) {
    EXPECT_EQ(net::hop_accept_ms(9000, 10000, 50), 9000 / 8); // four levels
    EXPECT_EQ(net::hop_accept_ms(1000, 30, 3), 200);          // never below 200 ms
    EXPECT_EQ(net::hop_accept_ms(150, 30, 3), 150);           // nor beyond the budget
    EXPECT_EQ(net::hop_accept_ms(300000, 2, 50), 10000);      // nor above 10 s
}

TEST(Forward, AHungHeadCostsOneHopTimeoutAndEveryNodeIsNamed) {
    asio::io_context io(1);
    // 30 nodes, width 3: the root's parts are n0-n9, n10-n19, n20-n29. n10 heads the second part,
    // takes the connection and never accepts the request.
    FakeNode::Cluster c(io, 30, {"n10"});
    const int timeout = 2000, hop = net::hop_accept_ms(timeout, 30, 3);
    Round r = forward_round(io, c, names(30), 3, timeout);
    auto m = expect_all_but(r, 30, "n10");
    EXPECT_NE(m["n10"].message.find("timed out"), std::string::npos) << m["n10"].message;
    // The rest of its part was sent again, split, once the hop timed out: one hop timeout in all,
    // far less than the forward's whole timeout.
    EXPECT_GE(r.took.count(), hop - 2); // (whole milliseconds)
    EXPECT_LT(r.took.count(), 2 * hop) << "more than one hop timeout";
    for (const auto &[n, node] : c.nodes) EXPECT_EQ(node->requests, 1) << n;
}

TEST(Forward, AHungNodeInsideTheTreeCostsItsParentOneHopTimeout) {
    asio::io_context io(1);
    // n0 heads n0-n9 and sends n1-n9 on in three parts: n1-n3, n4-n6, n7-n9. n4 never accepts.
    FakeNode::Cluster c(io, 30, {"n4"});
    const int timeout = 3000;
    Round r = forward_round(io, c, names(30), 3, timeout);
    expect_all_but(r, 30, "n4");
    // n0 forwards with 8/10 of its budget: its hop timeout is a share of that.
    int hop = net::hop_accept_ms(timeout * 8 / 10, 9, 3);
    EXPECT_GE(r.took.count(), hop - 2); // (whole milliseconds)
    EXPECT_LT(r.took.count(), 2 * hop);
}

TEST(Forward, ManyHungNodesCostHopTimeoutsNotTheBudget) {
    asio::io_context io(1);
    // The last fifth of the nodes hang (one lost rack): whole parts of the root and their
    // re-sent rests are hung, and the re-sent parts wait for places (width 5). Every live node
    // is still heard from, well within the budget.
    std::set<std::string> hung;
    for (int i = 48; i < 60; ++i) hung.insert("n" + std::to_string(i));
    FakeNode::Cluster c(io, 60, hung);
    const int timeout = 6000;
    Round r = forward_round(io, c, names(60), 5, timeout);
    ASSERT_EQ(r.calls, 1);
    auto m = by_node(r.outcomes);
    ASSERT_EQ(m.size(), 60u);
    for (const auto &[n, o] : m) EXPECT_EQ(o.rc == 0, !hung.count(n)) << n << ": " << o.message;
    // The worst chain: a hung head at each of the tree's four levels, a hop timeout each (an
    // eighth of the budget), so half the budget.
    EXPECT_LT(r.took.count(), timeout * 3 / 4);
}

TEST(Forward, AnAcceptedPartThatNeverAnswersIsReportedAtTheDeadline) {
    asio::io_context io(1);
    // n10 accepts its part (n10-n19) and never answers: the sender cannot know which of its
    // nodes heard the request, so the whole part is reported failed when the time is up.
    FakeNode::Cluster c(io, 30, {}, {"n10"});
    const int timeout = 800;
    Round r = forward_round(io, c, names(30), 3, timeout);
    ASSERT_EQ(r.calls, 1);
    auto m = by_node(r.outcomes);
    ASSERT_EQ(m.size(), 30u);
    for (int i = 0; i < 30; ++i) {
        const auto &o = m["n" + std::to_string(i)];
        if (i >= 10 && i < 20) {
            EXPECT_EQ(o.rc, DROVER_EIO) << o.node;
            EXPECT_NE(o.message.find("800 ms"), std::string::npos) << o.message;
        } else {
            EXPECT_EQ(o.rc, 0) << o.node << ": " << o.message;
        }
    }
    EXPECT_GE(r.took.count(), timeout - 2);
    EXPECT_LT(r.took.count(), timeout + 400);
}

TEST(Forward, UnknownAndRefusingNodesAreReportedAndSkipped) {
    asio::io_context io(1);
    FakeNode::Cluster c(io, 12);
    std::vector<std::string> nodes = names(12);
    nodes.insert(nodes.begin() + 4, "ghost"); // the head of the second part: no address
    // A port nobody listens on: n8 refuses at once.
    tcp::acceptor closed(io, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
    uint16_t dead_port = closed.local_endpoint().port();
    closed.close();
    auto resolve = c.resolver();
    net::Resolver with_dead = [&](const std::string &n, std::string *h, uint16_t *p) {
        if (!resolve(n, h, p)) return false;
        if (n == "n8") *p = dead_port;
        return true;
    };
    Round r;
    auto t0 = std::chrono::steady_clock::now();
    net::forward(io, with_dead, nodes, 3, 2000, ping_message(), no_credential(),
                 [&](std::vector<net::NodeOutcome> out) {
                     ++r.calls;
                     r.outcomes = std::move(out);
                     io.stop();
                 });
    io.run_for(10s);
    auto took = std::chrono::steady_clock::now() - t0;
    ASSERT_EQ(r.calls, 1);
    auto m = by_node(r.outcomes);
    ASSERT_EQ(m.size(), 13u);
    EXPECT_EQ(m["ghost"].rc, DROVER_EIO);
    EXPECT_EQ(m["ghost"].message, "unknown node");
    EXPECT_NE(m["n8"].rc, 0);
    int ok = 0;
    for (const auto &[n, o] : m) ok += o.rc == 0;
    EXPECT_EQ(ok, 11);
    EXPECT_LT(took, 1500ms); // nothing waited for a timeout
}

TEST(Forward, AtMostWidthMessagesAtATime) {
    asio::io_context io(1);
    // Every node hangs: each message stays out until its hop times out (300 ms for this budget),
    // and the re-sent rests of the parts (hung too) must wait for a free place. With width 4,
    // four messages leave at first and four more each 300 ms: 20 dead heads take 5 timeouts.
    std::set<std::string> all;
    for (const auto &n : names(20)) all.insert(n);
    FakeNode::Cluster c(io, 20, all);
    auto received = [&] {
        int n = 0;
        for (const auto &[name, node] : c.nodes) n += node->requests;
        return n;
    };
    std::vector<int> seen; // messages received half-way through the first and second timeouts
    asio::steady_timer t1(io, 150ms), t2(io, 450ms);
    t1.async_wait([&](boost::system::error_code) { seen.push_back(received()); });
    t2.async_wait([&](boost::system::error_code) { seen.push_back(received()); });
    ASSERT_EQ(net::hop_accept_ms(1800, 20, 4), 300);
    Round r = forward_round(io, c, names(20), 4, 1800);
    ASSERT_EQ(r.calls, 1);
    EXPECT_EQ(by_node(r.outcomes).size(), 20u);
    for (const auto &o : r.outcomes) EXPECT_EQ(o.rc, DROVER_EIO) << o.node;
    EXPECT_EQ(seen, (std::vector<int>{4, 8}));
    EXPECT_GE(r.took.count(), 300 * 5);
    EXPECT_EQ(received(), 20);
}

} // namespace
