// node_instance.hpp - one node a droverd process serves: its batch jobs, steps, RPC server and
// registration. A process serves one node, or many when it emulates a cluster (--emulate); the
// nodes share the loop, plugins, call pool and child reaper.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "net/routes.hpp"
#include "noded/resources.hpp"

namespace boost::asio {
class io_context;
}
namespace drover {
struct Config;
struct NodeConf;
} // namespace drover
namespace drover::plugin {
class PluginSet;
}
namespace drover::net {
class Authenticator;
class CallPool;
class Server;
struct Request;
class Responder;
} // namespace drover::net

namespace drover::noded {

class Reaper;
class Launcher;
class StepRunner;
class FileBcast;

// What every node of the process shares.
struct NodeShared {
    boost::asio::io_context &io;
    // Where the hops this process forwards are served: a second loop when it emulates many
    // nodes (net/call_loop.hpp), else io.
    boost::asio::io_context &calls_io;
    const Config &conf;
    plugin::PluginSet &plugins;
    const net::Authenticator &auth;
    net::CallPool &pool;
    Reaper &reaper;
    std::function<bool(uint32_t)> is_admin;
    // Sends a message to the controller until it acknowledges; acked (if set) then runs on the
    // loop.
    std::function<void(std::vector<uint8_t>, std::string, int, std::function<void()>)>
        tell_controller;
    Resources res;
    bool emulated = false; // many nodes here: quieter logs, configured sizes registered
    // The newest controller generation seen (on the loop's thread): requests stamped with an
    // older one come from a controller no longer in control and are refused.
    uint64_t epoch = 0;
    // When a request of the controller in control (one stamped with a generation) last came, in
    // steady-clock milliseconds; -1: never. A backup asks, and does not take control while nodes
    // still hear from the controller in control (it is cut off from the backup only).
    int64_t controller_seen_ms = -1;
    // scontrol reconfigure: re-reads and checks the configuration (once for every node of the
    // process that asks within a second). Success, or what is wrong with it (DROVER_EINVAL).
    Status reread_config();
    int64_t reread_at = 0;
    Status reread_status; // the last re-read's outcome, given again within the second
};

class NodeInstance {
  public:
    NodeInstance(NodeShared &sh, const NodeConf &me);
    ~NodeInstance();
    // Starts serving on the node's address and port, and registers with the controller.
    void start();
    const std::string &name() const { return name_; }
    uint16_t port() const;
    // The messages a node serves, each with the callers it takes (for tests).
    static std::vector<std::pair<proto::Body, net::Caller>> route_callers();
    // What a user is told of a message the node does not serve: no more than of one it serves
    // to the controller alone.
    static constexpr const char *kControllerOnly = "only the controller may ask this of a node";

  private:
    using RequestPtr = std::shared_ptr<net::Request>;
    using ResponderPtr = std::shared_ptr<net::Responder>;
    struct NodeRoute {
        proto::Body type;
        net::Caller who;
        void (NodeInstance::*serve)(const RequestPtr &, const ResponderPtr &);
    };
    // Every message a node serves, and who may send it.
    static const NodeRoute kRoutes[];

    void register_node();
    // Serves one request; req->peer.uid is the user it acts for (a forward's origin when it came
    // inside a ForwardRequest: req->forwarded).
    void handle(std::shared_ptr<net::Request> req, std::shared_ptr<net::Responder> resp);
    void on_step_launch(const RequestPtr &req, const ResponderPtr &resp);
    void on_step_signal(const RequestPtr &req, const ResponderPtr &resp);
    void on_step_stat(const RequestPtr &req, const ResponderPtr &resp);
    void on_step_pids(const RequestPtr &req, const ResponderPtr &resp);
    void on_file_bcast(const RequestPtr &req, const ResponderPtr &resp);
    void on_step_attach(const RequestPtr &req, const ResponderPtr &resp);
    void on_forward(const RequestPtr &req, const ResponderPtr &resp);
    void on_ping(const RequestPtr &req, const ResponderPtr &resp);
    void on_batch_launch(const RequestPtr &req, const ResponderPtr &resp);
    void on_job_kill(const RequestPtr &req, const ResponderPtr &resp);
    void on_reconfigure(const RequestPtr &req, const ResponderPtr &resp);
    void on_reboot(const RequestPtr &req, const ResponderPtr &resp);

    NodeShared &sh_;
    const NodeConf &me_;
    std::string name_;
    std::string gres_;
    std::optional<std::string> features_; // what helpers.conf's helpers report active here
    std::unique_ptr<StepRunner> steps_;
    std::unique_ptr<FileBcast> bcast_;
    std::unique_ptr<Launcher> launcher_;
    net::Router router_;
    std::unique_ptr<net::Server> server_;
    uint64_t register_gen_ = 0; // which registration's retry or refresh timer is the live one
};

} // namespace drover::noded
