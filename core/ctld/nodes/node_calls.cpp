// node_calls.cpp - one node directly, many through the fan-out tree.
#include "ctld/nodes/node_calls.hpp"

#include <drover/plugin.h>

#include "ctld/context.hpp"
#include "common/config.hpp"
#include "net/authenticator.hpp"
#include "net/call_pool.hpp"

namespace drover::ctld {

bool resolve_node(const Ctx &ctx, const std::string &name, std::string *host, uint16_t *port) {
    const NodeConf *found = ctx.conf.find_node(name);
    if (!found) return false;
    const std::string *set = ctx.node_addrs ? ctx.node_addrs(name) : nullptr;
    *host = set ? *set : ctx.conf.node_addr(*found);
    *port = ctx.conf.node_port(*found);
    return true;
}

void call_nodes(Ctx &ctx, std::vector<std::string> names, std::vector<uint8_t> msg, int timeout_ms,
                std::function<void(std::vector<net::NodeOutcome>)> done) {
    auto resolve = [&ctx](const std::string &n, std::string *h, uint16_t *p) {
        return resolve_node(ctx, n, h, p);
    };
    if (names.size() != 1)
        return net::forward(ctx.io, resolve, std::move(names), ctx.conf.tree_width, timeout_ms, msg,
                            ctx.auth.self_signer(), std::move(done));
    std::string host;
    uint16_t port = 0;
    if (!resolve(names.front(), &host, &port))
        return done({{names.front(), DROVER_EIO, "unknown node"}});
    const std::string node_name = names.front(); // the receiver, and the outcome's node
    ctx.pool.call(host, port, node_name, std::move(msg), ctx.auth.self_signer(), timeout_ms,
                  [node = node_name, done = std::move(done)](const std::string &err,
                                                             std::shared_ptr<net::Reply> reply) {
                      net::NodeOutcome r{node, 0, {}};
                      if (const auto *e = reply ? reply->msg->body_as_ErrorResponse() : nullptr) {
                          r.rc = e->code() ? e->code() : DROVER_EIO;
                          r.message = e->message() ? e->message()->str() : "";
                      } else if (!err.empty() || !reply) {
                          r.rc = DROVER_EIO;
                          r.message = err.empty() ? "no reply" : err;
                      }
                      done({std::move(r)});
                  });
}

bool fenced_by(const Ctx &ctx, const std::vector<net::NodeOutcome> &results) {
    for (const auto &r : results)
        if (r.rc == net::kNotInControl) {
            if (ctx.fenced) ctx.fenced();
            return true;
        }
    return false;
}

} // namespace drover::ctld
