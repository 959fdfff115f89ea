// node_mgr.hpp - the controller's nodes and partitions: registration, admin updates, pings, and
// the bitmaps and views node selection works from.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <drover/views.h>

#include "common/bitmap.hpp"
#include "common/helpers_conf.hpp"
#include "common/status.hpp"
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
    // scontrol update NodeAddr= / NodeHostname= (cloud nodes): empty, slurm.conf's.
    Shared<std::string> addr, hostname;
    // NodeFeaturesPlugins=node_features/helpers: the features active now when active_own,
    // else all of features_csv are (node_features.cpp).
    Shared<std::string> active_csv;
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
    bool active_own = false; // active_csv holds its active features
    // scontrol reboot, while one is pending (node_reboot.cpp): the state after it ("RESUME",
    // "DOWN", "" as before), whether ASAP drained the node and the reboot set its reason (both
    // undone with it), when it was sent to the node.
    std::string reboot_next;
    bool reboot_asap = false, reboot_reason = false;
    int64_t reboot_issued = 0;
    // Power saving (node_power.cpp): when ResumeProgram or SuspendProgram was run for it, while
    // POWERING_UP (0: not yet) or POWERING_DOWN.
    int64_t power_time = 0;

    // A powered down node may be allocated (it is powered up for the job); one powering down or
    // about to be may not.
    bool usable() const {
        return (state == DROVER_NODE_IDLE || state == DROVER_NODE_ALLOCATED ||
                state == DROVER_NODE_MIXED) &&
               !(flags & (DROVER_NODE_FLAG_DRAIN | DROVER_NODE_FLAG_NOT_RESPONDING |
                          DROVER_NODE_FLAG_REBOOT_ISSUED | DROVER_NODE_FLAG_POWERING_DOWN |
                          DROVER_NODE_FLAG_POWER_DOWN));
    }
};

// A partition as the controller runs it: its settings (slurm.conf's line, as scontrol has changed
// them since) and what follows from them. A change replaces the whole Partition, so code that
// holds one must not keep it past the current turn of the event loop.
struct Partition {
    std::shared_ptr<PartitionConf> conf;
    std::string state; // UP, DOWN, DRAIN, INACTIVE
    Bitmap nodes;
    uint32_t total_cpus = 0;
    std::vector<uint32_t> allow_gids; // empty = all
};

// scontrol create/update partition's settings: slurm.conf's keys (partition_keys.hpp) and values.
using PartitionFields = std::vector<std::pair<std::string, std::string>>;

class NodeManager {
  public:
    explicit NodeManager(Ctx &ctx);

    // Restores admin state (drain, down, reasons, power states; addresses set by scontrol but
    // on a cold start) and the partitions scontrol created, changed or deleted from the store.
    void recover(bool cold_start = false);
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
    // The partition of jobs that name none: the one marked Default (slurm.conf's first when none
    // is); nullptr once scontrol has taken the mark off it (Default=NO) or deleted it.
    Partition *default_partition();
    std::vector<Partition> &partitions() { return parts_; }

    // scontrol create, update and delete partition (partition_update.cpp), each all or nothing,
    // in Slurm's words when refused; the partitions changed are written in the current batch
    // (records "part/<name>" in the meta table, which recover() applies over slurm.conf).
    // update changes only the settings given; Default=YES takes the mark off the partition that
    // had it. delete is refused while a job in the partition is pending or running.
    Status create_partition(const std::string &name, const PartitionFields &fields);
    Status update_partition(const std::string &name, const PartitionFields &fields);
    Status delete_partition(const std::string &name);
    // Whether a pending or running job names the partition (the job manager, built above this
    // one, answers): set once when the controller is built; unset, none does.
    using PartitionInUse = std::function<bool(const std::string &)>;
    void set_partition_in_use(PartitionInUse in_use) { in_use_ = std::move(in_use); }
    // The flags shown with a node besides its own (node_shown_flags.hpp: in a reservation now),
    // from the reservations, built above this manager; unset, none.
    using ShownFlags = std::function<uint32_t(uint32_t index)>;
    void set_shown_flags(ShownFlags shown) { shown_flags_ = std::move(shown); }

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
    void on_partition_update(const std::shared_ptr<net::Request> &req,
                             const net::ResponderPtr &resp);

    // Pings every node through the fan-out tree; marks those that do not answer.
    void ping_all();

    // scontrol reboot and cancel_reboot (node_reboot.cpp): marks the nodes; once a marked node
    // is idle, reboot_tick sends it the reboot (it runs RebootProgram), and the node's next
    // registration ends it. A node that has not registered within ResumeTimeout goes DOWN.
    void on_reboot(const std::shared_ptr<net::Request> &req, const net::ResponderPtr &resp);
    void reboot_tick();

    // Power saving (node_power.cpp), the node states of Slurm's Power Saving guide; the
    // PowerSaver (ctld/power) decides when and runs the programs. A powered down node that is
    // allocated, or asked to power up, is POWERING_UP with power_time 0 until ResumeProgram is
    // run for it (resume_issued); its registration ends that (or resume_failed, after
    // ResumeTimeout: DOWN and powered down again). suspend_issued when SuspendProgram is run,
    // suspend_done once SuspendTimeout has passed. Each writes the node's record.
    bool any_powering_up(const std::vector<uint32_t> &idx) const;
    // node_features.cpp, NodeFeaturesPlugins=node_features/helpers and Slurm's Cloud Scheduling
    // guide: helpers.conf's features are changeable. A powered down node has only its other
    // features (labels) active and is chosen by all it has; allocated, it is powered up with the
    // changeable features its job asks for active, and keeps them until powered down.
    const std::string &active_features(const Node &n) const;
    const std::string &selectable_features(const Node &n) const;
    // Two features a constraint asks for that helpers.conf's MutuallyExclusive keeps apart ("a,b");
    // empty when none are.
    std::string conflicting_features(std::string_view constraint) const;
    // SLURM_NODE_ALIASES for a job on idx: "name:addr:hostname" for each of its CLOUD nodes,
    // comma separated; empty without cloud nodes or when they are in DNS (cloud_dns).
    std::string aliases(const std::vector<uint32_t> &idx) const;
    void resume_issued(uint32_t index);
    void resume_failed(uint32_t index);
    void suspend_issued(uint32_t index, bool idle_on_suspend);
    void suspend_done(uint32_t index);

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
    // node_reboot.cpp: one node's reboot asked for, taken back, sent, and over (it registered).
    void request_reboot(Node &n, const proto::NodeRebootRequest &r, uint32_t uid);
    void cancel_reboot(Node &n);
    void issue_reboot(Node &n);
    // Returns whether the node stays DOWN (nextstate=DOWN).
    bool reboot_done(Node &n);
    void set_reason(Node &n, const std::string &reason, uint32_t uid);
    // node_power.cpp: a powered down node is to power up (allocated, or scontrol POWER_UP); a
    // node of a PowerDownOnIdle partition that has just become idle is to power down; the
    // power states of scontrol update (POWER_UP, POWER_DOWN, POWER_DOWN_ASAP,
    // POWER_DOWN_FORCE), and RESUME of a node powering down.
    void want_resume(Node &n);
    void power_down_if_idle(Node &n);
    void load_helpers();
    // n's labels and the changeable features keep takes are its active ones; false (nothing
    // changed) when it has no changeable feature.
    bool make_active(Node &n, const std::function<bool(const std::string &)> &keep);
    void activate_features(Node &n, const std::string &constraint);
    void labels_only(Node &n);
    // What a node's Helper programs report active: it must hold the changeable features the
    // controller made active (else the node is drained), and is active from now on.
    void reported_features(Node &n, const std::string &reported);
    void show_features(Node &n); // the plugins' view of what n may be chosen by
    static bool is_power_state(const std::string &state);
    void power_update(Node &n, const std::string &state);
    // SlurmctldParameters=cloud_reg_addrs: a cloud node registering is reached where it came
    // from ("ADDR:PORT" of the registration); its address is forgotten once powered down.
    void learn_address(Node &n, const std::string &peer);
    // NodeAddr= and NodeHostname= of scontrol update: one value for every node, or one each.
    Status set_addresses(const std::vector<Node *> &targets, const proto::NodeUpdateRequest &r);

    // Partitions (partition_update.cpp). What settings give: state, nodes, CPUs, groups' ids.
    Partition make_partition(std::shared_ptr<PartitionConf> conf) const;
    // Nodes= into node positions: ALL, or hostlists of configured nodes ("" is none). An unknown
    // node is refused, or with lenient (a record written before a node left slurm.conf) dropped.
    Status resolve_partition_nodes(PartitionConf &conf, bool lenient) const;
    // Applies scontrol's settings to conf (Nodes= resolved); a key Drover has no setting for, or
    // a value it cannot take, is refused (conf then half changed: callers work on a copy).
    // lenient: a record read back, taken as it was written (unknown nodes dropped).
    Status apply_fields(PartitionConf &conf, const PartitionFields &fields, bool lenient) const;
    // Puts p in place of the partition of its name, or adds it.
    void place(Partition p);
    // place, writing p's record; when p is the default, the others lose the mark (their records
    // written too).
    void install(Partition p);
    void save(const PartitionConf &conf);
    // Applies the partition records over slurm.conf's partitions (recover()); one record: false
    // when it does not decode.
    void recover_partitions();
    bool recover_partition(const std::string &name, std::span<const uint8_t> value);

    Ctx &ctx_;
    std::vector<Node> nodes_;
    std::vector<drover_node_view> views_;
    std::vector<Partition> parts_;
    PartitionInUse in_use_;
    ShownFlags shown_flags_;
    std::vector<std::string> daemon_names() const; // nodes whose daemons should answer

    TextPool texts_;      // OS, version and reason texts nodes share
    HelpersConf helpers_; // NodeFeaturesPlugins=node_features/helpers; empty: none
    bool pinging_ = false;
    int64_t last_answer_ = Ctx::now(); // when a node last answered a ping round
};

} // namespace drover::ctld
