// config.hpp - slurm.conf syntax: the whole cluster configuration as the daemons and commands see
// it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/cgroup_conf.hpp"
#include "common/name_index.hpp"
#include "common/power_conf.hpp"
#include "common/private_data.hpp"
#include "common/shared_value.hpp"

namespace drover {

namespace detail {
class ConfigBuilder;
}

// One node as slurm.conf gives it. A cluster has many and the controller keeps them all, so the
// texts a whole NodeName line shares (address, features, generic resources, state) are Shared:
// one block for the line, 8 bytes a node.
struct NodeConf {
    std::string name;
    Shared<std::string> addr;     // NodeAddr as given; empty = the hostname (Config::node_addr)
    Shared<std::string> hostname; // NodeHostname as given; empty = the name (Config::node_hostname)
    Shared<std::vector<std::string>> features;
    Shared<std::string> gres;
    Shared<std::string> state{
        "UNKNOWN"}; // State= as written (UNKNOWN, FUTURE, CLOUD, DOWN, DRAIN, IDLE)
    uint64_t real_memory_mb = 1;
    uint64_t tmp_disk_mb = 0;
    uint32_t cpus = 0; // 0 until resolved: CPUs, else boards*sockets*cores*threads
    uint32_t boards = 1;
    uint32_t sockets = 1; // Sockets (or SocketsPerBoard): per board; CPUs alone -> sockets = CPUs
    uint32_t cores_per_socket = 1;
    uint32_t threads_per_core = 1;
    uint32_t weight = 1;
    uint16_t port = 0; // Port; 0 = SlurmdPort
};

struct PartitionConf {
    std::string name;
    std::string nodes_expr;      // Nodes= as written (or "ALL")
    std::vector<uint32_t> nodes; // positions in Config::nodes, in the order Nodes= gives them
    bool is_default = false;
    std::string state = "UP";                // UP, DOWN, DRAIN, INACTIVE
    uint32_t max_time_min = 0xffffffffu;     // kInfinite
    uint32_t default_time_min = 0xfffffffeu; // kNoVal: MaxTime is used
    uint32_t max_nodes = 0xffffffffu;
    uint32_t min_nodes = 0;
    std::vector<std::string> allow_groups;   // empty = ALL
    std::vector<std::string> allow_accounts; // empty = ALL
    std::string oversubscribe = "NO";        // NO, YES, EXCLUSIVE, FORCE (with :count as written)
    uint32_t priority_tier = 1;
    uint32_t priority_job_factor = 1; // PriorityJobFactor: the partition factor of multifactor
    std::string preempt_mode; // PreemptMode= of the partition ("" : the cluster's), upper case
    std::string qos; // QOS=: the partition's QOS, whose limits its jobs also obey (lower case)
    // Power saving (power_conf.hpp): seconds, kPowerGlobal when not set (the cluster's applies;
    // a node in several partitions takes the highest), SuspendTime also kPowerInfinite.
    int64_t suspend_time = kPowerGlobal, suspend_timeout = kPowerGlobal,
            resume_timeout = kPowerGlobal;
    bool power_down_on_idle = false; // PowerDownOnIdle: nodes power down as soon as idle
};

struct ControllerHost {
    std::string name; // SlurmctldHost=name(addr) -> name
    std::string addr; // -> addr, or name
};

struct Config {
    std::string path; // the main file read
    std::string cluster_name;
    // FederationParameters: fed_display makes the status commands show the whole federation
    // (Config::fed_display()).
    std::string federation_parameters;
    std::vector<ControllerHost>
        controllers; // SlurmctldHost lines in order (ControlMachine, BackupController)
    uint16_t slurmctld_port = 6817;
    uint16_t slurmd_port = 6818;
    std::string state_save_location = "/var/spool/drover/ctld";
    std::string slurmd_spool_dir = "/var/spool/drover/d";
    std::string slurm_user = "root";
    std::string auth_type = "auth/key"; // auth/slurm is accepted as auth/key
    std::string auth_info;              // AuthInfo, as written
    std::string auth_alt_types;         // AuthAltTypes: "auth/jwt" accepts JSON Web Tokens
    std::string auth_alt_parameters;    // AuthAltParameters: jwt_key=PATH
    std::string select_type = "select/linear";
    std::string select_type_parameters;
    std::string scheduler_type = "sched/builtin";
    std::string scheduler_parameters;
    // SchedulerParameters=max_script_size=N: the largest batch script (bytes) the controller
    // accepts, as Slurm's (default 4 MiB; 1 to 512 MiB).
    uint64_t max_script_size = kDefaultMaxScriptSize;
    static constexpr uint64_t kDefaultMaxScriptSize = uint64_t{4} << 20;
    static constexpr uint64_t kMaxMaxScriptSize = uint64_t{512} << 20;
    std::string accounting_storage_type = "accounting/lmdb";
    std::string switch_type = "switch/none";
    std::string proctrack_type = "proctrack/pgid";
    std::string plugin_dir; // empty = the build's own plugin directory
    uint32_t tree_width = 50;
    uint32_t slurmctld_timeout = 120; // seconds
    uint32_t slurmd_timeout = 300;
    uint32_t message_timeout = 10; // MessageTimeout: a whole request must arrive within it
    uint32_t kill_wait = 30;
    uint32_t unkillable_step_timeout = 60; // after SIGKILL: then the node drains "Kill task failed"
    std::string
        jobacct_gather_frequency; // "30", "task=30": step sampling period (s); 0 = at the end only
    std::string mpi_default = "none"; // MpiDefault: srun's --mpi when none is given
    std::string task_plugin;          // TaskPlugin: task/affinity binds tasks to CPUs
    std::string task_plugin_param;    // TaskPluginParam: the default binding (Cores, Verbose...)
    std::string mpi_params;           // MpiParams (ports=): accepted; PMI needs no ports
    std::string bcast_parameters;     // BcastParameters: DestDir= for sbcast's relative DEST
    std::string bcast_exclude;        // BcastExclude: accepted (--send-libs sends no libraries)
    std::string jobacct_gather_type;  // accepted: droverd samples /proc and the proctrack container
    uint32_t max_job_count = 10000;
    uint32_t first_job_id = 1;
    uint32_t max_job_id = 0x03ff0000; // ids are 26 bits: the top 6 bits name a federation origin
    std::string prolog;
    std::string epilog;
    std::string slurmctld_log_file;
    std::string slurmd_log_file;
    uint32_t min_job_age = 300;             // seconds a finished job stays visible to squeue
    uint32_t return_to_service = 0;         // 0, 1 or 2, as Slurm's ReturnToService
    PrivateData private_data;               // PrivateData (private_data.hpp)
    std::string accounting_storage_enforce; // AccountingStorageEnforce, as written
    std::string licenses; // Licenses= as read: "name:count,..." (licenses_text), "" for none
    std::string accounting_storage_loc;  // AccountingStorageLoc
    std::string accounting_storage_host; // AccountingStorageHost (accounting/postgres)
    std::string accounting_storage_port; // AccountingStoragePort
    std::string accounting_storage_user; // AccountingStorageUser
    std::string accounting_storage_pass; // AccountingStoragePass
    std::string state_save_sync = "no";  // Drover: StateSaveSync=yes fsyncs every commit
    uint64_t state_save_max_size_mb =
        32 * 1024; // Drover: StateSaveMaxSize, the largest the state store may grow
    static constexpr uint64_t kMaxStateSaveMaxSizeMb = uint64_t{64} << 20; // 64 TiB
    std::string tmp_fs = "/tmp";       // TmpFS: where TmpDisk is measured
    uint32_t max_array_size = 1001;    // MaxArraySize: task ids must be below it
    std::string dependency_parameters; // DependencyParameters (kill_invalid_depend)
    std::string slurmd_parameters;     // SlurmdParameters (config_overrides)
    uint64_t def_mem_per_cpu_mb = 0;   // DefMemPerCPU; 0 = not set (select plugins read raw)
    // PriorityType: "" for priority/basic (no plugin); the plugin reads its own weights and
    // flags. The core decays and resets usage: PriorityCalcPeriod, PriorityDecayHalfLife (0: no
    // decay), PriorityUsageResetPeriod (NONE, NOW, DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY).
    std::string priority_type;
    uint64_t priority_calc_period_s = 300;
    uint64_t priority_decay_half_life_s = 7 * 86400;
    std::string priority_usage_reset_period = "NONE";
    // PreemptType ("" for none, "preempt/partition_prio", "preempt/qos"), PreemptMode (OFF,
    // CANCEL or REQUEUE, upper case) and PreemptExemptTime (seconds a job runs before it may be
    // preempted).
    std::string preempt_type;
    std::string preempt_mode = "OFF";
    uint64_t preempt_exempt_time_s = 0;
    uint64_t def_mem_per_node_mb = 0; // DefMemPerNode
    PowerSaveConf power;              // SuspendProgram, ResumeProgram, SuspendTime, ...

    CgroupConf cgroup; // cgroup.conf beside the main file (defaults if none)

    std::vector<NodeConf> nodes; // NodeName lines, expanded, in order (DEFAULT applied)
    std::vector<PartitionConf> partitions;

    // Every key=value seen at top level, key lower-cased, last one wins (for plugins' conf_get and
    // scontrol show config).
    std::map<std::string, std::string> raw;
    // Messages for keys Drover does not know; each key is reported once.
    std::vector<std::string> warnings;

    const NodeConf *find_node(std::string_view name) const;
    const PartitionConf *find_partition(std::string_view name) const;
    const PartitionConf *default_partition() const;
    // Where a node's daemon listens: NodeAddr (else NodeHostname, else its name), and Port (else
    // SlurmdPort).
    const std::string &node_addr(const NodeConf &n) const {
        return n.addr.empty() ? node_hostname(n) : n.addr.get();
    }
    const std::string &node_hostname(const NodeConf &n) const {
        return n.hostname.empty() ? n.name : n.hostname.get();
    }
    uint16_t node_port(const NodeConf &n) const { return n.port ? n.port : slurmd_port; }
    // AuthInfo's comma-separated option (e.g. "socket", "key", "ttl"), if given ("" for an option
    // given without "=value"). Names compare case-insensitively.
    std::optional<std::string> auth_option(std::string_view name) const;
    // The same for AuthAltParameters (jwt_key=PATH).
    std::optional<std::string> auth_alt_option(std::string_view name) const;
    // AuthAltTypes names auth/jwt: the controller takes tokens (drover-restd, scontrol token).
    bool jwt_enabled() const;
    // FederationParameters names fed_display: status commands show the federation by default.
    bool fed_display() const;
    // AuthInfo cred_expire=SECONDS: how long a step credential may wait to be used (120).
    int64_t cred_lifetime() const;

  private:
    friend class detail::ConfigBuilder;
    // find_node's index: name -> position in nodes. Built by the parser; rebuilt by find_node when
    // nodes has changed size since (code that edits nodes by hand keeps working; the first
    // find_node after such an edit must not race with other threads' calls).
    void rebuild_node_index() const;
    mutable NameIndex node_index_;
    mutable std::size_t node_index_size_ = static_cast<std::size_t>(-1);
};

// Limits for parse_config/load_config. The defaults suit real sites; the fuzz target turns
// Include off so arbitrary text cannot make the parser read files.
struct ConfigParseOptions {
    bool allow_include = true;          // false: an Include line is a ParseError
    std::size_t max_include_depth = 16; // nested Includes deeper than this are a ParseError
    std::size_t max_nodes = std::size_t{1} << 20; // more NodeName entries than this is a ParseError
};

// Reads a config file and everything it Includes (relative paths resolve against the file's
// directory). Throws ParseError("FILE:LINE: message") for a malformed line, bad value, unknown
// node in a partition, or an unreadable file.
//
// Syntax, as slurm.conf: Key=Value pairs, several to a line, keys case-insensitive, spaces around
// '=' allowed, values "quoted" to hold spaces or '#', '#' to end of line a comment (\# for a
// literal one), a trailing backslash continues the line. "Include PATH" (or Include=PATH) reads
// PATH (glob patterns allowed; a pattern matching nothing is fine, a missing file is not).
// NodeName=/PartitionName=DEFAULT lines set defaults for the lines after them; NodeSet= (Nodes=
// or Feature=) names may be used in a partition's Nodes=; DownNodes= sets node states. Partitions
// may come before the nodes they name. ClusterName is lower-cased, as Slurm does. Keys Drover
// does not know are warnings (one per key, in Config::warnings), not errors. load_config also
// reads cgroup.conf from the file's directory when it is there (see cgroup_conf.hpp).
Config load_config(const std::string &path);
Config load_config(const std::string &path, const ConfigParseOptions &opts);

// Parses text as if it were the file named `name` (Includes resolve against `dir`). For tests and
// the fuzz target.
Config parse_config(std::string_view text, const std::string &name, const std::string &dir = ".");
Config parse_config(std::string_view text, const std::string &name, const std::string &dir,
                    const ConfigParseOptions &opts);

// Which file to read: the -f argument if given, else $DROVER_CONF, else $SLURM_CONF, else
// kDefaultConfigPath.
inline constexpr const char *kDefaultConfigPath = "/etc/slurm/slurm.conf";
std::string find_config_path(const std::optional<std::string> &cli_path);

} // namespace drover
