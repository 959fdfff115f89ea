// routes.hpp - a daemon's message routes: each component declares the messages it serves and who
// may send each ({message, who, handler}); a Router checks the caller and dispatches by type.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/server.hpp"
#include "proto/message_generated.h"

namespace drover::net {

// Who may send a message. Handlers that decide per request (a job's owner or an admin, an
// admin level from the accounting store) are declared Anyone and check inside.
enum class Caller : uint8_t {
    Anyone, // any authenticated user
    Admin,  // root or SlurmUser: the daemons and the administrators
};

using RouteFn = std::function<void(const std::shared_ptr<Request> &, const ResponderPtr &)>;

struct Route {
    proto::Body type;
    Caller who;
    RouteFn serve;
    // The refusal an Admin route gives anyone else (DROVER_EPERM).
    std::string refusal = "Access/permission denied";
};
using Routes = std::vector<Route>;

// A route's handler that calls obj->fn(req, resp).
template <class T>
RouteFn member(T *obj, void (T::*fn)(const std::shared_ptr<Request> &, const ResponderPtr &)) {
    return
        [obj, fn](const std::shared_ptr<Request> &q, const ResponderPtr &r) { (obj->*fn)(q, r); };
}

class Router {
  public:
    // is_admin: whether a uid administers (root or SlurmUser). users_unknown: what a caller who
    // does not administer is told of a message no route serves; empty: "unexpected message X",
    // as an admin is told. A node daemon sets it so that it tells users nothing of what it
    // serves to the controller alone.
    explicit Router(std::function<bool(uint32_t)> is_admin, std::string users_unknown = {})
        : is_admin_(std::move(is_admin)), users_unknown_(std::move(users_unknown)) {}

    // Adds routes; a message type served twice is a wiring error (std::logic_error).
    void add(Routes routes);

    // Serves the request by its route: "unexpected message X" (or users_unknown, DROVER_EPERM)
    // when none serves it, the route's
    // refusal when the caller may not send it; a handler's exception becomes an error reply with
    // its code (drover::Error; EIO for any other) and a log line instead of ending the daemon.
    void dispatch(const std::shared_ptr<Request> &req, const ResponderPtr &resp) const;

    // The declared caller of a message type, nullptr when none serves it (tests, docs).
    const Caller *caller_of(proto::Body type) const;

  private:
    std::function<bool(uint32_t)> is_admin_;
    std::string users_unknown_;
    std::unordered_map<proto::Body, Route> routes_;
};

} // namespace drover::net
