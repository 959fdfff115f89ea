// node_routes.cpp - the admission of a request to a node by the caller its route takes.
#include "noded/node_routes.hpp"

#include <drover/plugin.h>

namespace drover::noded {

std::optional<Refusal> admit(const Caller *route_caller, proto::Body type, bool caller_is_admin) {
    if (route_caller && *route_caller == Caller::Anyone) return std::nullopt;
    if (!caller_is_admin)
        return Refusal{DROVER_EPERM, "only the controller may ask this of a node"};
    if (!route_caller)
        return Refusal{DROVER_EINVAL,
                       std::string("unexpected message ") + proto::EnumNameBody(type)};
    return std::nullopt;
}

} // namespace drover::noded
