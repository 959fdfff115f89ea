// node_events.hpp - when a node's state makes a node event for the accounting store (sacctmgr
// show event). As in Slurm, an event lasts while the node is DOWN or drained; it ends when the
// node returns to service, and a new one begins when it goes from drained to down (or back) or is
// given another reason. A node's state is recorded as it was when its event began.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/shared_value.hpp"
#include "ctld/acct/acct_records.hpp"

namespace drover::ctld {

// The event a node has open in the store, and what it began as.
struct OpenNodeEvent {
    int64_t start = 0;          // 0: none open
    Shared<std::string> reason; // the node's own reason block (one per node would add up)
    bool down = false, drain = false;
};

// The node as it is now.
struct NodeEventInput {
    const std::string &name;
    uint32_t state, flags;
    const Shared<std::string> &reason;
    uint32_t reason_uid;
};

// The records that bring the store up to date with the node at now: the end of the open event,
// the beginning of a new one, both or none; open is updated. When the new event would begin in
// the same second as the one it ends, the store keeps only the new one (the same key), so no end
// is recorded for the old.
std::vector<AcctNodeEvent> node_event_changes(OpenNodeEvent &open, const NodeEventInput &node,
                                              int64_t now);

} // namespace drover::ctld
