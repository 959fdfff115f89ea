// node_routes.hpp - who may ask what of a node: each message droverd serves, with its handler and
// the callers it takes, and the one check that admits a request or refuses it.
#pragma once

#include <optional>
#include <string>

#include "net/routes.hpp"
#include "proto/message_generated.h"

namespace drover::noded {

// Who may send a message (net/routes.hpp): Anyone — any authenticated user, whose rights the
// handler holds the request to (a step's credential, or the step's owner), as for srun, sstat
// and scancel of a step; Admin — root or SlurmUser only, what the controller runs as (and an
// admin's scontrol).
using net::Caller;

template <class Handler>
struct Route {
    proto::Body type;
    Caller caller;
    Handler handler;
};

// The routes of a table, for the message type; nullptr when the node does not serve it.
template <class Handler, std::size_t N>
const Route<Handler> *find_route(const Route<Handler> (&table)[N], proto::Body type) {
    for (const auto &r : table)
        if (r.type == type) return &r;
    return nullptr;
}

struct Refusal {
    int code;
    std::string why;
};

// Whether a request of type, for route's caller (nullptr: a message the node does not serve), is
// served for a caller who is (or not) root or SlurmUser. A message the node does not serve is
// refused as not allowed to a user, and as unexpected to the controller. nullopt: serve it.
std::optional<Refusal> admit(const Caller *route_caller, proto::Body type, bool caller_is_admin);

} // namespace drover::noded
