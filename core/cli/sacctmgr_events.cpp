// sacctmgr_events.cpp - sacctmgr show event's conditions, filter and rows.
#include "cli/sacctmgr_events.hpp"

#include <drover/views.h>

#include <ctime>

#include "cli/node_states.hpp"
#include "cli/sacct_time.hpp"
#include "cli/text.hpp"
#include "cli/users.hpp"
#include "common/error.hpp"
#include "common/hostlist.hpp"
#include "common/timefmt.hpp"
#include "proto/fb_read.hpp"

namespace drover::cli {

namespace {

using proto::sv;

// "Node", "Cluster" or both.
void event_types(EventConditions &c, bool &chosen, std::string_view list) {
    if (!chosen) c.node_events = c.cluster_events = false;
    chosen = true;
    for (const auto &t : split(list, ',')) {
        if (abbreviates(t, "Node", 1))
            c.node_events = true;
        else if (abbreviates(t, "Cluster", 1))
            c.cluster_events = true;
        else
            throw ParseError(" Unknown event type: '" + t +
                             "'  Valid events are Cluster and Node.");
    }
}

// A States= entry as Slurm's sacctmgr decodes it: DRAIN and FAIL are flags, the rest base states.
EventConditions::State event_state(const std::string &v) {
    if (abbreviates(v, "DRAIN", 3)) return {DROVER_NODE_FLAG_DRAIN, true, false};
    if (abbreviates(v, "FAIL", 3)) return {0, true, true};
    struct Base {
        const char *name;
        uint32_t state;
        bool never;
    };
    static constexpr Base kBases[] = {
        {"UNKNOWN", DROVER_NODE_UNKNOWN, false},
        {"DOWN", DROVER_NODE_DOWN, false},
        {"IDLE", DROVER_NODE_IDLE, false},
        {"ALLOCATED", DROVER_NODE_ALLOCATED, false},
        {"ERROR", 0, true},
        {"MIXED", DROVER_NODE_MIXED, false},
        {"FUTURE", DROVER_NODE_FUTURE, false},
    };
    for (const auto &b : kBases)
        if (abbreviates(v, b.name, 3)) return {b.state, false, b.never};
    throw ParseError(
        "Invalid state: " + v +
        "\nValid node states are: DRAIN FAIL UNKNOWN DOWN IDLE ALLOCATED ERROR MIXED FUTURE");
}

// 00:00:00 of the day before now, local time: Slurm's default start of the window.
int64_t midnight_yesterday(int64_t now) {
    std::time_t t = now;
    std::tm tm{};
    localtime_r(&t, &tm);
    tm.tm_sec = tm.tm_min = tm.tm_hour = 0;
    tm.tm_mday -= 1;
    tm.tm_isdst = -1;
    return int64_t(std::mktime(&tm));
}

} // namespace

EventConditions parse_event_conditions(const std::vector<std::string> &words, int64_t now) {
    EventConditions c;
    bool all_time = false, start_set = false, types_chosen = false;
    for (const auto &word : words) {
        const auto eq = word.find('=');
        if (eq == std::string::npos) {
            if (abbreviates(word, "all_clusters", 5))
                c.all_clusters = true;
            else if (abbreviates(word, "all_time", 5))
                all_time = true;
            else if (abbreviates(word, "where", 5) || abbreviates(word, "set", 3))
                continue;
            else
                event_types(c, types_chosen, word); // a bare word names event types
            continue;
        }
        const std::string key(trim(std::string_view(word).substr(0, eq)));
        const std::string value(trim(std::string_view(word).substr(eq + 1)));
        auto list = [&] { return split(value, ','); };
        if (abbreviates(key, "Events", 1)) {
            event_types(c, types_chosen, value);
        } else if (abbreviates(key, "Clusters", 1)) {
            for (auto &v : list()) c.clusters.push_back(to_lower(v));
        } else if (abbreviates(key, "CondFlags", 2)) {
            for (const auto &f : list()) {
                if (!abbreviates(f, "Open", 1)) throw ParseError(" Unknown condition flag: " + f);
                c.open_only = true;
            }
        } else if (abbreviates(key, "End", 1)) {
            c.end = parse_sacct_time(value, now);
        } else if (abbreviates(key, "Format", 1)) {
            for (auto &f : list()) c.format.push_back(std::move(f));
        } else if (abbreviates(key, "Nodes", 1)) {
            for (const auto &expr : list())
                for (auto &n : hostlist_expand(expr)) c.nodes.push_back(std::move(n));
        } else if (abbreviates(key, "Reason", 1)) {
            for (auto &r : list()) c.reasons.push_back(to_lower(r));
        } else if (abbreviates(key, "Start", 4)) {
            c.start = parse_sacct_time(value, now);
            start_set = true;
        } else if (abbreviates(key, "States", 4)) {
            for (const auto &s : list()) c.states.push_back(event_state(s));
            c.node_events = true; // states are a node's: Event=Node
            c.cluster_events = false;
        } else if (abbreviates(key, "User", 1)) {
            for (const auto &u : list()) {
                auto uid = lookup_user(u);
                if (!uid) throw ParseError("Invalid user id: " + u);
                c.users.push_back(*uid);
            }
            c.node_events = true; // only SlurmUser makes cluster events
            c.cluster_events = false;
        } else {
            throw ParseError(" Unknown condition: " + word);
        }
    }
    // Slurm's window: from midnight yesterday; with States=, the events going on now.
    if (!all_time && !start_set) c.start = c.states.empty() ? midnight_yesterday(now) : now;
    return c;
}

bool event_matches(const EventConditions &c, const proto::AcctNodeEvent &ev) {
    if (!c.node_events) return false; // Drover records no cluster events
    if (c.open_only && ev.end_time() != 0) return false;
    if (!c.states.empty()) {
        bool any = false;
        for (const auto &s : c.states)
            any =
                any || (!s.never && (s.flag ? (ev.flags() & s.value) != 0 : ev.state() == s.value));
        if (!any) return false;
    }
    if (!c.users.empty()) {
        bool any = false;
        for (uint32_t uid : c.users) any = any || ev.reason_uid() == uid;
        if (!any) return false;
    }
    if (!c.reasons.empty()) {
        const std::string reason = to_lower(sv(ev.reason()));
        bool any = false;
        for (const auto &r : c.reasons) any = any || reason.find(r) != std::string::npos;
        if (!any) return false;
    }
    return true;
}

SacctmgrRow event_row(const proto::AcctNodeEvent &ev, int64_t now) {
    const int64_t until = ev.end_time() ? ev.end_time() : now;
    std::string user;
    if (ev.reason_uid() != kNoVal)
        user = user_name(ev.reason_uid()) + "(" + str_u(ev.reason_uid()) + ")";
    return {
        {"cluster", std::string(sv(ev.cluster()))},
        {"nodename", std::string(sv(ev.node_name()))},
        {"timestart", format_timestamp(ev.start_time())},
        {"timeend", format_timestamp(ev.end_time())},
        {"duration", format_elapsed_hms(until - ev.start_time())},
        {"state", node_state_compact(ev.state(), ev.flags())},
        {"stateraw", str_u(node_state_slurm_raw(ev.state(), ev.flags()))},
        {"reason", std::string(sv(ev.reason()))},
        {"user", user},
        {"event", "Node"},
        {"eventraw", "2"}, // Slurm's SLURMDB_EVENT_NODE
    };
}

std::vector<std::string> event_default_format(const EventConditions &c) {
    if (c.cluster_events && !c.node_events)
        return {"Cluster", "TRES", "Start", "End", "ClusterNodes"};
    return {"Cluster", "NodeName", "Start", "End", "State", "Reason", "User"};
}

} // namespace drover::cli
