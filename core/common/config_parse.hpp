// config_parse.hpp - internal to drover_common: what config.cpp's line reader hands to the key
// handlers in config_keys.cpp.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "common/config.hpp"

namespace drover::detail {

struct ConfPair {
    std::string key;    // as written
    std::string lkey;   // lower-cased
    std::string value;  // quotes removed
};

bool iequals(std::string_view a, std::string_view b);

// Splits one logical line into Key=Value pairs (values may be quoted; '#' starts a comment; "\#"
// is a literal '#'). Throws ParseError "loc: what". Shared by slurm.conf and gres.conf.
std::vector<ConfPair> split_pairs(std::string_view line, const std::string &loc);
std::string read_value(std::string_view line, std::size_t &i, const std::string &loc);
std::string to_lower(std::string_view s);
std::string to_upper(std::string_view s);

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
        bool cpus = false;      // CPUs= given
        bool topology = false;  // Boards, Sockets, CoresPerSocket or ThreadsPerCore given
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
    void node_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void partition_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void nodeset_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void downnodes_line(const std::string &loc, const std::vector<ConfPair> &pairs);
    void warn_unknown(const std::string &loc, const ConfPair &p);
    std::vector<std::string> resolve_nodes(const std::string &loc, const std::string &what,
                                           const std::string &expr);

    ConfigParseOptions opts_;
    Config cfg_;
    NodeConf node_default_;
    NodeFlags node_default_flags_;
    PartitionConf partition_default_;
    std::vector<PendingPartition> partitions_;
    std::unordered_set<std::string> partition_names_;
    std::vector<NodeSet> nodesets_;
    std::vector<DownNodes> downnodes_;
    std::unordered_map<std::string, std::size_t> node_index_;
    std::unordered_set<std::string> warned_;
    std::vector<ControllerHost> ctld_hosts_;  // SlurmctldHost lines
    std::string control_machine_, control_addr_, backup_controller_, backup_addr_;
};

}  // namespace drover::detail
