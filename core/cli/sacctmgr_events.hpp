// sacctmgr_events.hpp - sacctmgr show event: the conditions Slurm's sacctmgr takes for events
// (bare "node"/"cluster", All_Clusters, All_Time, Clusters=, CondFlags=Open, End=, Event=,
// Format=, Nodes=, Reason=, Start=, States=, User=), Slurm's default window (from midnight
// yesterday; with States=, the events going on now), and one table row per event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/sacctmgr_fields.hpp"
#include "proto/message_generated.h"

namespace drover::cli {

struct EventConditions {
    std::vector<std::string> clusters; // empty: the controller's own, unless all_clusters
    bool all_clusters = false;
    std::vector<std::string> nodes;                 // hostlists expanded
    int64_t start = 0, end = 0;                     // the period the events overlap; 0: open-ended
    bool node_events = true, cluster_events = true; // Event=; Drover records node events only
    bool open_only = false;                         // CondFlags=Open
    // States=: each a base state (enum drover_node_state) or, with flag set, a flag to have.
    struct State {
        uint32_t value = 0;
        bool flag = false;
        bool never = false; // FAIL and ERROR, which Drover's nodes never are
    };
    std::vector<State> states;
    std::vector<uint32_t> users;      // User=, as uids
    std::vector<std::string> reasons; // Reason=: any of them within the reason, in any case
    std::vector<std::string> format;
};

// Reads the words after "show event", as Slurm's sacctmgr does ("where" is skipped). Throws
// drover::ParseError with sacctmgr's line for an unknown condition, event type, state, user or
// time.
EventConditions parse_event_conditions(const std::vector<std::string> &words, int64_t now);

// Does the event pass the conditions the controller does not apply (states, users, reasons,
// event type, open only)?
bool event_matches(const EventConditions &c, const proto::AcctNodeEvent &ev);

// The event's fields by the keys of sacctmgr_fields (cluster, nodename, timestart, timeend,
// duration, state, stateraw, reason, user, event, eventraw).
SacctmgrRow event_row(const proto::AcctNodeEvent &ev, int64_t now);

// The default format: Slurm's for node events, or for cluster events with Event=Cluster alone.
std::vector<std::string> event_default_format(const EventConditions &c);

} // namespace drover::cli
