// config_power.cpp - slurm.conf's power saving keys as slurm.conf(5) and Slurm's Power Saving and
// Cloud Scheduling guides give them: the programs, the times and rates, the nodes, partitions and
// node states never powered down, and the options of SlurmctldParameters,
// CommunicationParameters and ReconfigFlags that concern it. The controller acts on cfg.power.
#include <algorithm>
#include <array>
#include <charconv>
#include <limits>
#include <optional>
#include <string_view>

#include "common/config.hpp"
#include "common/config_parse.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/power_conf.hpp"

namespace drover {

namespace {

using detail::iequals;
using detail::trim;

// Slurm keeps the timeouts and rates in 16 bits, 65534 and 65535 meaning "not set" and INFINITE.
constexpr uint32_t kMax16 = 65533;
constexpr uint32_t kMaxSeconds = std::numeric_limits<uint32_t>::max() - 1;

// The node states SuspendExcStates may name, as Slurm spells them.
constexpr std::array<std::string_view, 12> kExcStates = {
    "CLOUD",       "DOWN",        "DRAIN",          "DYNAMIC_FUTURE", "DYNAMIC_NORM", "FAIL",
    "INVALID_REG", "MAINTENANCE", "NOT_RESPONDING", "PERFCTRS",       "PLANNED",      "RESERVED"};

// ReconfigFlags, in the order Slurm shows them.
constexpr std::array<std::string_view, 4> kReconfigFlags = {
    "KeepPartInfo", "KeepPartState", "KeepPowerSaveSettings", "KeepNodeStateFuture"};

// A number written as decimal digits only, at most max.
std::optional<uint32_t> digits(std::string_view s, uint32_t max) {
    uint32_t v = 0;
    if (s.empty()) return std::nullopt;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v > max) return std::nullopt;
    return v;
}

// "A, B or C".
template <std::size_t N>
std::string one_of(const std::array<std::string_view, N> &words) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) {
        if (i) out += i + 1 == N ? " or " : ", ";
        out += words[i];
    }
    return out;
}

// One set of SuspendExcNodes: "hostlist" or "hostlist:count".
std::pair<std::string, uint32_t> exc_node_set(std::string_view set) {
    uint32_t count = 0;
    if (std::size_t colon = set.rfind(':');
        colon != std::string_view::npos && set.find(']', colon) == std::string_view::npos) {
        std::optional<uint32_t> n = digits(trim(set.substr(colon + 1)), kMaxSeconds);
        if (!n || *n == 0)
            throw ParseError("'" + std::string(set) + "': the count after ':' must be a number " +
                             "of at least 1");
        count = *n;
        set = trim(set.substr(0, colon));
    }
    if (set.empty()) throw ParseError("a count without nodes");
    if (set.find(':') != std::string_view::npos) // "a:b:2", "n[1:2]"
        throw ParseError("'" + std::string(set) + "': ':' is not part of a node name");
    (void)hostlist_expand(set); // throws ParseError naming what is wrong
    return {std::string(set), count};
}

// SlurmctldParameters: the power saving options. The others (enable_configless, ...) are kept
// in conf.raw, as written, for what reads them.
void slurmctld_params(const std::string &loc, const detail::ConfPair &p, PowerSaveConf &c) {
    const PowerSaveConf defaults; // a later SlurmctldParameters line replaces an earlier one
    c.interval = defaults.interval;
    c.min_interval = defaults.min_interval;
    c.idle_on_node_suspend = c.cloud_reg_addrs = c.cloud_dns = false;
    for (const std::string &opt : detail::split_list(p.value)) {
        std::string_view o = opt;
        std::size_t eq = o.find('=');
        std::string_view name = o.substr(0, eq);
        if (iequals(name, "power_save_interval") || iequals(name, "power_save_min_interval")) {
            bool interval = iequals(name, "power_save_interval");
            std::optional<uint32_t> n;
            if (eq != std::string_view::npos) n = digits(o.substr(eq + 1), kMaxSeconds);
            if (!n || (interval && *n == 0)) {
                detail::ConfPair whole{p.key, p.lkey, opt}; // the option named in the message
                detail::bad_value(loc, whole,
                                  std::string(name) + ": expected a number of seconds" +
                                      (interval ? ", at least 1" : ""));
            }
            (interval ? c.interval : c.min_interval) = *n;
        } else if (iequals(o, "idle_on_node_suspend")) {
            c.idle_on_node_suspend = true;
        } else if (iequals(o, "cloud_reg_addrs")) {
            c.cloud_reg_addrs = true;
        } else if (iequals(o, "cloud_dns")) {
            c.cloud_dns = true;
        }
    }
}

std::vector<std::string> parse_exc_states(const std::string &loc, const detail::ConfPair &p) {
    try {
        return suspend_exc_states(p.value);
    } catch (const ParseError &e) {
        detail::bad_value(loc, p, e.what());
    }
}

} // namespace

std::vector<std::string> suspend_exc_states(std::string_view list) {
    std::vector<std::string> states = detail::split_list(detail::to_upper(std::string(list)));
    for (const std::string &s : states)
        if (std::find(kExcStates.begin(), kExcStates.end(), s) == kExcStates.end())
            throw ParseError("'" + s + "': expected a comma list of " + one_of(kExcStates));
    return states;
}

std::vector<std::pair<std::string, uint32_t>> suspend_exc_node_sets(std::string_view spec) {
    std::vector<std::pair<std::string, uint32_t>> sets;
    auto add = [&](std::string_view set) {
        if (!trim(set).empty()) sets.push_back(exc_node_set(trim(set)));
    };
    // A comma inside brackets ("n[1,3-5]") belongs to the hostlist, not between sets.
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i < spec.size(); ++i) {
        depth += spec[i] == '[' ? 1 : spec[i] == ']' ? -1 : 0;
        if (spec[i] == ',' && depth <= 0) {
            add(spec.substr(start, i - start));
            start = i + 1;
        }
    }
    add(spec.substr(start));
    return sets;
}

bool power_save_enabled(const Config &conf) {
    if (conf.power.suspend_time != kPowerInfinite) return true;
    return std::any_of(conf.partitions.begin(), conf.partitions.end(), [](const PartitionConf &p) {
        return p.suspend_time != kPowerGlobal && p.suspend_time != kPowerInfinite;
    });
}

namespace detail {

int64_t parse_suspend_time(const std::string &loc, const ConfPair &p, bool partition) {
    std::string_view v = trim(p.value);
    if (iequals(v, "INFINITE") || iequals(v, "NONE") || v == "-1") return kPowerInfinite;
    if (partition && iequals(v, "GLOBAL")) return kPowerGlobal;
    if (std::optional<uint32_t> s = digits(v, kMaxSeconds)) return *s;
    bad_value(loc, p,
              partition ? "expected seconds, INFINITE, NONE, -1 or GLOBAL"
                        : "expected seconds, INFINITE, NONE or -1");
}

int64_t parse_power_timeout(const std::string &loc, const ConfPair &p, uint32_t min,
                            bool partition) {
    std::string_view v = trim(p.value);
    if (partition && iequals(v, "GLOBAL")) return kPowerGlobal;
    if (std::optional<uint32_t> s = digits(v, kMax16); s && *s >= min) return *s;
    bad_value(loc, p,
              "expected seconds from " + std::to_string(min) + " to " + std::to_string(kMax16) +
                  (partition ? ", or GLOBAL" : ""));
}

std::optional<std::string> reconfig_flags_text(std::string_view value) {
    std::array<bool, kReconfigFlags.size()> on{};
    for (const std::string &word : split_list(value)) {
        auto it = std::find_if(kReconfigFlags.begin(), kReconfigFlags.end(),
                               [&](std::string_view f) { return iequals(f, word); });
        if (it == kReconfigFlags.end()) return std::nullopt;
        on[std::size_t(it - kReconfigFlags.begin())] = true;
    }
    std::string out;
    for (std::size_t i = 0; i < on.size(); ++i)
        if (on[i]) out += (out.empty() ? "" : ",") + std::string(kReconfigFlags[i]);
    return out;
}

bool ConfigBuilder::power_key(const std::string &loc, const ConfPair &p) {
    PowerSaveConf &c = cfg_.power;
    const std::string &k = p.lkey;
    if (k == "suspendprogram") {
        c.suspend_program = p.value;
    } else if (k == "resumeprogram") {
        c.resume_program = p.value;
    } else if (k == "resumefailprogram") {
        c.resume_fail_program = p.value;
    } else if (k == "suspendtime") {
        c.suspend_time = parse_suspend_time(loc, p, false);
    } else if (k == "suspendtimeout") {
        c.suspend_timeout = uint32_t(parse_power_timeout(loc, p, 0, false)); // 0: NONE
    } else if (k == "resumetimeout") {
        c.resume_timeout = uint32_t(parse_power_timeout(loc, p, 1, false));
    } else if (k == "resumerate" || k == "suspendrate") {
        (k == "resumerate" ? c.resume_rate : c.suspend_rate) = parse_u32(loc, p, 0, kMax16);
    } else if (k == "batchstarttimeout") {
        c.batch_start_timeout = parse_u32(loc, p, 0, kMax16);
    } else if (k == "suspendexcnodes") {
        try {
            (void)suspend_exc_node_sets(p.value);
        } catch (const ParseError &e) {
            bad_value(loc, p,
                      std::string("expected hostlists, each with an optional :count: ") + e.what());
        }
        c.exc_nodes = std::string(trim(p.value));
    } else if (k == "suspendexcparts") {
        c.exc_parts = split_list(p.value);
    } else if (k == "suspendexcstates") {
        c.exc_states = parse_exc_states(loc, p);
    } else if (k == "slurmctldparameters") {
        slurmctld_params(loc, p, c);
    } else if (k == "communicationparameters") {
        // NoAddrCache: names are resolved at each connection anyway; the others are accepted.
        std::vector<std::string> opts = split_list(p.value);
        c.no_addr_cache = std::any_of(opts.begin(), opts.end(), [](const std::string &o) {
            return iequals(o, "NoAddrCache");
        });
    } else if (k == "reconfigflags") {
        std::optional<std::string> flags = reconfig_flags_text(p.value);
        if (!flags) bad_value(loc, p, "expected a comma list of " + one_of(kReconfigFlags));
        c.keep_power_save_settings = flags->find("KeepPowerSaveSettings") != std::string::npos;
    } else {
        return false;
    }
    return true;
}

} // namespace detail

} // namespace drover
