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

void forward(CallPool &pool, const Resolver &resolve, std::span<const std::string> nodes,
             unsigned width, int timeout_ms, std::span<const uint8_t> inner, const Signer &sign,
             std::function<void(std::vector<NodeOutcome>)> done) {
    auto parts = split_tree(nodes, width);
    struct Gather {
        std::vector<NodeOutcome> results;
        std::size_t waiting = 0;
        std::function<void(std::vector<NodeOutcome>)> done;
    };
    auto g = std::make_shared<Gather>();
    g->done = std::move(done);
    g->waiting = parts.size();
    if (parts.empty()) return g->done({});
    auto fail_part = [g](std::span<const std::string> part, const std::string &why) {
        for (const auto &n : part) g->results.push_back({n, DROVER_EIO, why});
    };
    for (auto part : parts) {
        std::string host;
        uint16_t port = 0;
        auto finish = [g] {
            if (--g->waiting == 0) g->done(std::move(g->results));
        };
        if (!resolve(part.front(), &host, &port)) {
            fail_part(part, "unknown node " + part.front());
            finish();
            continue;
        }
        std::vector<std::string> names(part.begin(), part.end());
        pool.call(host, port, make_forward_request(part, width, timeout_ms, inner), sign,
                  timeout_ms,
                  [g, names = std::move(names), finish](const std::string &err,
                                                        std::shared_ptr<Reply> reply) {
                      const proto::ForwardResponse *fr = nullptr;
                      std::string why = err;
                      if (reply) {
                          fr = reply->msg->body_as_ForwardResponse();
                          if (!fr) why = "unexpected reply to forwarded request";
                      }
                      if (!fr) {
                          for (const auto &n : names)
                              g->results.push_back({n, DROVER_EIO, "no reply: " + why});
                      } else if (fr->results()) {
                          for (const auto *r : *fr->results())
                              g->results.push_back({r->node() ? r->node()->str() : "", r->rc(),
                                                    r->message() ? r->message()->str() : ""});
                      }
                      finish();
                  });
    }
}

}  // namespace drover::net
