// routes.cpp - the caller check and dispatch of a daemon's message routes.
#include "net/routes.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include <drover/plugin.h>

#include "common/error.hpp"
#include "net/client.hpp"

namespace drover::net {

void Router::add(Routes routes) {
    for (auto &r : routes) {
        proto::Body type = r.type;
        if (!routes_.emplace(type, std::move(r)).second)
            throw std::logic_error(std::string("two routes for ") + proto::EnumNameBody(type));
    }
}

void Router::dispatch(const std::shared_ptr<Request> &req, const ResponderPtr &resp) const {
    proto::Body type = req->msg->body_type();
    auto it = routes_.find(type);
    if (it == routes_.end()) {
        if (!users_unknown_.empty() && !is_admin_(req->peer.uid))
            return resp->error(DROVER_EPERM, users_unknown_);
        return resp->error(DROVER_EINVAL,
                           std::string("unexpected message ") + proto::EnumNameBody(type));
    }
    const Route &route = it->second;
    // A route open to all never asks who administers (a lookup of SlurmUser's groups).
    if (route.who == Caller::Admin && !is_admin_(req->peer.uid))
        return resp->error(DROVER_EPERM, route.refusal);
    try {
        route.serve(req, resp);
    } catch (const std::exception &e) {
        spdlog::error("{} from {}: {}", proto::EnumNameBody(type), req->peer.addr, e.what());
        // A drover::Error answers with its own code (bad input is the sender's, EINVAL), except
        // another daemon's refusal (RpcError), whose code is not this reply's; the rest are EIO.
        const auto *err = dynamic_cast<const Error *>(&e);
        bool own = err && !dynamic_cast<const RpcError *>(&e);
        resp->error(own ? err->code() : DROVER_EIO, e.what());
    }
}

const Caller *Router::caller_of(proto::Body type) const {
    auto it = routes_.find(type);
    return it == routes_.end() ? nullptr : &it->second.who;
}

} // namespace drover::net
