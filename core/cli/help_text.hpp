// help_text.hpp - a command's --help text read back as parts: its usage lines, its option
// entries ("  -t, --states=states   what it does", continuation lines joined) and the rest.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/options.hpp"

namespace drover::cli {

struct HelpEntry {
    std::string spelled;     // "-t, --states=states"
    std::string description; // "comma separated list of states to view"
};

struct HelpText {
    std::vector<std::string> usage; // "Usage: squeue [OPTIONS]" and the lines that continue it
    std::vector<HelpEntry> entries;
    std::vector<std::string> other; // section titles, command lists: the lines in no entry
};

HelpText parse_help(std::string_view help);

// Whether entry names the option: its "--long" (not as the start of a longer name) or "-s".
bool entry_names(const HelpEntry &entry, const OptSpec &spec);

} // namespace drover::cli
