// node_states.hpp - node states as sinfo and scontrol print them ("idle~", "drng*", "IDLE+DRAIN").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace drover::cli {

// Compact form with Slurm's one-character suffix: "IDLE~", "ALLOC", "DRNG*", "MIX#".
// sinfo prints it lower-cased.
std::string node_state_compact(uint32_t state, uint32_t flags);
// Long form with the same suffix: "IDLE~", "ALLOCATED", "DRAINING*", "DRAINED".
std::string node_state_long(uint32_t state, uint32_t flags);
// Base state and every flag, as scontrol shows State=: "IDLE+DRAIN", "IDLE+CLOUD+POWERED_DOWN".
std::string node_state_complete(uint32_t state, uint32_t flags);

// The state as Slurm numbers it in its state word (base state, then NODE_STATE_* flag bits):
// what sacctmgr's StateRaw prints.
uint32_t node_state_slurm_raw(uint32_t state, uint32_t flags);

// A number that orders groups the way sinfo's default "-t" (decreasing state) sort does.
int node_state_rank(uint32_t state, uint32_t flags);

// True when the node is unusable for new work: down or drained/draining. sinfo -R lists these.
bool node_is_unavailable(uint32_t state, uint32_t flags);

// One sinfo -t/--states entry; matches() tests a node.
struct NodeStateMatch {
    std::string name; // upper-case, as given
    bool matches(uint32_t state, uint32_t flags) const;
};

// Parses "idle,drain" (case-insensitive). Throws drover::ParseError for an unknown state.
std::vector<NodeStateMatch> parse_node_state_list(std::string_view list);

} // namespace drover::cli
