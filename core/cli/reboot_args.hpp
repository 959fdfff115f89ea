// reboot_args.hpp - scontrol reboot [ASAP] [nextstate=RESUME|DOWN] [reason=TEXT] ALL|NODES, as
// Slurm's scontrol reads it: the options first, then exactly one node list.
#pragma once

#include <span>
#include <string>

namespace drover::cli {

struct RebootArgs {
    bool asap = false;
    std::string next_state; // "RESUME", "DOWN" or "" (not given)
    std::string reason;
    std::string nodes; // "ALL" or a hostlist expression
};

// Throws ParseError with what Slurm's scontrol prints: "missing reason", "missing state",
// "Invalid state: X\nValid states: DOWN, RESUME", "too many arguments for keyword:reboot",
// "Missing node list. Specify ALL|<NodeList>".
RebootArgs parse_reboot(std::span<const std::string> words);

} // namespace drover::cli
