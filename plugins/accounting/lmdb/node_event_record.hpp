// node_event_record.hpp - a node event (sacctmgr show event) as stored in the "node_events"
// database: an owning copy, its key and its packed bytes.
//
// Key: the cluster, a NUL byte, the start time as 8 big-endian bytes, then the node name, so
// that the store's order is cluster, start time, node name (the order queries answer in) and a
// cluster's events lie together.
// Packed format, version 1 (integers little-endian): u8 version = 1; u32 state, flags,
// reason_uid; i64 start_time, end_time; 3 strings, each u32 length + bytes: cluster, node_name,
// reason. A later version may only append; a reader refuses versions it does not know.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <drover/accounting.h>

namespace drover::acct_lmdb {

struct NodeEventRecord {
    uint32_t state = 0, flags = 0, reason_uid = 0;
    int64_t start_time = 0, end_time = 0;
    std::string cluster, node_name, reason;

    // A copy of a borrowed event (reads only the members ev.struct_size covers).
    static NodeEventRecord from(const drover_acct_node_event &ev);
    // OWNERSHIP: the strings point into *this.
    drover_acct_node_event view() const;
    std::string key() const;
    std::string pack() const;
    static std::optional<NodeEventRecord> unpack(std::string_view bytes);
};

// The first key of a cluster's events (every key of the cluster starts with it).
std::string node_event_cluster_prefix(std::string_view cluster);

} // namespace drover::acct_lmdb
