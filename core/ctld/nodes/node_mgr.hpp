// node_mgr.hpp - the controller's nodes and partitions: registration, admin updates, pings, and
// the bitmaps and views node selection works from.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <drover/views.h>

#include "common/bitmap.hpp"
#include "common/text_pool.hpp"
#include "ctld/context.hpp"
#include "net/routes.hpp"
#include "ctld/nodes/node_events.hpp"
#include "net/server.hpp"

namespace drover::ctld {

struct Job;

// A node as the controller keeps it: one per node of the cluster, so its texts are Shared (the
// nodes of a config line share their features, and nodes with the same OS, version or reason
// share those through the manager's TextPool) and its fields are ordered to leave no padding.
struct Node {
    const NodeConf *conf = nullptr;
    Shared<std::string> reason;
    Shared<std::string> os, version, features_csv;
    int64_t reason_time = 0;
    int64_t boot_time = 0, last_response = 0, last_busy = 0;
    uint64_t reg_memory_mb = 0, reg_tmp_mb = 0;
    uint64_t alloc_memory_mb = 0;
    OpenNodeEvent event; // its node event in the accounting store, while down or drained
    uint32_t index = 0;
    uint32_t state = DROVER_NODE_UNKNOWN;
    uint32_t flags = 0;
    uint32_t reason_uid = 0;
    uint32_t reg_cpus = 0;
    uint32_t alloc_cpus = 0;
    uint32_t run_jobs = 0;
    bool registered = false; // has registered since this controller started

    bool usable() const {
        return (state == DROVER_NODE_IDLE || state == DROVER_NODE_ALLOCATED ||
                state == DROVER_NODE_MIXED) &&
               !(flags & (DROVER_NODE_FLAG_DRAIN | DROVER_NODE_FLAG_NOT_RESPONDING));
    }
};

struct Partition {
    const PartitionConf *conf = nullptr;
    std::string state; // UP, DOWN, DRAIN, INACTIVE
    Bitmap nodes;
    uint32_t total_cpus = 0;
    std::vector<uint32_t> allow_gids; // empty = all
};

class NodeManager {
  public:
    explicit NodeManager(Ctx &ctx);

    // Restores admin state (drain, down, reasons) from the store.
    void recover();
    // Records a node event for every node down or drained without one (slurm.conf's State=DOWN,
    // or a state store older than node events); after the accounting spool is recovered.
    void record_events();

    // Tells every node daemon through the fan-out tree to re-read the configuration; done gets
    // how many did and the names of those that did not.
    void reconfigure_nodes(std::function<void(std::size_t, std::vector<std::string>)> done);
    std::size_t size() const { return nodes_.size(); }
    // When a node last answered a ping (seconds since the epoch; the start when none has yet).
    int64_t last_answer() const { return last_answer_; }
    Node &at(uint32_t i) { return nodes_[i]; }
    const Node &at(uint32_t i) const { return nodes_[i]; }
    Node *find(const std::string &name);
    int index_of(const std::string &name) const;
    std::string names(const std::vector<uint32_t> &idx) const;
    const std::vector<drover_node_view> &views() const { return views_; }

    Partition *partition(const std::string &name);
    const Partition *partition(const std::string &name) const;
    Partition *default_partition();
    std::vector<Partition> &partitions() { return parts_; }

    // Nodes of p a new job may use: up, responding, not drained.
    Bitmap usable(const Partition &p) const;

    void job_started(const Job &job);
    void job_ended(const Job &job);

    // Marks node index up as if it had just registered with its configured CPUs, memory and
    // disk: UNKNOWN becomes IDLE (ALLOCATED/MIXED if jobs hold it), and it is responding; DOWN,
    // FUTURE and drain stay. For benchmarks and emulated clusters that drive the controller
    // without node daemons; nothing is persisted (the next registration or ping decides).
    void mark_up(uint32_t index);

    // The node and partition messages this manager serves, and who may send each.
    net::Routes routes();

    // Message handlers.
    void on_register(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_node_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_node_update(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void on_partition_info(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);

    // Pings every node through the fan-out tree; marks those that do not answer.
    void ping_all();

  private:
    // Asks nodes to register again now (they answer pings after being DOWN "Not responding").
    void ask_to_register(std::vector<std::string> names);
    static std::string shortfall(const NodeConf &c, const proto::NodeRegisterRequest &r);
    // Records the node's event changes (node_events.hpp), then writes its record.
    void persist(Node &n);
    void write(const Node &n);
    // Spools the node event records its state calls for; true when there were any.
    bool note_event(Node &n);
    void set_down(Node &n, const std::string &reason, uint32_t uid);
    void refresh_state(Node &n);

    Ctx &ctx_;
    std::vector<Node> nodes_;
    std::vector<drover_node_view> views_;
    std::vector<Partition> parts_;
    std::vector<std::string> daemon_names() const; // nodes whose daemons should answer

    TextPool texts_; // OS, version and reason texts nodes share
    bool pinging_ = false;
    int64_t last_answer_ = Ctx::now(); // when a node last answered a ping round
};

} // namespace drover::ctld
