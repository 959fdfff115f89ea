// routes.cpp - the caller check and dispatch of a daemon's message routes.
#include "net/routes.hpp"

#include <spdlog/spdlog.h>

#include <stdexcept>

#include <drover/plugin.h>

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
    if (it == routes_.end())
        return resp->error(DROVER_EINVAL,
                           std::string("unexpected message ") + proto::EnumNameBody(type));
    const Route &route = it->second;
    if (route.who == Caller::Admin && !is_admin_(req->peer.uid))
        return resp->error(DROVER_EPERM, route.refusal);
    try {
        route.serve(req, resp);
    } catch (const std::exception &e) {
        spdlog::error("{} from {}: {}", proto::EnumNameBody(type), req->peer.addr, e.what());
        resp->error(DROVER_EIO, e.what());
    }
}

const Caller *Router::caller_of(proto::Body type) const {
    auto it = routes_.find(type);
    return it == routes_.end() ? nullptr : &it->second.who;
}

} // namespace drover::net
