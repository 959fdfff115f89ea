// node_calls.hpp - the controller's requests to node daemons: one node is called directly, more
// go down the fan-out tree (TreeWidth: at most that many messages leave the controller, and a dead
// or hung node costs one per-hop timeout); either way every node's result comes back.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "net/fanout.hpp"

namespace drover {
struct Config;
}

namespace drover::ctld {

struct Ctx;

// Where a node's daemon listens (the address scontrol update NodeAddr= gave it, else slurm.conf's
// NodeAddr or NodeHostname or its name; and its Port); false for a node slurm.conf does not name.
bool resolve_node(const Ctx &ctx, const std::string &name, std::string *host, uint16_t *port);

// Sends msg (a finished Message, stamped with the controller's generation) to the nodes named;
// done runs on the loop with one outcome per node, in no particular order.
void call_nodes(Ctx &ctx, std::vector<std::string> names, std::vector<uint8_t> msg, int timeout_ms,
                std::function<void(std::vector<net::NodeOutcome>)> done);

// When a node refused us for a newer controller generation: we are no longer in control, so
// ctx.fenced runs and the results are not to be acted on (true).
bool fenced_by(const Ctx &ctx, const std::vector<net::NodeOutcome> &results);

} // namespace drover::ctld
