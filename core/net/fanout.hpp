// fanout.hpp - the fan-out tree: a request for many nodes is split into TreeWidth parts, each sent
// to its first node, which runs its own share and forwards the rest the same way; one aggregated
// reply names every node with its result.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "net/client.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::net {

// ForwardRequest.origin_uid's default: the request acts for whoever sent (and signed) it.
inline constexpr uint32_t kSenderOrigin = 0xfffffffe;

struct NodeOutcome {
    std::string node;
    int rc = 0; // 0 ok; negative DROVER_E* code
    std::string message;
};

// Splits nodes into at most width contiguous parts of near-equal size (pure; width 0 acts as 1).
std::vector<std::span<const std::string>> split_tree(std::span<const std::string> nodes,
                                                     unsigned width);

// How deep a tree of n nodes with this width is (for per-hop timeouts).
unsigned tree_depth(std::size_t n, unsigned width);

// Resolves a node name to the address and port of its daemon; false when unknown.
using Resolver = std::function<bool(const std::string &node, std::string *host, uint16_t *port)>;

// A resolver over the "host:port" of each node the controller named (to srun, to sbcast).
Resolver address_book(std::map<std::string, std::string> host_ports);
// The same from a reply's two parallel lists, node names and their "host:port" (either may be
// missing or the shorter).
using StringList = flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>>;
Resolver address_book(const StringList *nodes, const StringList *host_ports);

// How long a hop may take to accept a forwarded request (ForwardAccepted) before its node counts
// as hung, for a forward to n nodes that must be answered within budget_ms: a share of the budget
// small enough that a hung node at every level of the tree still leaves time to send on the
// nodes behind them (between 200 ms and 10 s).
int hop_accept_ms(int budget_ms, std::size_t n, unsigned width);

// Sends inner (a finished Message) to every node of nodes through the tree: at most width
// messages leave this process at a time. done gets one outcome per node, in no particular
// order, on the loop's thread, within timeout_ms: nodes not heard from by then are reported as
// failed. When the first node of a part is dead or does not accept the part within
// hop_accept_ms, it is reported as failed and the rest of its part is sent again, split the same
// way, so one dead or hung node costs one hop timeout and never hides the nodes behind it.
//
// The hops' sockets are non-blocking (async_call): no thread waits for a hop, however many hops a
// process has out. They are served on calls when given, else on io; either way done and all of
// forward's own state stay on io's thread. A droverd emulating thousands of nodes does the work
// of every hop of the tree (both ends of each connection): it serves the hops it sends on a
// second loop so that the tree's work is shared by two cores, not queued behind one.
//
// origin_uid is the user the request acts for on every node (ForwardRequest.origin_uid): the
// signer itself by default; a node forwarding a user's request on names that user.
void forward(boost::asio::io_context &io, Resolver resolve, std::vector<std::string> nodes,
             unsigned width, int timeout_ms, std::span<const uint8_t> inner, Signer sign,
             std::function<void(std::vector<NodeOutcome>)> done,
             boost::asio::io_context *calls = nullptr, uint32_t origin_uid = kSenderOrigin);

// The same for a command (srun): on a loop of its own, returning once every node is accounted for.
std::vector<NodeOutcome> forward_and_wait(Resolver resolve, std::vector<std::string> nodes,
                                          unsigned width, int timeout_ms,
                                          std::span<const uint8_t> inner, Signer sign);

// Builds the ForwardRequest message for one part.
std::vector<uint8_t> make_forward_request(std::span<const std::string> nodes, unsigned width,
                                          int timeout_ms, std::span<const uint8_t> inner,
                                          uint32_t origin_uid = kSenderOrigin);

// The user a ForwardRequest acts for, received from peer_uid: peer_uid itself when origin_uid is
// kSenderOrigin or peer_uid; another uid only when peer_uid is an administrator (root or
// SlurmUser: a node forwarding a user's request). Otherwise nullopt and *why says so (EPERM).
std::optional<uint32_t> forward_origin(uint32_t peer_uid, uint32_t origin_uid,
                                       const std::function<bool(uint32_t)> &is_admin, Status *why);

} // namespace drover::net
