// context.hpp - what every part of the controller shares: the loop, the configuration, the
// plugins, the state store, the accounting spool and the events. The managers are not here: each
// is handed the ones below it when built (controller.cpp), and hears from those above through
// events.hpp. Each piece of state has one owner: nodes and partitions belong to NodeManager, jobs
// to JobManager, steps to StepManager.
#pragma once

#include <cstdint>
#include <functional>
#include <ctime>
#include <string>

#include "common/config.hpp"

namespace boost::asio {
class io_context;
}
namespace drover::plugin {
class PluginSet;
}
namespace drover::net {
class Authenticator;
class CallPool;
} // namespace drover::net
namespace drover::state {
class Store;
}

namespace drover::ctld {

class Committer;
class AcctQueue;
class AcctRecorder;
class Federation;
struct Events;

struct Ctx {
    boost::asio::io_context &io;
    const Config &conf;
    plugin::PluginSet &plugins;
    net::Authenticator &auth;
    state::Store &store;
    Committer &commit;
    net::CallPool &pool;
    AcctQueue &acct;
    Events &events;
    uint32_t slurm_uid = 0;
    std::string host;                 // this controller's name
    AcctRecorder *recorder = nullptr; // accounting records go through its spool
    const Federation *fed = nullptr;  // this cluster's federation (job ids carry its id)
    uint64_t epoch = 0;           // this controller's generation, stamped on what it sends to nodes
    std::function<void()> fenced; // a node refused us for a newer generation: step down
    // The address a node was given at run time (scontrol update NodeAddr=), nullptr for none:
    // the node manager's, read by resolve_node.
    std::function<const std::string *(const std::string &)> node_addrs;

    // root and SlurmUser administer.
    bool is_admin(uint32_t uid) const { return uid == 0 || uid == slurm_uid; }
    static int64_t now() { return int64_t(::time(nullptr)); }
};

} // namespace drover::ctld
