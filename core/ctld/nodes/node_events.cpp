// node_events.cpp - node events from node state changes.
#include "ctld/nodes/node_events.hpp"

#include <drover/views.h>

namespace drover::ctld {

std::vector<AcctNodeEvent> node_event_changes(OpenNodeEvent &open, const NodeEventInput &node,
                                              int64_t now) {
    const bool down = node.state == DROVER_NODE_DOWN;
    const bool drain = (node.flags & DROVER_NODE_FLAG_DRAIN) != 0;
    const bool wanted = down || drain;
    if (open.start && wanted && open.down == down && open.drain == drain &&
        open.reason == node.reason)
        return {}; // still the same event (a draining node that drained, one that stopped
                   // answering)
    std::vector<AcctNodeEvent> out;
    if (open.start && !(wanted && open.start == now)) {
        AcctNodeEvent end;
        end.node_name = node.name;
        end.start_time = open.start;
        end.end_time = now;
        // The store keeps what the event began as; these only fill a record it lost.
        end.state = node.state;
        end.flags = node.flags;
        end.reason = open.reason;
        end.reason_uid = node.reason_uid;
        out.push_back(std::move(end));
    }
    open = OpenNodeEvent{};
    if (!wanted) return out;
    open = OpenNodeEvent{now, node.reason, down, drain};
    AcctNodeEvent begin;
    begin.node_name = node.name;
    begin.state = node.state;
    begin.flags = node.flags;
    begin.reason = node.reason;
    begin.reason_uid = node.reason_uid;
    begin.start_time = now;
    out.push_back(std::move(begin));
    return out;
}

} // namespace drover::ctld
