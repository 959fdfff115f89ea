// daemon.hpp - what both daemons do at start: parse the common flags, set up logging, detach.
#pragma once

#include <optional>
#include <string>

namespace drover::daemon {

struct CommonFlags {
    std::optional<std::string> config;  // -f
    bool foreground = false;            // -D
    int verbosity = 0;                  // -v, -vv
    std::string log_file;               // -L, else the config's log file, else stderr
};

// Logs to file (or stderr when empty) at info, debug with verbosity >= 1.
void setup_logging(const std::string &name, const std::string &file, int verbosity);

// Forks into the background (setsid, stdio to /dev/null). Returns in the child only.
void detach();

}  // namespace drover::daemon
