// scontrol_args.cpp - scontrol option and command-word parsing, update and hold arguments.
#include "cli/command_docs.hpp"
#include "cli/scontrol_args.hpp"

#include <algorithm>
#include <array>

#include "cli/job_ids.hpp"
#include "cli/options.hpp"
#include "cli/text.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"

namespace drover::cli {

namespace {

enum Id : int {
    kAll,
    kDetails,
    kHide,
    kOneLiner,
    kQuiet,
    kJson,
    kYaml,
    kLocal,
    kSibling,
    kFederation,
    kUid,
    kFuture
};

constexpr OptSpec kSpecs[] = {
    {kAll, 'a', "all", Arg::none},
    {kDetails, 'd', "details", Arg::none},
    {kOptHelp, 'h', "help", Arg::none},
    {kHide, 0, "hide", Arg::none},
    {kOptClusters, 'M', "clusters", Arg::required},
    {kOneLiner, 'o', "oneliner", Arg::none},
    {kQuiet, 'Q', "quiet", Arg::none},
    {kOptUsage, 0, "usage", Arg::none},
    {kOptVerbose, 'v', "verbose", Arg::none},
    {kOptVersion, 'V', "version", Arg::none},
    {kJson, 0, "json", Arg::optional},
    {kYaml, 0, "yaml", Arg::optional},
    {kLocal, 0, "local", Arg::none},
    {kSibling, 0, "sibling", Arg::none},
    {kFederation, 0, "federation", Arg::none},
    {kUid, 'u', "uid", Arg::required},
    {kFuture, 'F', "future", Arg::none},
};

struct Word {
    const char *word;
    std::size_t min; // shortest accepted abbreviation
    ScontrolCmd cmd;
};
constexpr Word kWords[] = {
    {"show", 3, ScontrolCmd::show},
    {"update", 1, ScontrolCmd::update},
    {"hold", 2, ScontrolCmd::hold},
    {"uhold", 2, ScontrolCmd::uhold},
    {"release", 3, ScontrolCmd::release},
    {"requeuehold", 8, ScontrolCmd::requeuehold},
    {"requeue", 3, ScontrolCmd::requeue},
    {"top", 3, ScontrolCmd::top},
    {"suspend", 2, ScontrolCmd::suspend},
    {"resume", 3, ScontrolCmd::resume},
    {"listpids", 5, ScontrolCmd::listpids},
    {"reboot_nodes", 3, ScontrolCmd::reboot},
    {"cancel_reboot", 3, ScontrolCmd::cancel_reboot},
    {"reconfigure", 3, ScontrolCmd::reconfigure},
    {"ping", 2, ScontrolCmd::ping},
    {"version", 4, ScontrolCmd::version},
    {"shutdown", 8, ScontrolCmd::shutdown},
    {"help", 2, ScontrolCmd::help},
    {"takeover", 8, ScontrolCmd::takeover},
    {"token", 5, ScontrolCmd::token},
    {"quit", 4, ScontrolCmd::quit},
    {"exit", 4, ScontrolCmd::quit},
    {"write", 5, ScontrolCmd::write},
    {"create", 2, ScontrolCmd::create},
    // Slurm reads "de" and "det" as "details" (a command Drover has as -d only): "del" at least.
    {"delete", 3, ScontrolCmd::remove},
};

// Splits "Key=value" (key case-insensitive); false without '='.
bool key_value(const std::string &w, std::string &key, std::string &value) {
    std::size_t eq = w.find('=');
    if (eq == std::string::npos) return false;
    key = to_lower(w.substr(0, eq));
    value = w.substr(eq + 1);
    return true;
}

constexpr std::string_view kBadJobId = "Invalid job id specified: ";

} // namespace

ScontrolArgs parse_scontrol_args(std::span<const std::string> args) {
    ParsedArgs pa = parse_options(args, kSpecs, /*stop_at_positional=*/false);
    ScontrolArgs a;
    for (const auto &o : pa.opts) {
        if (take_common(a, o)) continue;
        switch (static_cast<Id>(o.id)) {
        case kAll:
            a.all = true;
            break;
        case kDetails:
            a.details = true;
            break;
        case kOneLiner:
            a.one_liner = true;
            break;
        case kQuiet:
            a.quiet = true;
            break;
        case kJson:
            a.json = true;
            break;
        case kYaml:
            a.yaml = true;
            break;
        case kFuture:
            a.future = true;
            break;
        default:
            break;
        }
    }
    a.words = std::move(pa.positionals);
    return a;
}

std::optional<ScontrolCmd> match_scontrol_command(std::string_view word) {
    std::string w = to_lower(word);
    for (const auto &k : kWords) {
        std::string_view full = k.word;
        if (w.size() >= k.min && w.size() <= full.size() && full.starts_with(w)) return k.cmd;
    }
    // Slurm also takes "reconfig" spelled out in several ways.
    if (w == "reconfig") return ScontrolCmd::reconfigure;
    return std::nullopt;
}

std::optional<ShowWhat> match_show_entity(std::string_view word) {
    std::string w = to_lower(word);
    auto is = [&](std::string_view full, std::size_t min) {
        return w.size() >= min && w.size() <= full.size() && full.starts_with(w);
    };
    if (is("jobs", 3) || is("jobid", 4)) return ShowWhat::job;
    if (is("nodes", 4) || is("nodename", 5)) return ShowWhat::node;
    if (is("partitions", 4) || is("partitionname", 10)) return ShowWhat::partition;
    if (is("configuration", 4)) return ShowWhat::config;
    if (is("steps", 4) || is("stepid", 5)) return ShowWhat::step;
    if (is("licenses", 3)) return ShowWhat::licenses;
    if (is("federation", 3)) return ShowWhat::federation;
    // As Slurm tells them apart: at least "hostn", "hostl" and "hostlists".
    if (is("hostnames", 5)) return ShowWhat::hostnames;
    if (is("hostlist", 5)) return ShowWhat::hostlist;
    if (is("hostlistsorted", 9)) return ShowWhat::hostlistsorted;
    if (is("reservations", 1) || is("reservationname", 1)) return ShowWhat::reservation;
    return std::nullopt;
}

UpdateWhat update_target(std::span<const std::string> words) {
    bool job = false, step = false, resv = false, node = false, part = false, power = false;
    for (const auto &w : words) {
        std::string key, value;
        if (!key_value(w, key, value)) continue;
        if (!key.empty() && (key.back() == '+' || key.back() == '-')) key.pop_back();
        job = job || key == "jobid" || key == "job";
        step = step || abbreviates(key, "stepid", 4);
        resv = resv || abbreviates(key, "reservationname", 3);
        node = node || key == "nodename" || key == "node";
        part = part || abbreviates(key, "partitionname", 3);
        power = power || key.starts_with("suspendexc");
    }
    // In this order, whatever the order of the words: a job's update may name a reservation, and
    // a reservation's a node or a partition.
    return job     ? UpdateWhat::job
           : step  ? UpdateWhat::step
           : resv  ? UpdateWhat::reservation
           : node  ? UpdateWhat::node
           : part  ? UpdateWhat::partition
           : power ? UpdateWhat::power
                   : UpdateWhat::unknown;
}

std::vector<ConfigChange> parse_power_update(std::span<const std::string> words) {
    static constexpr std::array<std::string_view, 3> kKeys = {"SuspendExcNodes", "SuspendExcParts",
                                                              "SuspendExcStates"};
    std::vector<ConfigChange> out;
    for (const auto &w : words) {
        std::string key, value;
        if (!key_value(w, key, value)) throw ParseError("Invalid input: " + w);
        ConfigChange c{"", "=", value};
        if (!key.empty() && (key.back() == '+' || key.back() == '-')) {
            c.op = std::string(1, key.back()) + "=";
            key.pop_back();
        }
        for (std::string_view k : kKeys)
            if (key == to_lower(std::string(k))) c.key = k;
        if (c.key.empty()) throw ParseError("Invalid input: " + w);
        out.push_back(std::move(c));
    }
    return out;
}

CreateWhat create_target(std::span<const std::string> words) {
    for (const auto &w : words) {
        std::string_view tag = std::string_view(w).substr(0, w.find('='));
        if (abbreviates(tag, "NodeName", 3)) return CreateWhat::node;
        if (abbreviates(tag, "PartitionName", 3)) return CreateWhat::partition;
        if (abbreviates(tag, "ReservationName", 3)) return CreateWhat::reservation;
    }
    return CreateWhat::unknown;
}

std::optional<std::string> delete_target(std::span<const std::string> words,
                                         std::string_view entity) {
    constexpr std::string_view kProper =
        "Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'";
    std::string_view tag, value;
    if (words.size() == 1) {
        std::size_t eq = words[0].find('=');
        if (eq == std::string::npos) throw ParseError(std::string(kProper));
        tag = std::string_view(words[0]).substr(0, eq);
        value = std::string_view(words[0]).substr(eq + 1);
    } else if (words.size() == 2) {
        tag = words[0];
        value = words[1];
    } else {
        throw ParseError(std::string(kProper));
    }
    if (!abbreviates(tag, entity, 3)) return std::nullopt;
    return std::string(value);
}

JobUpdate parse_job_update(std::span<const std::string> words, int64_t now) {
    JobUpdate u;
    for (const auto &w : words) {
        std::string key, value;
        if (iequals(w, "nice")) { // "Nice" alone: Slurm's default adjustment
            u.fields.emplace_back("Nice", "100");
            continue;
        }
        if (!key_value(w, key, value))
            throw ParseError("Invalid input: " + w + "\nRequest aborted");
        if (key == "jobid" || key == "job") {
            auto specs = parse_job_spec_list(value, kBadJobId);
            u.jobs.insert(u.jobs.end(), specs.begin(), specs.end());
        } else if (key == "timelimit") {
            std::string_view t = value;
            if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
            try {
                (void)parse_time_limit(t);
            } catch (const ParseError &) {
                throw ParseError("Invalid TimeLimit value: " + value);
            }
            u.fields.emplace_back("TimeLimit", value);
        } else if (key == "name" || key == "jobname") {
            u.fields.emplace_back("Name", value);
        } else if (key == "partition") {
            if (value.empty()) throw ParseError("Invalid Partition value: " + value);
            u.fields.emplace_back("Partition", value);
        } else if (key == "priority") {
            if (!parse_u32(value)) throw ParseError("Invalid Priority value: " + value);
            u.fields.emplace_back("Priority", value);
        } else if (key == "numnodes" || key == "reqnodes" || key == "minnodes") {
            std::size_t dash = value.find('-');
            auto lo = parse_u32(std::string_view(value).substr(0, dash));
            auto hi = dash == std::string::npos
                          ? lo
                          : parse_u32(std::string_view(value).substr(dash + 1));
            if (!lo || !hi || *lo == 0 || *hi < *lo)
                throw ParseError("Invalid NumNodes value: " + value);
            u.fields.emplace_back("NumNodes", value);
        } else if (key == "comment") {
            u.fields.emplace_back("Comment", value);
        } else if (key == "dependency" || key == "depend") {
            u.fields.emplace_back("Dependency", value); // the controller checks it; "" clears
        } else if (key == "features" || key == "feature" || key == "constraint" ||
                   key == "constraints") {
            u.fields.emplace_back("Features", value);
        } else if (key == "starttime" || key == "begintime") {
            try {
                (void)parse_timestamp(value, now);
            } catch (const ParseError &) {
                throw ParseError("Invalid StartTime value: " + value);
            }
            u.fields.emplace_back("StartTime", value);
        } else if (key == "nice") {
            std::string_view n = value;
            bool neg = !n.empty() && n[0] == '-';
            if (!n.empty() && (n[0] == '-' || n[0] == '+')) n.remove_prefix(1);
            auto v = parse_u32(n);
            if (!v || *v > 2147483645u) throw ParseError("Invalid Nice value: " + value);
            u.fields.emplace_back("Nice", (neg && *v ? "-" : "") + str_u(*v));
        } else if (key == "requeue") {
            if (value != "0" && value != "1") throw ParseError("Invalid Requeue value: " + value);
            u.fields.emplace_back("Requeue", value);
        } else {
            throw ParseError("Update of this parameter is not supported: " + w +
                             "\nRequest aborted");
        }
    }
    if (u.jobs.empty()) throw ParseError("No job id specified\nRequest aborted");
    if (u.fields.empty()) throw ParseError("No changes specified\nRequest aborted");
    return u;
}

NodeUpdate parse_node_update(std::span<const std::string> words) {
    NodeUpdate u;
    bool have_state = false, have_reason = false, have_addr = false;
    for (const auto &w : words) {
        std::string key, value;
        if (!key_value(w, key, value))
            throw ParseError("Invalid input: " + w + "\nRequest aborted");
        if (key == "nodename" || key == "node") {
            try {
                if (hostlist_expand(value).empty()) throw ParseError("empty");
            } catch (const ParseError &) {
                throw ParseError("Invalid node name specified: " + value);
            }
            u.names = value;
        } else if (key == "state") {
            std::string s = to_upper(value);
            static constexpr std::array<std::string_view, 10> kStates = {
                "CANCEL_REBOOT",    "DOWN",     "DRAIN",  "IDLE",   "POWER_DOWN", "POWER_DOWN_ASAP",
                "POWER_DOWN_FORCE", "POWER_UP", "RESUME", "UNDRAIN"};
            if (std::find(kStates.begin(), kStates.end(), s) == kStates.end()) {
                std::string valid;
                for (std::string_view k : kStates) valid += " " + std::string(k);
                throw ParseError("Invalid input: " + w +
                                 "\nRequest aborted\nValid states are:" + valid);
            }
            u.state = s;
            have_state = true;
        } else if (key == "reason") {
            u.reason = value;
            have_reason = !value.empty();
        } else if (key == "nodeaddr" || key == "nodehostname") {
            (key == "nodeaddr" ? u.addr : u.hostname) = value;
            have_addr = have_addr || !value.empty();
        } else {
            throw ParseError("Update of this parameter is not supported: " + w +
                             "\nRequest aborted");
        }
    }
    if (u.names.empty()) throw ParseError("No node name specified\nRequest aborted");
    if (!have_state && !have_reason && !have_addr)
        throw ParseError("No changes specified\nRequest aborted");
    if ((u.state == "DRAIN" || u.state == "DOWN") && !have_reason)
        throw ParseError(
            "You must specify a reason when DOWNING or DRAINING a node. Request denied");
    return u;
}

std::vector<JobSpec> parse_hold_ids(std::span<const std::string> words) {
    std::vector<JobSpec> jobs;
    for (const auto &w : words) {
        std::string key, value;
        std::string list = w;
        if (key_value(w, key, value) && (key == "jobid" || key == "job")) list = value;
        auto more = parse_job_spec_list(list, kBadJobId);
        jobs.insert(jobs.end(), more.begin(), more.end());
    }
    if (jobs.empty()) throw ParseError("Invalid job id specified");
    return jobs;
}

std::vector<std::pair<uint32_t, std::string>> update_targets(const std::vector<JobSpec> &jobs) {
    constexpr std::size_t kMaxTasks = 100000;
    std::vector<std::pair<uint32_t, std::string>> out;
    for (const auto &j : jobs) {
        if (!j.has_tasks) {
            out.emplace_back(j.job_id, std::string());
            continue;
        }
        auto tasks = expand_tasks(j.tasks, kMaxTasks);
        if (!tasks) throw ParseError(std::string(kBadJobId) + j.text);
        for (uint32_t t : *tasks) out.emplace_back(j.job_id, str_u(j.job_id) + "_" + str_u(t));
    }
    return out;
}

std::span<const OptSpec> scontrol_options() {
    return kSpecs;
}

std::vector<std::string_view> scontrol_words() {
    std::vector<std::string_view> words;
    for (const auto &w : kWords) words.emplace_back(w.word);
    return words;
}

} // namespace drover::cli
