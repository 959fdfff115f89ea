// config_keys.cpp - what each slurm.conf key means: top-level keys, NodeName, PartitionName,
// NodeSet and DownNodes lines, and the checks that need the whole file.
#include <limits>

#include "common/config_parse.hpp"
#include "common/config_report.hpp"
#include "common/error.hpp"
#include "common/exit_codes.hpp"
#include "common/hostlist.hpp"
#include "common/licenses.hpp"
#include "common/partition_keys.hpp"
#include "common/rlimits.hpp"
#include "common/timefmt.hpp"

namespace drover::detail {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

[[noreturn]] void bad_value(const std::string &loc, const ConfPair &p,
                            const std::string &expected) {
    std::string v = p.value.substr(0, 60);
    throw ParseError(loc + ": bad value for " + p.key + ": '" + v + "' (" + expected + ")");
}

bool parse_bool(const std::string &loc, const ConfPair &p) {
    std::string_view s = trim(p.value);
    if (iequals(s, "yes") || iequals(s, "true") || s == "1") return true;
    if (iequals(s, "no") || iequals(s, "false") || s == "0") return false;
    bad_value(loc, p, "expected YES or NO");
}

std::vector<std::string> split_list(std::string_view s) {
    std::vector<std::string> out;
    while (true) {
        std::size_t comma = s.find(',');
        std::string_view item = trim(s.substr(0, comma));
        if (!item.empty()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        s.remove_prefix(comma + 1);
    }
    return out;
}

std::string join_list(const std::vector<std::string> &items) {
    std::string out;
    for (const std::string &i : items) out += (out.empty() ? "" : ",") + i;
    return out;
}

namespace {

constexpr uint32_t kU32Max = std::numeric_limits<uint32_t>::max();

uint64_t parse_uint(const std::string &loc, const ConfPair &p, uint64_t min, uint64_t max) {
    std::string_view s = trim(p.value);
    if (s.empty() || s.size() > 19) bad_value(loc, p, "expected a number");
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') bad_value(loc, p, "expected a number");
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (v < min || v > max)
        bad_value(loc, p,
                  "expected a number from " + std::to_string(min) + " to " + std::to_string(max));
    return v;
}

// A port, or the first of a range "6817-6820".
uint16_t parse_port(const std::string &loc, const ConfPair &p) {
    ConfPair first = p;
    first.value = p.value.substr(0, p.value.find('-'));
    return static_cast<uint16_t>(parse_uint(loc, first, 1, 65535));
}

uint64_t parse_size(const std::string &loc, const ConfPair &p) {
    try {
        return parse_size_mb(p.value);
    } catch (const ParseError &e) {
        throw ParseError(loc + ": " + p.key + ": " + e.what());
    }
}

std::vector<std::string> expand(const std::string &loc, const ConfPair &p, std::size_t max) {
    try {
        return hostlist_expand(p.value, max);
    } catch (const ParseError &e) {
        throw ParseError(loc + ": " + p.key + ": " + e.what());
    }
}

struct StringKey {
    const char *key;
    std::string Config::*field;
};
const StringKey kStringKeys[] = {
    {"statesavelocation", &Config::state_save_location},
    {"slurmdspooldir", &Config::slurmd_spool_dir},
    {"slurmuser", &Config::slurm_user},
    {"authinfo", &Config::auth_info},
    {"authalttypes", &Config::auth_alt_types},
    {"federationparameters", &Config::federation_parameters},
    {"authaltparameters", &Config::auth_alt_parameters},
    {"selecttype", &Config::select_type},
    {"selecttypeparameters", &Config::select_type_parameters},
    {"schedulertype", &Config::scheduler_type},
    {"switchtype", &Config::switch_type},
    {"proctracktype", &Config::proctrack_type},
    {"plugindir", &Config::plugin_dir},
    {"prolog", &Config::prolog},
    {"epilog", &Config::epilog},
    {"slurmctldlogfile", &Config::slurmctld_log_file},
    {"slurmdlogfile", &Config::slurmd_log_file},
    {"accountingstorageenforce", &Config::accounting_storage_enforce},
    {"accountingstorageloc", &Config::accounting_storage_loc},
    {"accountingstoragehost", &Config::accounting_storage_host},
    {"accountingstorageport", &Config::accounting_storage_port},
    {"accountingstorageuser", &Config::accounting_storage_user},
    {"accountingstoragepass", &Config::accounting_storage_pass},
    {"statesavesync", &Config::state_save_sync},
    {"tmpfs", &Config::tmp_fs},
    {"dependencyparameters", &Config::dependency_parameters},
    {"slurmdparameters", &Config::slurmd_parameters},
    {"jobacctgatherfrequency", &Config::jobacct_gather_frequency},
    {"jobacctgathertype", &Config::jobacct_gather_type},
    {"mpidefault", &Config::mpi_default},
    {"taskplugin", &Config::task_plugin},
    {"taskpluginparam", &Config::task_plugin_param},
    {"mpiparams", &Config::mpi_params},
    {"bcastparameters", &Config::bcast_parameters},
    {"bcastexclude", &Config::bcast_exclude},
};

struct NumberKey {
    const char *key;
    uint32_t Config::*field;
    uint32_t min;
    uint32_t max;
};
const NumberKey kNumberKeys[] = {
    {"treewidth", &Config::tree_width, 1, 65533},
    {"slurmctldtimeout", &Config::slurmctld_timeout, 0, kU32Max},
    {"slurmdtimeout", &Config::slurmd_timeout, 0, kU32Max},
    {"messagetimeout", &Config::message_timeout, 1, 3600},
    {"killwait", &Config::kill_wait, 0, kU32Max},
    {"unkillablesteptimeout", &Config::unkillable_step_timeout, 1, kU32Max},
    {"maxjobcount", &Config::max_job_count, 1, kU32Max},
    {"firstjobid", &Config::first_job_id, 1, 0x03ff0000},
    {"maxjobid", &Config::max_job_id, 1, 0x03ff0000},
    {"minjobage", &Config::min_job_age, 0, kU32Max},
    {"returntoservice", &Config::return_to_service, 0, 2},
    {"maxarraysize", &Config::max_array_size, 0, 4000001},
};

// SlurmctldHost=name or name(addr).
ControllerHost parse_controller(const std::string &loc, const ConfPair &p) {
    std::string_view s = trim(p.value);
    ControllerHost h;
    std::size_t open = s.find('(');
    if (open == std::string_view::npos) {
        if (s.find(')') != std::string_view::npos)
            bad_value(loc, p, "expected name or name(address)");
        h.name = std::string(s);
        h.addr = h.name;
    } else {
        if (s.back() != ')' || s.find(')') != s.size() - 1)
            bad_value(loc, p, "expected name or name(address)");
        h.name = std::string(trim(s.substr(0, open)));
        h.addr = std::string(trim(s.substr(open + 1, s.size() - open - 2)));
    }
    if (h.name.empty() || h.addr.empty()) bad_value(loc, p, "expected name or name(address)");
    return h;
}

bool is_line_key(const std::string &lkey) {
    return lkey == "nodename" || lkey == "partitionname" || lkey == "nodeset" ||
           lkey == "downnodes" || lkey == "frontendname";
}

// Port=N for every node of the line, or a range with one port per node ("[20001-20100]"),
// for several node daemons on one host (emulated clusters, tests).
struct LinePorts {
    uint16_t first = 0;
    bool range = false;
};

LinePorts line_ports(const std::string &loc, const ConfPair &port, std::size_t count) {
    LinePorts out;
    std::string v = port.value;
    if (v.size() > 2 && v.front() == '[' && v.back() == ']') v = v.substr(1, v.size() - 2);
    ConfPair lo = port, hi = port;
    auto dash = v.find('-');
    lo.value = v.substr(0, dash);
    out.first = static_cast<uint16_t>(parse_uint(loc, lo, 1, 65535));
    if (dash != std::string::npos) {
        hi.value = v.substr(dash + 1);
        uint64_t last = parse_uint(loc, hi, 1, 65535);
        if (last < out.first || last - out.first + 1 != count)
            throw ParseError(loc + ": " + port.key + "=" + port.value + " gives " +
                             std::to_string(last >= out.first ? last - out.first + 1 : 0) +
                             " ports for " + std::to_string(count) + " nodes");
        out.range = true;
    }
    return out;
}

// NodeAddr= or NodeHostname=: one per node of the line, or one for all of them.
std::vector<Shared<std::string>> line_hosts(const std::string &loc, const ConfPair &key,
                                            const std::vector<std::string> &names) {
    std::vector<std::string> given = expand(loc, key, names.size());
    // One host for every node of the line (several node daemons or an emulated cluster on
    // one machine, each with its own Port): one block shared by the line.
    if (given.size() == 1 && names.size() > 1)
        return std::vector<Shared<std::string>>(names.size(),
                                                Shared<std::string>(std::move(given.front())));
    if (given.size() != names.size())
        throw ParseError(loc + ": " + key.key + " names " + std::to_string(given.size()) +
                         " hosts for " + std::to_string(names.size()) + " nodes");
    return {given.begin(), given.end()};
}

} // namespace

uint32_t parse_u32(const std::string &loc, const ConfPair &p, uint32_t min, uint32_t max) {
    return static_cast<uint32_t>(parse_uint(loc, p, min, max));
}

// AccountingStorageType as Drover loads it. Slurm's names map onto Drover's plugins: */none is no
// accounting (""), and slurmdbd (or the older mysql) the controller's own store, since Drover
// needs no database daemon; accounting_storage/X is accounting/X.
std::string ConfigBuilder::accounting_type(const std::string &loc, const std::string &value) {
    constexpr std::string_view kSlurmPrefix = "accounting_storage/";
    std::string type = value;
    if (value.size() > kSlurmPrefix.size() &&
        iequals(std::string_view(value).substr(0, kSlurmPrefix.size()), kSlurmPrefix))
        type = "accounting/" + value.substr(kSlurmPrefix.size());
    if (iequals(type, "accounting/none")) return "";
    if (iequals(type, "accounting/slurmdbd") || iequals(type, "accounting/mysql")) {
        cfg_.warnings.push_back(loc + ": AccountingStorageType=" + value +
                                ": the controller keeps accounting itself (accounting/lmdb); no "
                                "slurmdbd is needed");
        return "accounting/lmdb";
    }
    return type;
}

void ConfigBuilder::warn_unknown(const std::string &loc, const ConfPair &p) {
    if (!warned_.insert(p.lkey).second) return;
    // A Slurm key Drover does not act on is said as such: the site's file is not wrong.
    if (is_slurm_key(p.key))
        cfg_.warnings.push_back(loc + ": " + p.key +
                                " is a Slurm key Drover does not use; ignored");
    else
        cfg_.warnings.push_back(loc + ": unknown key '" + p.key + "' ignored");
}

void ConfigBuilder::add_line(const std::string &loc, std::vector<ConfPair> &pairs) {
    const std::string &first = pairs[0].lkey;
    if (first == "nodename") return node_line(loc, pairs);
    if (first == "partitionname") return partition_line(loc, pairs);
    if (first == "nodeset") return nodeset_line(loc, pairs);
    if (first == "downnodes") return downnodes_line(loc, pairs);
    if (first == "frontendname") return warn_unknown(loc, pairs[0]);
    for (const ConfPair &p : pairs) {
        if (is_line_key(p.lkey)) throw ParseError(loc + ": " + p.key + "= must begin its line");
        top_level(loc, p);
    }
}

void ConfigBuilder::top_level(const std::string &loc, const ConfPair &p) {
    cfg_.raw[p.lkey] = p.value;
    const std::string &k = p.lkey;
    for (const StringKey &s : kStringKeys) {
        if (k == s.key) {
            cfg_.*s.field = p.value;
            return;
        }
    }
    for (const NumberKey &n : kNumberKeys) {
        if (k == n.key) {
            cfg_.*n.field = parse_u32(loc, p, n.min, n.max);
            return;
        }
    }
    if (k == "schedulerparameters") {
        // The plugin reads its own options (bf_*); the core reads max_script_size.
        cfg_.scheduler_parameters = p.value;
        cfg_.max_script_size = Config::kDefaultMaxScriptSize;
        for (const std::string &opt : split_list(p.value)) {
            std::string_view o = opt;
            if (!iequals(o.substr(0, o.find('=')), "max_script_size")) continue;
            ConfPair whole = p, number = p; // the option named in the message, its number parsed
            whole.value = opt;
            number.value =
                o.find('=') == std::string_view::npos ? "" : std::string(o.substr(o.find('=') + 1));
            try {
                cfg_.max_script_size = parse_uint(loc, number, 1, Config::kMaxMaxScriptSize);
            } catch (const ParseError &) {
                bad_value(loc, whole,
                          "max_script_size: expected a number of bytes from 1 to " +
                              std::to_string(Config::kMaxMaxScriptSize));
            }
        }
    } else if (k == "clustername") {
        // Slurm maps the cluster name to lower case (accounting databases need it so).
        cfg_.cluster_name = to_lower(trim(p.value));
    } else if (k == "slurmctldhost") {
        ctld_hosts_.push_back(parse_controller(loc, p));
    } else if (k == "controlmachine") {
        control_machine_ = std::string(trim(p.value));
    } else if (k == "controladdr") {
        control_addr_ = std::string(trim(p.value));
    } else if (k == "backupcontroller") {
        backup_controller_ = std::string(trim(p.value));
    } else if (k == "backupaddr") {
        backup_addr_ = std::string(trim(p.value));
    } else if (k == "defmempercpu" || k == "defmempernode") {
        uint64_t mb = parse_size(loc, p);
        (k == "defmempercpu" ? cfg_.def_mem_per_cpu_mb : cfg_.def_mem_per_node_mb) = mb;
    } else if (k == "privatedata") {
        std::vector<std::string> unknown;
        cfg_.private_data = parse_private_data(p.value, &unknown);
        for (const auto &word : unknown)
            cfg_.warnings.push_back(loc + ": unknown PrivateData value '" + word +
                                    "' ignored (known: accounts, cloud, events, jobs, nodes, "
                                    "partitions, reservations, usage, users, all)");
    } else if (k == "statesavemaxsize") {
        uint64_t mb = parse_size(loc, p);
        if (mb < 1 || mb > Config::kMaxStateSaveMaxSizeMb)
            bad_value(loc, p,
                      "expected a size from 1M to " +
                          std::to_string(Config::kMaxStateSaveMaxSizeMb >> 20) + "T");
        cfg_.state_save_max_size_mb = mb;
    } else if (k == "slurmctldport") {
        cfg_.slurmctld_port = parse_port(loc, p);
    } else if (k == "slurmdport") {
        cfg_.slurmd_port = parse_port(loc, p);
    } else if (k == "authtype") {
        cfg_.auth_type = iequals(p.value, "auth/slurm") ? "auth/key" : p.value;
    } else if (k == "accountingstoragetype") {
        cfg_.accounting_storage_type = accounting_type(loc, p.value);
    } else if (k == "preempttype" || k == "preemptmode" || k == "preemptexempttime") {
        preempt_key(loc, p);
    } else if (k.starts_with("priority") || k == "fairsharedampeningfactor") {
        priority_key(loc, p);
    } else if (k == "licenses") {
        try {
            cfg_.licenses = licenses_text(parse_licenses(p.value));
        } catch (const ParseError &e) {
            bad_value(loc, p, e.what());
        }
    } else if (!power_key(loc, p) && !raw_only_key(loc, p)) {
        warn_unknown(loc, p);
    }
}

bool ConfigBuilder::raw_only_key(const std::string &loc, const ConfPair &p) {
    const std::string &k = p.lkey;
    auto check = [&](auto parse) {
        try {
            (void)parse(p.value);
        } catch (const ParseError &e) {
            bad_value(loc, p, e.what());
        }
    };
    if (k == "resvoverrun") { // the controller's Reservations
        if (!iequals(p.value, "UNLIMITED")) (void)parse_u32(loc, p, 0, 65533);
    } else if (k == "propagateresourcelimits" || k == "propagateresourcelimitsexcept") {
        check(parse_rlimit_list); // the commands (rlimits.hpp)
    } else if (k == "requeueexit" || k == "requeueexithold") {
        check(parse_exit_code_list); // the controller (exit_codes.hpp)
    } else if (k == "metricstype") {
        // The controller's OpenMetrics endpoints (ctld/metrics/metrics.hpp) are the only kind.
        if (trim(p.value) != "metrics/openmetrics")
            bad_value(loc, p, "expected metrics/openmetrics");
    } else {
        // RebootProgram (scontrol and the node daemons), TaskProlog/TaskEpilog (the node
        // daemons, task_scripts.hpp), JobSubmitPlugins (the controller loads job_submit/NAME).
        // SlurmctldPidFile/SlurmdPidFile and the SyslogDebug levels (the daemons' main checks
        // and uses them: daemon/service.hpp).
        return k == "rebootprogram" || k == "taskprolog" || k == "taskepilog" ||
               k == "jobsubmitplugins" || k == "slurmctldpidfile" || k == "slurmdpidfile" ||
               k == "slurmctldsyslogdebug" || k == "slurmdsyslogdebug" || k == "metricsparameters";
    }
    return true;
}

ConfigBuilder::NodeKeys ConfigBuilder::node_keys(const std::string &loc,
                                                 const std::vector<ConfPair> &pairs,
                                                 bool is_default, NodeConf &n, NodeFlags &flags) {
    NodeKeys keys;
    for (std::size_t i = 1; i < pairs.size(); ++i) {
        const ConfPair &p = pairs[i];
        const std::string &k = p.lkey;
        if (k == "cpus" || k == "procs") {
            n.cpus = parse_u32(loc, p);
            flags.cpus = n.cpus != 0;
        } else if (k == "boards") {
            n.boards = parse_u32(loc, p, 1);
            flags.topology = true;
        } else if (k == "sockets" || k == "socketsperboard") {
            n.sockets = parse_u32(loc, p, 1);
            flags.topology = true;
        } else if (k == "corespersocket") {
            n.cores_per_socket = parse_u32(loc, p, 1);
            flags.topology = true;
        } else if (k == "threadspercore") {
            n.threads_per_core = parse_u32(loc, p, 1);
            flags.topology = true;
        } else if (k == "realmemory") {
            n.real_memory_mb = parse_size(loc, p);
        } else if (k == "tmpdisk") {
            n.tmp_disk_mb = parse_size(loc, p);
        } else if (k == "weight") {
            n.weight = parse_u32(loc, p);
        } else if (k == "feature" || k == "features") {
            n.features = split_list(p.value);
        } else if (k == "gres") {
            n.gres = p.value;
        } else if (k == "state") {
            n.state = to_upper(trim(p.value));
            if (n.state.empty()) bad_value(loc, p, "expected a node state");
        } else if (k == "port") {
            keys.port = &p;
        } else if (k == "nodeaddr" || k == "nodehostname") {
            if (is_default)
                throw ParseError(loc + ": " + p.key + " cannot be given with NodeName=DEFAULT");
            (k == "nodeaddr" ? keys.addr : keys.host) = &p;
        } else if (is_line_key(k)) {
            throw ParseError(loc + ": " + p.key + "= must begin its line");
        } else {
            warn_unknown(loc, p);
        }
    }
    return keys;
}

// A line without CPUs= has its topology's; one with CPUs= alone counts each CPU as a socket.
void ConfigBuilder::node_cpus(const std::string &loc, NodeConf &n, const NodeFlags &flags) {
    if (!flags.cpus) {
        uint64_t cpus = 1;
        for (uint32_t f : {n.boards, n.sockets, n.cores_per_socket, n.threads_per_core}) {
            cpus *= f;
            if (cpus > kU32Max)
                throw ParseError(loc + ": node topology gives more than " +
                                 std::to_string(kU32Max) + " CPUs");
        }
        n.cpus = static_cast<uint32_t>(cpus);
    } else if (!flags.topology) {
        n.sockets = n.cpus; // CPUs alone: each CPU counts as a socket of one core, as Slurm does
    }
}

void ConfigBuilder::add_nodes(const std::string &loc, std::vector<std::string> &names, NodeConf n,
                              const NodeFlags &flags, const NodeKeys &keys) {
    LinePorts ports;
    if (keys.port != nullptr) ports = line_ports(loc, *keys.port, names.size());
    std::vector<Shared<std::string>> addrs, hosts;
    if (keys.addr != nullptr) addrs = line_hosts(loc, *keys.addr, names);
    if (keys.host != nullptr) hosts = line_hosts(loc, *keys.host, names);
    node_cpus(loc, n, flags);
    // Room grows geometrically (a config may have a line per node); finish() trims the slack.
    if (std::size_t need = cfg_.nodes.size() + names.size(); need > cfg_.nodes.capacity())
        cfg_.nodes.reserve(std::max(need, cfg_.nodes.capacity() * 2));
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (!cfg_.node_index_.insert(names[i], uint32_t(cfg_.nodes.size()), node_name_at()))
            throw ParseError(loc + ": node '" + names[i] + "' is defined twice");
        NodeConf &c = cfg_.nodes.emplace_back(n);
        c.name = std::move(names[i]);
        // Left empty where they default (Config::node_hostname, node_addr): no text per node.
        if (!hosts.empty() && hosts[i] != c.name) c.hostname = std::move(hosts[i]);
        if (!addrs.empty() && addrs[i].get() != (c.hostname.empty() ? c.name : c.hostname.get()))
            c.addr = std::move(addrs[i]);
        if (keys.port != nullptr)
            c.port = static_cast<uint16_t>(ports.first + (ports.range ? i : 0));
    }
}

void ConfigBuilder::node_line(const std::string &loc, const std::vector<ConfPair> &pairs) {
    const ConfPair &head = pairs[0];
    bool is_default = iequals(trim(head.value), "default");
    NodeConf n = node_default_;
    NodeFlags flags = node_default_flags_;
    NodeKeys keys = node_keys(loc, pairs, is_default, n, flags);
    if (is_default) {
        if (keys.port != nullptr) n.port = parse_port(loc, *keys.port);
        node_default_ = n;
        node_default_flags_ = flags;
        return;
    }
    if (cfg_.nodes.size() >= opts_.max_nodes)
        throw ParseError(loc + ": more than " + std::to_string(opts_.max_nodes) + " nodes");
    std::vector<std::string> names = expand(loc, head, opts_.max_nodes - cfg_.nodes.size());
    if (names.empty()) throw ParseError(loc + ": NodeName needs a name");
    add_nodes(loc, names, n, flags, keys);
}

void ConfigBuilder::partition_line(const std::string &loc, const std::vector<ConfPair> &pairs) {
    const ConfPair &head = pairs[0];
    std::string name(trim(head.value));
    bool is_default = iequals(name, "default");
    PartitionConf part = partition_default_;
    for (std::size_t i = 1; i < pairs.size(); ++i) {
        const ConfPair &p = pairs[i];
        if (set_partition_key(part, loc, p.key, p.value)) continue;
        if (is_line_key(p.lkey)) throw ParseError(loc + ": " + p.key + "= must begin its line");
        warn_unknown(loc, p);
    }
    if (is_default) {
        partition_default_ = part;
        return;
    }
    if (name.empty()) throw ParseError(loc + ": PartitionName needs a name");
    if (!partition_names_.insert(name).second)
        throw ParseError(loc + ": partition '" + name + "' is defined twice");
    part.name = name;
    partitions_.push_back(PendingPartition{std::move(part), loc});
}

void ConfigBuilder::nodeset_line(const std::string &loc, const std::vector<ConfPair> &pairs) {
    NodeSet set;
    set.name = std::string(trim(pairs[0].value));
    set.loc = loc;
    if (set.name.empty()) throw ParseError(loc + ": NodeSet needs a name");
    for (std::size_t i = 1; i < pairs.size(); ++i) {
        const ConfPair &p = pairs[i];
        if (p.lkey == "nodes")
            set.nodes_expr = p.value;
        else if (p.lkey == "feature")
            set.feature = std::string(trim(p.value));
        else
            warn_unknown(loc, p);
    }
    nodesets_.push_back(std::move(set));
}

void ConfigBuilder::downnodes_line(const std::string &loc, const std::vector<ConfPair> &pairs) {
    DownNodes d{pairs[0].value, "DOWN", loc};
    for (std::size_t i = 1; i < pairs.size(); ++i) {
        const ConfPair &p = pairs[i];
        if (p.lkey == "state")
            d.state = to_upper(trim(p.value));
        else if (p.lkey != "reason")
            warn_unknown(loc, p);
    }
    downnodes_.push_back(std::move(d));
}

// Positions in cfg_.nodes of a partition's Nodes= (or DownNodes=): ALL, hostlists of defined
// nodes, node set names.
std::vector<uint32_t> ConfigBuilder::resolve_nodes(const std::string &loc, const std::string &what,
                                                   const std::string &expr) {
    std::vector<uint32_t> out;
    if (iequals(trim(expr), "all")) {
        out.resize(cfg_.nodes.size());
        for (uint32_t i = 0; i < out.size(); ++i) out[i] = i;
        return out;
    }
    std::vector<std::string> names = expand(loc, ConfPair{"Nodes", "nodes", expr}, opts_.max_nodes);
    std::vector<bool> seen(cfg_.nodes.size());
    auto add = [&](std::size_t idx) {
        if (!seen[idx]) {
            seen[idx] = true;
            out.push_back(uint32_t(idx));
        }
    };
    for (const std::string &name : names) {
        if (uint32_t at = cfg_.node_index_.find(name, node_name_at()); at != NameIndex::npos) {
            add(at);
            continue;
        }
        const NodeSet *set = nullptr;
        for (const NodeSet &s : nodesets_)
            if (s.name == name) set = &s;
        if (set == nullptr)
            throw ParseError(loc + ": " + what + " names node '" + name +
                             "', which is not defined");
        if (!set->feature.empty()) {
            for (std::size_t i = 0; i < cfg_.nodes.size(); ++i)
                for (const std::string &f : cfg_.nodes[i].features.get())
                    if (f == set->feature) add(i);
        }
        if (!set->nodes_expr.empty()) {
            for (const std::string &m :
                 expand(set->loc, ConfPair{"Nodes", "nodes", set->nodes_expr}, opts_.max_nodes)) {
                uint32_t at = cfg_.node_index_.find(m, node_name_at());
                if (at == NameIndex::npos)
                    throw ParseError(set->loc + ": NodeSet '" + set->name + "' names node '" + m +
                                     "', which is not defined");
                add(at);
            }
        }
    }
    return out;
}

Config ConfigBuilder::finish(const std::string &path) {
    cfg_.path = path;
    if (!ctld_hosts_.empty()) {
        cfg_.controllers = ctld_hosts_;
    } else if (!control_machine_.empty()) {
        cfg_.controllers.push_back(
            {control_machine_, control_addr_.empty() ? control_machine_ : control_addr_});
        if (!backup_controller_.empty())
            cfg_.controllers.push_back(
                {backup_controller_, backup_addr_.empty() ? backup_controller_ : backup_addr_});
    }
    for (PendingPartition &pp : partitions_) {
        if (!pp.part.nodes_expr.empty())
            pp.part.nodes =
                resolve_nodes(pp.loc, "partition '" + pp.part.name + "'", pp.part.nodes_expr);
        cfg_.partitions.push_back(std::move(pp.part));
    }
    for (const DownNodes &d : downnodes_) {
        for (uint32_t at : resolve_nodes(d.loc, "DownNodes", d.expr))
            cfg_.nodes[at].state = d.state;
    }
    cfg_.nodes.shrink_to_fit();
    cfg_.node_index_size_ = cfg_.nodes.size(); // the index was built line by line
    return std::move(cfg_);
}

} // namespace drover::detail
