// reboot_args.cpp - scontrol reboot's words.
#include "cli/reboot_args.hpp"

#include <vector>

#include "cli/text.hpp"
#include "common/error.hpp"

namespace drover::cli {

namespace {

// nextstate=: any leading part of DOWN or RESUME, any case.
std::string next_state(std::string_view value) {
    if (value.empty()) throw ParseError("missing state");
    if (istarts_with("DOWN", value)) return "DOWN";
    if (istarts_with("RESUME", value)) return "RESUME";
    throw ParseError("Invalid state: " + std::string(value) + "\nValid states: DOWN, RESUME");
}

} // namespace

RebootArgs parse_reboot(std::span<const std::string> words) {
    RebootArgs a;
    std::vector<std::string> rest;
    for (const auto &w : words) {
        if (iequals(w, "ASAP")) {
            a.asap = true;
        } else if (istarts_with(w, "reason=")) {
            if (w.size() == 7) throw ParseError("missing reason");
            a.reason = w.substr(7);
        } else if (istarts_with(w, "nextstate=")) {
            a.next_state = next_state(std::string_view(w).substr(10));
        } else {
            rest.push_back(w);
        }
    }
    if (rest.size() > 1) throw ParseError("too many arguments for keyword:reboot");
    if (rest.empty()) throw ParseError("Missing node list. Specify ALL|<NodeList>");
    a.nodes = rest.front();
    return a;
}

} // namespace drover::cli
