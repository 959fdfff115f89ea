// node_daemon.hpp - droverd: registers this node, runs what the controller sends (batch jobs,
// signals, pings, requests forwarded down the fan-out tree) and reports job ends.
#pragma once

#include <string>

namespace drover::noded {

struct Options {
    std::string config_path;
    std::string node_name; // -N; empty = this host's short name
    std::string emulate;   // --emulate HOSTLIST: serve all these nodes from this process
};

// Runs until SIGTERM/SIGINT. Returns the exit code.
int run_node_daemon(const Options &opts);

} // namespace drover::noded
