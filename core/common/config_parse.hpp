// config_parse.hpp - internal to drover_common: what config.cpp's line reader hands to the key
// handlers in config_keys.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/config.hpp"

namespace drover::detail {

struct ConfPair {
    std::string key;   // as written
    std::string lkey;  // lower-cased
    std::string value; // quotes removed
};

bool iequals(std::string_view a, std::string_view b);

// Splits one logical line into Key=Value pairs (values may be quoted; '#' starts a comment; "\#"
// is a literal '#'). Throws ParseError "loc: what". Shared by slurm.conf and gres.conf.
std::vector<ConfPair> split_pairs(std::string_view line, const std::string &loc);
std::string read_value(std::string_view line, std::size_t &i, const std::string &loc);
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);
std::string_view trim(std::string_view s); // spaces and tabs at both ends
// The items of a comma-separated list, each trimmed; empty items dropped.
std::vector<std::string> split_list(std::string_view s);
// The items joined with commas: split_list's reverse.
std::string join_list(const std::vector<std::string> &items);

// Calls fn(line, "NAME:LINE") for each logical line of text: a trailing backslash joins the next
// line, '\r' before a newline is dropped. Shared by slurm.conf and cgroup.conf.
void for_each_line(std::string_view text, const std::string &name,
                   const std::function<void(std::string_view, const std::string &)> &fn);
// Reads a whole text file into out; false with the reason in err (strerror, or "not a text file"
// when it holds a NUL byte).
bool read_text_file(const std::string &path, std::string &out, std::string &err);

// Throws ParseError "loc: bad value for KEY: 'VALUE' (expected)".
[[noreturn]] void bad_value(const std::string &loc, const ConfPair &p, const std::string &expected);
// PreemptMode as Drover runs it: OFF, CANCEL or REQUEUE (upper case); SUSPEND and GANG are
// refused (not supported yet), as is anything else.
std::string parse_preempt_mode(const std::string &loc, const ConfPair &p);
// YES/NO, TRUE/FALSE or 1/0, any case; anything else is bad_value.
bool parse_bool(const std::string &loc, const ConfPair &p);
// A decimal number from min to max; anything else is bad_value.
uint32_t parse_u32(const std::string &loc, const ConfPair &p, uint32_t min = 0,
                   uint32_t max = 0xffffffffu);

// Power saving's times, in seconds (config_power.cpp), for slurm.conf's top-level keys and a
// partition's alike. SuspendTime: seconds, or INFINITE, NONE or -1 (kPowerInfinite), any other
// negative refused. SuspendTimeout and ResumeTimeout: seconds from min to 65533. For a partition
// (partition = true) GLOBAL (kPowerGlobal) is taken too: the cluster's value applies.
int64_t parse_suspend_time(const std::string &loc, const ConfPair &p, bool partition);
int64_t parse_power_timeout(const std::string &loc, const ConfPair &p, uint32_t min,
                            bool partition);
// ReconfigFlags in Slurm's spelling and order ("KeepPartInfo,KeepPowerSaveSettings"); nullopt
// when a word is not one of Slurm's flags (any case).
std::optional<std::string> reconfig_flags_text(std::string_view value);

// Collects the lines of a file and its Includes into a Config.
class ConfigBuilder {
  public:
    explicit ConfigBuilder(const ConfigParseOptions &opts) : opts_(opts) {}

    // One logical line's pairs; loc is "FILE:LINE".
    void add_line(const std::string &loc, std::vector<ConfPair> &pairs);
    // Resolves what needs the whole file (partitions' nodes, controllers, node sets).
    Config finish(const std::string &path);

  private:
    struct NodeFlags {
        bool cpus = false;     // CPUs= given
        bool topology = false; // Boards, Sockets, CoresPerSocket or ThreadsPerCore given
    };
    struct PendingPartition {
        PartitionConf part;
        std::string loc;
    };
    struct NodeSet {
        std::string name;
        std::string nodes_expr;
        std::string feature;
        std::string loc;
    };
    struct DownNodes {
        std::string expr;
        std::string state;
        std::string loc;
    };

    void top_level(const std::string &loc, const ConfPair &p);
    // The keys of a NodeName line that need its names (NodeAddr, NodeHostname, Port).
    struct NodeKeys {
        const ConfPair *addr = nullptr, *host = nullptr, *port = nullptr;
    };

    void node_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    NodeKeys node_keys(const std::string &loc, const std::vector<ConfPair> &pairs, bool is_default,
                       NodeConf &n, NodeFlags &flags);
    void node_cpus(const std::string &loc, NodeConf &n, const NodeFlags &flags);
    void add_nodes(const std::string &loc, std::vector<std::string> &names, NodeConf n,
                   const NodeFlags &flags, const NodeKeys &keys);
    void partition_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void nodeset_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void downnodes_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void warn_unknown(const std::string &loc, const ConfPair &p);
    // Priority* and FairShareDampeningFactor; PreemptType, PreemptMode, PreemptExemptTime
    // (config_priority.cpp).
    void priority_key(const std::string &loc, const ConfPair &p);
    void preempt_key(const std::string &loc, const ConfPair &p);
    // The power saving keys (config_power.cpp): SuspendProgram, SuspendTime, SuspendExc*,
    // ResumeTimeout, ..., SlurmctldParameters, CommunicationParameters and ReconfigFlags, into
    // cfg_.power. False for a key that is not one of them.
    bool power_key(const std::string &loc, const ConfPair &p);
    // The keys no Config member holds (what reads them takes them from conf.raw): checked here
    // where they have a form; false for a key that is not one of them.
    bool raw_only_key(const std::string &loc, const ConfPair &p);
    std::string accounting_type(const std::string &loc, const std::string &value);
    std::vector<uint32_t> resolve_nodes(const std::string &loc, const std::string &what,
                                        const std::string &expr);
    // Reads names for cfg_.node_index_, which is built as NodeName lines are read.
    auto node_name_at() const {
        return [this](uint32_t i) -> const std::string & { return cfg_.nodes[i].name; };
    }

    ConfigParseOptions opts_;
    Config cfg_;
    NodeConf node_default_;
    NodeFlags node_default_flags_;
    PartitionConf partition_default_;
    std::vector<PendingPartition> partitions_;
    std::unordered_set<std::string> partition_names_;
    std::vector<NodeSet> nodesets_;
    std::vector<DownNodes> downnodes_;
    std::unordered_set<std::string> warned_;
    std::vector<ControllerHost> ctld_hosts_; // SlurmctldHost lines
    std::string control_machine_, control_addr_, backup_controller_, backup_addr_;
};

} // namespace drover::detail
