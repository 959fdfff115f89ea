// partition_keys.cpp - what each key of a partition means, for slurm.conf, scontrol and the
// controller's partition records alike.
#include "common/partition_keys.hpp"

#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/timefmt.hpp"

namespace drover {

namespace {

using detail::bad_value;
using detail::ConfPair;
using detail::iequals;
using detail::to_upper;
using detail::trim;

// A count that may also be UNLIMITED or INFINITE.
uint32_t parse_count(const std::string &loc, const ConfPair &p) {
    std::string_view s = trim(p.value);
    if (iequals(s, "unlimited") || iequals(s, "infinite")) return kInfinite;
    return detail::parse_u32(loc, p, 0, kInfinite - 2);
}

uint32_t parse_minutes(const std::string &loc, const ConfPair &p) {
    try {
        return parse_time_limit(p.value);
    } catch (const ParseError &e) {
        throw ParseError(loc + ": " + p.key + ": " + e.what());
    }
}

// OverSubscribe=NO|YES|EXCLUSIVE|FORCE, YES and FORCE with ":count"; kept as written, upper case.
std::string parse_oversubscribe(const std::string &loc, const ConfPair &p) {
    std::string s = to_upper(trim(p.value));
    std::string_view base = std::string_view(s).substr(0, s.find(':'));
    if (base != "NO" && base != "YES" && base != "EXCLUSIVE" && base != "FORCE")
        bad_value(loc, p, "expected NO, YES, EXCLUSIVE or FORCE, with :count for YES and FORCE");
    if (base.size() < s.size()) {
        ConfPair count{p.key, p.lkey, s.substr(base.size() + 1)};
        detail::parse_u32(loc, count, 1);
    }
    return s;
}

std::vector<std::string> parse_names(const ConfPair &p) {
    std::vector<std::string> list = detail::split_list(p.value);
    if (list.size() == 1 && iequals(list[0], "all")) list.clear(); // ALL: no limit
    return list;
}

std::string limit_text(uint32_t v) {
    return v == kInfinite ? "UNLIMITED" : std::to_string(v);
}

// Slurm's scontrol reads a word as the first key of this list (in its order) that the word
// abbreviates with at least min letters. Keys Drover has no setting for are listed (empty key)
// so that their abbreviations are not taken for a later key, as in Slurm.
struct Spelling {
    std::string_view name;
    std::size_t min;
    std::string_view key; // as set_partition_key takes it; empty: not supported
};
constexpr Spelling kSpellings[] = {
    {"PartitionName", 2, "PartitionName"},
    {"MaxTime", 4, "MaxTime"},
    {"CpuBind", 7, ""},
    {"DefaultTime", 8, "DefaultTime"},
    {"MaxCPUsPerNode", 4, ""},
    {"MaxNodes", 4, "MaxNodes"},
    {"MinNodes", 2, "MinNodes"},
    {"Default", 7, "Default"},
    {"DisableRootJobs", 1, ""},
    {"ExclusiveUser", 1, ""},
    {"Hidden", 1, ""},
    {"LLN", 1, ""},
    {"RootOnly", 3, ""},
    {"ReqResv", 3, ""},
    {"OverSubscribe", 5, "OverSubscribe"},
    {"Shared", 2, "OverSubscribe"},
    {"OverTimeLimit", 5, ""},
    {"PowerDownOnIdle", 1, "PowerDownOnIdle"},
    {"PreemptMode", 3, "PreemptMode"},
    {"Priority", 3, "Priority"},
    {"PriorityJobFactor", 3, "PriorityJobFactor"},
    {"PriorityTier", 3, "PriorityTier"},
    {"State", 2, "State"},
    {"Nodes", 1, "Nodes"},
    {"AllowGroups", 6, "AllowGroups"},
    {"AllowAccounts", 6, "AllowAccounts"},
    {"QOS", 3, "QOS"},
    // Drover's own: Slurm's scontrol refuses these (slurm.conf only), so no abbreviations.
    {"SuspendTime", 11, "SuspendTime"},
    {"SuspendTimeout", 14, "SuspendTimeout"},
    {"ResumeTimeout", 13, "ResumeTimeout"},
};

} // namespace

bool set_partition_key(PartitionConf &part, const std::string &loc, std::string_view key,
                       const std::string &value) {
    const ConfPair p{std::string(key), detail::to_lower(key), value};
    const std::string &k = p.lkey;
    if (k == "nodes") {
        part.nodes_expr = std::string(trim(p.value));
    } else if (k == "default") {
        part.is_default = detail::parse_bool(loc, p);
    } else if (k == "state") {
        std::string s = to_upper(trim(p.value));
        if (s != "UP" && s != "DOWN" && s != "DRAIN" && s != "INACTIVE")
            bad_value(loc, p, "expected UP, DOWN, DRAIN or INACTIVE");
        part.state = s;
    } else if (k == "maxtime") {
        part.max_time_min = parse_minutes(loc, p);
    } else if (k == "defaulttime") {
        part.default_time_min = parse_minutes(loc, p);
    } else if (k == "maxnodes") {
        part.max_nodes = parse_count(loc, p);
    } else if (k == "minnodes") {
        part.min_nodes = detail::parse_u32(loc, p);
    } else if (k == "allowgroups") {
        part.allow_groups = parse_names(p);
    } else if (k == "allowaccounts") {
        part.allow_accounts = parse_names(p);
    } else if (k == "oversubscribe" || k == "shared") {
        part.oversubscribe = parse_oversubscribe(loc, p);
    } else if (k == "qos") {
        part.qos = detail::to_lower(trim(p.value));
    } else if (k == "preemptmode") {
        part.preempt_mode = detail::parse_preempt_mode(loc, p);
    } else if (k == "prioritytier") {
        part.priority_tier = detail::parse_u32(loc, p, 0, 65533);
    } else if (k == "priorityjobfactor") {
        part.priority_job_factor = detail::parse_u32(loc, p, 0, 65533);
    } else if (k == "priority") { // the old key: both at once
        part.priority_tier = part.priority_job_factor = detail::parse_u32(loc, p, 0, 65533);
    } else if (k == "suspendtime") {
        part.suspend_time = detail::parse_suspend_time(loc, p, true);
    } else if (k == "suspendtimeout") {
        part.suspend_timeout = detail::parse_power_timeout(loc, p, 0, true);
    } else if (k == "resumetimeout") {
        part.resume_timeout = detail::parse_power_timeout(loc, p, 1, true);
    } else if (k == "powerdownonidle") {
        part.power_down_on_idle = detail::parse_bool(loc, p);
    } else {
        return false;
    }
    return true;
}

std::string_view scontrol_partition_key(std::string_view word) {
    for (const Spelling &s : kSpellings)
        if (word.size() >= s.min && word.size() <= s.name.size() &&
            iequals(word, s.name.substr(0, word.size())))
            return s.key;
    return {};
}

std::vector<std::pair<std::string, std::string>> partition_settings(const PartitionConf &part) {
    std::vector<std::pair<std::string, std::string>> out = {
        {"Nodes", part.nodes_expr},
        {"Default", part.is_default ? "YES" : "NO"},
        {"State", part.state},
        {"MaxTime", limit_text(part.max_time_min)},
        {"MaxNodes", limit_text(part.max_nodes)},
        {"MinNodes", std::to_string(part.min_nodes)},
        {"AllowGroups", part.allow_groups.empty() ? "ALL" : detail::join_list(part.allow_groups)},
        {"AllowAccounts",
         part.allow_accounts.empty() ? "ALL" : detail::join_list(part.allow_accounts)},
        {"OverSubscribe", part.oversubscribe},
        {"QOS", part.qos},
        {"PriorityTier", std::to_string(part.priority_tier)},
        {"PriorityJobFactor", std::to_string(part.priority_job_factor)},
        {"PowerDownOnIdle", part.power_down_on_idle ? "YES" : "NO"},
    };
    // Not set (MaxTime applies; the cluster's mode applies): no value reads back as that.
    if (part.default_time_min != kNoVal)
        out.emplace_back("DefaultTime", limit_text(part.default_time_min));
    if (!part.preempt_mode.empty()) out.emplace_back("PreemptMode", part.preempt_mode);
    // Power saving's times, when the partition has its own (GLOBAL: the cluster's applies).
    const std::pair<const char *, int64_t> times[] = {{"SuspendTime", part.suspend_time},
                                                      {"SuspendTimeout", part.suspend_timeout},
                                                      {"ResumeTimeout", part.resume_timeout}};
    for (const auto &[key, secs] : times)
        if (secs != kPowerGlobal)
            out.emplace_back(key, secs == kPowerInfinite ? "INFINITE" : std::to_string(secs));
    return out;
}

} // namespace drover
