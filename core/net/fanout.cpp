// fanout.cpp - tree splitting and forwarding with per-node aggregation.
#include "net/fanout.hpp"

#include <drover/plugin.h>

#include <memory>

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

std::vector<uint8_t> make_forward_request(std::span<const std::string> nodes, unsigned width,
                                          int timeout_ms, std::span<const uint8_t> inner) {
    flatbuffers::FlatBufferBuilder fbb(256 + inner.size() + nodes.size() * 16);
    std::vector<flatbuffers::Offset<flatbuffers::String>> names;
    names.reserve(nodes.size());
    for (const auto &n : nodes) names.push_back(fbb.CreateString(n));
    auto nv = fbb.CreateVector(names);
    fbb.ForceVectorAlignment(inner.size(), 1, 8);
    auto iv = fbb.CreateVector(inner.data(), inner.size());
    auto fr = proto::CreateForwardRequest(fbb, nv, width, uint32_t(timeout_ms), iv);
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ForwardRequest, fr.Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

namespace {

// What one forward() shares with its callbacks.
struct Fanout {
    CallPool &pool;
    Resolver resolve;
    unsigned width;
    int timeout_ms;
    std::vector<uint8_t> inner;
    Signer sign;
};

struct Gather {
    std::vector<NodeOutcome> results;
    std::size_t waiting = 0;
    std::function<void(std::vector<NodeOutcome>)> done;
    void finish() {
        if (--waiting == 0) done(std::move(results));
    }
};

void send_parts(const std::shared_ptr<Fanout> &f, std::vector<std::string> nodes,
                std::function<void(std::vector<NodeOutcome>)> done);

void send_part(const std::shared_ptr<Fanout> &f, std::vector<std::string> part,
               const std::shared_ptr<Gather> &g) {
    // The head failed: report it and send the rest of its part again, split the same way.
    auto reroute = [f, g](std::vector<std::string> part, const std::string &why) {
        g->results.push_back({part.front(), DROVER_EIO, why});
        part.erase(part.begin());
        if (part.empty()) return g->finish();
        send_parts(f, std::move(part), [g](std::vector<NodeOutcome> rs) {
            for (auto &r : rs) g->results.push_back(std::move(r));
            g->finish();
        });
    };
    std::string host;
    uint16_t port = 0;
    if (!f->resolve(part.front(), &host, &port)) return reroute(std::move(part), "unknown node");
    auto msg = make_forward_request(part, f->width, f->timeout_ms, f->inner);
    f->pool.call(host, port, std::move(msg), f->sign, f->timeout_ms,
                 [f, g, part, reroute](const std::string &err, std::shared_ptr<Reply> reply) {
                     const proto::ForwardResponse *fr = reply ? reply->msg->body_as_ForwardResponse() : nullptr;
                     if (!fr) return reroute(part, "no reply: " + (err.empty() ? "unexpected reply" : err));
                     if (fr->results())
                         for (const auto *r : *fr->results())
                             g->results.push_back({r->node() ? r->node()->str() : "", r->rc(),
                                                   r->message() ? r->message()->str() : ""});
                     g->finish();
                 });
}

void send_parts(const std::shared_ptr<Fanout> &f, std::vector<std::string> nodes,
                std::function<void(std::vector<NodeOutcome>)> done) {
    auto parts = split_tree(nodes, f->width);
    auto g = std::make_shared<Gather>();
    g->done = std::move(done);
    g->waiting = parts.size();
    if (parts.empty()) return g->done({});
    for (auto part : parts) send_part(f, std::vector<std::string>(part.begin(), part.end()), g);
}

}  // namespace

void forward(CallPool &pool, Resolver resolve, std::span<const std::string> nodes, unsigned width,
             int timeout_ms, std::span<const uint8_t> inner, Signer sign,
             std::function<void(std::vector<NodeOutcome>)> done) {
    auto f = std::make_shared<Fanout>(Fanout{pool, std::move(resolve), width, timeout_ms,
                                             {inner.begin(), inner.end()}, std::move(sign)});
    send_parts(f, {nodes.begin(), nodes.end()}, std::move(done));
}

}  // namespace drover::net
