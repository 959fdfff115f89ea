// controller_routes.hpp - the messages the controller in control answers itself (configuration,
// ping, statistics, reconfigure, shutdown, moves of control) and the accounting queries.
#pragma once

#include <functional>

#include "ctld/context.hpp"
#include "net/routes.hpp"

namespace drover::ctld {

class AcctAdmin;
class Handover;
class JobManager;
class NodeManager;
class PowerSaver;
class ReplSource;
class TokenAuth;

struct ControllerParts {
    Ctx &ctx;
    AcctAdmin &admin;
    Handover &handover;
    ReplSource &repl;
    NodeManager &nodes;
    JobManager &jobs;
    PowerSaver &power;
    const TokenAuth &tokens;
    std::function<void()> stop; // ends this controller's time in control (after the reply)
};

net::Routes controller_routes(const ControllerParts &parts);

// sacct's job queries, sacctmgr's event queries and its administration.
net::Routes acct_routes(Ctx &ctx, AcctAdmin &admin);

} // namespace drover::ctld
