// tree_forward.hpp - a ForwardRequest as a node serves it: the user it acts for (its origin), this
// node's own share run as that user, the rest of its nodes forwarded down the fan-out tree on that
// user's behalf, and one aggregated reply naming every node with its result.
//
// Users may forward what they may send a node themselves (a step launch, a step signal): every
// node of the tree holds the request to the origin's rights, so a user gains nothing by sending
// through the tree (net::forward_origin says who may name another user as the origin).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace drover::net {
struct Request;
class Responder;
} // namespace drover::net

namespace drover::noded {

// The longest a forward's hop may wait: longer than any sender of the tree waits (the controller
// 30 s at most, srun 30 s); a forward asking more would hold this node's hops open for nothing.
inline constexpr uint32_t kMaxForwardTimeoutMs = 120000;

struct NodeShared;

// Serves a request here; req->peer.uid is the user it acts for.
using ShareHandler =
    std::function<void(std::shared_ptr<net::Request> req, std::shared_ptr<net::Responder> resp)>;

// Serves req, a verified ForwardRequest that reached node self: runs its inner request here
// through run_here as the origin user, forwards it to the rest of its nodes, and answers resp
// with the ForwardResponse of them all.
void serve_forward(NodeShared &sh, const std::string &self,
                   const std::shared_ptr<net::Request> &req,
                   const std::shared_ptr<net::Responder> &resp, const ShareHandler &run_here);

} // namespace drover::noded
