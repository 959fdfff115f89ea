// fanout.cpp - tree splitting and forwarding with per-node aggregation.
#include "net/fanout.hpp"

#include <drover/plugin.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include "net/async_call.hpp"
#include "net/hop_budget.hpp"

namespace drover::net {

std::vector<std::span<const std::string>> split_tree(std::span<const std::string> nodes,
                                                     unsigned width) {
    std::vector<std::span<const std::string>> parts;
    if (nodes.empty()) return parts;
    std::size_t w = width == 0 ? 1 : width;
    std::size_t n = nodes.size();
    std::size_t count = std::min(w, n);
    std::size_t base = n / count, extra = n % count, at = 0;
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t len = base + (i < extra ? 1 : 0);
        parts.push_back(nodes.subspan(at, len));
        at += len;
    }
    return parts;
}

unsigned tree_depth(std::size_t n, unsigned width) {
    unsigned depth = 0;
    std::size_t w = width < 2 ? 2 : width;
    // each hop serves one node and splits the remaining n-1 into w parts
    while (n > 0) {
        ++depth;
        n = n <= 1 ? 0 : (n - 1 + w - 1) / w;
    }
    return depth;
}

int hop_accept_ms(int budget_ms, std::size_t n, unsigned width) {
    int depth = int(std::max(1u, tree_depth(n, width)));
    int ms = std::clamp(budget_ms / (2 * depth), 200, 10000);
    return std::min(ms, budget_ms);
}

std::vector<uint8_t> make_forward_request(std::span<const std::string> nodes, unsigned width,
                                          int timeout_ms, std::span<const uint8_t> inner,
                                          uint32_t origin_uid) {
    flatbuffers::FlatBufferBuilder fbb(256 + inner.size() + nodes.size() * 16);
    std::vector<flatbuffers::Offset<flatbuffers::String>> names;
    names.reserve(nodes.size());
    for (const auto &n : nodes) names.push_back(fbb.CreateString(n));
    auto nv = fbb.CreateVector(names);
    fbb.ForceVectorAlignment(inner.size(), 1, 8);
    auto iv = fbb.CreateVector(inner.data(), inner.size());
    auto fr = proto::CreateForwardRequest(fbb, nv, width, uint32_t(timeout_ms), iv, origin_uid);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardRequest, fr.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

std::optional<uint32_t> forward_origin(uint32_t peer_uid, uint32_t origin_uid,
                                       const std::function<bool(uint32_t)> &is_admin, Status *why) {
    if (origin_uid == kSenderOrigin || origin_uid == peer_uid) return peer_uid;
    if (is_admin(peer_uid)) return origin_uid;
    *why = {DROVER_EPERM, "a forward from uid " + std::to_string(peer_uid) +
                              " may not act for uid " + std::to_string(origin_uid) +
                              ": only root or SlurmUser pass on another user's request"};
    return std::nullopt;
}

namespace {

// The hop budget of the loop that forwards run from, one per io_context (a daemon runs one loop
// at a time; the controller starts a new one each time it takes control), sized from the
// process's file descriptors when the loop first forwards. It goes with its loop: hops still
// waiting then are dropped with the loop's other unfinished work, not kept past it.
class BudgetService : public boost::asio::execution_context::service {
  public:
    using key_type = BudgetService;
    static inline boost::asio::execution_context::id id;
    explicit BudgetService(boost::asio::execution_context &ctx)
        : service(ctx), budget(HopBudget::slots_for_this_process()) {}
    HopBudget budget;

  private:
    void shutdown() override { budget.drop_waiting(); }
};

HopBudget &budget_of(boost::asio::io_context &io) {
    return boost::asio::use_service<BudgetService>(io).budget;
}

// One forward(): the nodes, the parts still out or waiting to leave, and the outcomes so far.
// Parts are ranges of nodes, so that re-sending the rest of a part copies no names.
class Fanout : public std::enable_shared_from_this<Fanout> {
  public:
    Fanout(boost::asio::io_context &io, boost::asio::io_context *calls, Resolver resolve,
           std::vector<std::string> nodes, unsigned width, int timeout_ms,
           std::span<const uint8_t> inner, Signer sign,
           std::function<void(std::vector<NodeOutcome>)> done, uint32_t origin_uid)
        : io_(io), calls_(calls), budget_(budget_of(io)), resolve_(std::move(resolve)),
          nodes_(std::move(nodes)), width_(width ? width : 1), timeout_ms_(timeout_ms),
          accept_ms_(hop_accept_ms(timeout_ms, nodes_.size(), width_)),
          deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms)),
          timer_(io), inner_(inner.begin(), inner.end()), sign_(std::move(sign)),
          done_(std::move(done)), origin_uid_(origin_uid) {}

    void start() {
        results_.reserve(nodes_.size());
        parts_left_ = 1; // the whole list, as a part being split
        timer_.expires_at(deadline_);
        timer_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
            if (!ec) self->expire();
        });
        split(0, nodes_.size());
        pump();
    }

  private:
    struct Part {
        std::size_t begin, end;
    };

    // The deadline: every node of a part still out or waiting is reported, and the forward ends.
    void expire() {
        if (finished_) return;
        std::string why = "no answer within " + std::to_string(timeout_ms_) + " ms";
        auto report = [&](Part p) {
            for (std::size_t i = p.begin; i < p.end; ++i)
                results_.push_back({nodes_[i], DROVER_EIO, why});
        };
        for (Part p : waiting_) report(p);
        for (const auto &[id, p] : out_parts_) report(p);
        waiting_.clear();
        out_parts_.clear();
        finish();
    }

    void finish() {
        finished_ = true;
        timer_.cancel();
        auto done = std::move(done_);
        done(std::move(results_));
    }

    // Queues [begin, end) as at most width parts; the part it came from is then accounted for.
    void split(std::size_t begin, std::size_t end) {
        auto parts =
            split_tree(std::span<const std::string>(nodes_).subspan(begin, end - begin), width_);
        for (auto p : parts) {
            std::size_t b = std::size_t(p.data() - nodes_.data());
            waiting_.push_back({b, b + p.size()});
        }
        parts_left_ += parts.size();
        part_done();
    }

    void part_done() {
        if (--parts_left_ == 0) finish();
    }

    // Sends waiting parts while fewer than width messages are out.
    void pump() {
        while (out_parts_.size() < width_ && !waiting_.empty()) {
            Part p = waiting_.front();
            waiting_.pop_front();
            send(p);
        }
    }

    // The part's head failed: it is reported, and the rest of its part is sent again, split.
    void reroute(Part p, std::string why) {
        results_.push_back({nodes_[p.begin], DROVER_EIO, std::move(why)});
        split(p.begin + 1, p.end);
    }

    void send(Part p) {
        std::string host;
        uint16_t port = 0;
        if (!resolve_(nodes_[p.begin], &host, &port)) return reroute(p, "unknown node");
        uint64_t id = ++sent_;
        out_parts_.emplace(id, p);
        budget_.acquire(tree_depth(p.end - p.begin, width_),
                        [self = shared_from_this(), id, host = std::move(host), port] {
                            self->launch(id, host, port);
                        });
    }

    void launch(uint64_t id, const std::string &host, uint16_t port) {
        auto it = out_parts_.find(id);
        if (finished_ || it == out_parts_.end()) return budget_.release();
        Part p = it->second;
        // The receiver is given what is left of the deadline, and answers for its part by then.
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline_ - std::chrono::steady_clock::now());
        int left_ms = std::max(1, int(left.count()));
        std::span<const std::string> names(nodes_.data() + p.begin, p.end - p.begin);
        async_forward_call(
            calls_ ? *calls_ : io_, host, port, names.front(),
            make_forward_request(names, width_, left_ms, inner_, origin_uid_), sign_,
            std::min(accept_ms_, left_ms), left_ms,
            [self = shared_from_this(), id](const std::string &err, std::shared_ptr<Reply> reply) {
                if (!self->calls_) return self->answered(id, err, reply);
                boost::asio::post(self->io_,
                                  [self, id, err, reply] { self->answered(id, err, reply); });
            });
    }

    void answered(uint64_t id, const std::string &err, const std::shared_ptr<Reply> &reply) {
        budget_.release();
        auto it = out_parts_.find(id);
        if (finished_ || it == out_parts_.end()) return; // reported when the deadline passed
        // A call that ran out with the forward's own time is reported with the rest at the
        // deadline.
        if (!reply && std::chrono::steady_clock::now() >= deadline_ - std::chrono::milliseconds(5))
            return expire();
        Part p = it->second;
        out_parts_.erase(it);
        arrived(p, err, reply.get());
        if (!finished_) pump();
    }

    void arrived(Part p, const std::string &err, const Reply *reply) {
        const proto::ForwardResponse *fr = reply ? reply->msg->body_as_ForwardResponse() : nullptr;
        if (!fr)
            return reroute(p, "no reply: " + (err.empty() ? std::string("unexpected reply") : err));
        if (fr->results())
            for (const auto *r : *fr->results())
                results_.push_back({r->node() ? r->node()->str() : "", r->rc(),
                                    r->message() ? r->message()->str() : ""});
        part_done();
    }

    boost::asio::io_context &io_;
    boost::asio::io_context *calls_; // where the hops' sockets are served; null: io_
    HopBudget &budget_;
    Resolver resolve_;
    std::vector<std::string> nodes_;
    unsigned width_;
    int timeout_ms_;
    int accept_ms_; // a part's head that has not accepted by then is hung
    std::chrono::steady_clock::time_point deadline_;
    boost::asio::steady_timer timer_;
    std::vector<uint8_t> inner_;
    Signer sign_;
    std::function<void(std::vector<NodeOutcome>)> done_;
    uint32_t origin_uid_;
    std::vector<NodeOutcome> results_;
    std::deque<Part> waiting_;
    std::map<uint64_t, Part> out_parts_; // messages out (or waiting for a hop slot), by send number
    uint64_t sent_ = 0;
    std::size_t parts_left_ = 0; // parts not yet answered for, whether waiting or out
    bool finished_ = false;
};

} // namespace

void forward(boost::asio::io_context &io, Resolver resolve, std::vector<std::string> nodes,
             unsigned width, int timeout_ms, std::span<const uint8_t> inner, Signer sign,
             std::function<void(std::vector<NodeOutcome>)> done, boost::asio::io_context *calls,
             uint32_t origin_uid) {
    auto f = std::make_shared<Fanout>(io, calls == &io ? nullptr : calls, std::move(resolve),
                                      std::move(nodes), width, timeout_ms, inner, std::move(sign),
                                      std::move(done), origin_uid);
    f->start();
}

Resolver address_book(std::map<std::string, std::string> host_ports) {
    return
        [book = std::move(host_ports)](const std::string &node, std::string *host, uint16_t *port) {
            auto it = book.find(node);
            if (it == book.end() || it->second.rfind(':') == std::string::npos) return false;
            std::size_t colon = it->second.rfind(':');
            *host = it->second.substr(0, colon);
            *port = uint16_t(std::strtoul(it->second.c_str() + colon + 1, nullptr, 10));
            return *port != 0;
        };
}

Resolver address_book(const StringList *nodes, const StringList *host_ports) {
    std::map<std::string, std::string> book;
    for (uint32_t i = 0; nodes && host_ports && i < nodes->size() && i < host_ports->size(); ++i)
        book[nodes->Get(i)->str()] = host_ports->Get(i)->str();
    return address_book(std::move(book));
}

std::vector<NodeOutcome> forward_and_wait(Resolver resolve, std::vector<std::string> nodes,
                                          unsigned width, int timeout_ms,
                                          std::span<const uint8_t> inner, Signer sign) {
    boost::asio::io_context io;
    std::vector<NodeOutcome> results;
    forward(io, std::move(resolve), std::move(nodes), width, timeout_ms, inner, std::move(sign),
            [&results](std::vector<NodeOutcome> rs) { results = std::move(rs); });
    io.run();
    return results;
}

} // namespace drover::net
