// controller.hpp - droverctld: builds the controller's parts in order, routes each message to
// its owner, and runs the timers (scheduling, time limits, pings, state sync).
#pragma once

#include <memory>
#include <string>

namespace drover::ctld {

struct Options {
    std::string config_path;
    bool cold_start = false;     // -c: discard saved jobs
    std::string controller_name; // --controller NAME: which SlurmctldHost this is
    bool foreground = true;
};

// Runs the controller until SIGTERM/SIGINT or an admin's shutdown. Returns the exit code.
int run_controller(const Options &opts);

} // namespace drover::ctld
