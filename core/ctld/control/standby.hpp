// standby.hpp - a controller that is not in control: it keeps its store a copy of the active
// controller's, answers pings, refuses everything else so that commands and node daemons move on
// to the controller in control, and takes control when
//   - the active controller has not answered for SlurmctldTimeout and no live controller listed
//     before this one could take it instead;
//   - an administrator asks (scontrol takeover), or, for the first controller (the primary), as
//     soon as it holds everything the active controller has (the primary takes control back).
#pragma once

#include <cstddef>
#include <cstdint>

namespace drover {
struct Config;
}
namespace drover::state {
class Store;
}
namespace drover::net {
class Authenticator;
}

namespace drover::ctld {

struct StandbyOutcome {
    bool take_control = false; // false: shut down
    uint64_t seen_epoch = 0;   // the highest controller generation heard of
};

struct StandbyOptions {
    std::size_t self = 0;
    // Ask the active controller for control as soon as this copy holds everything it has.
    bool take_back = false;
    // Take control at once when no controller is in control (a controller starting up).
    bool start_if_alone = false;
};

StandbyOutcome run_standby(const Config &conf, state::Store &store, const net::Authenticator &auth,
                           const StandbyOptions &opts);

} // namespace drover::ctld
