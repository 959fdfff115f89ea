// node_events.cpp - node events in LMDB: put with an end that never erases what began the event,
// and the query's walk over a cluster's range (or the whole database).
#include "node_events.hpp"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec.hpp"
#include "node_event_record.hpp"

namespace drover::acct_lmdb {

namespace {

std::string_view view(const MDB_val &v) {
    return {static_cast<const char *>(v.mv_data), v.mv_size};
}

bool listed(const drover_str *list, uint32_t count, std::string_view name) {
    if (count == 0) return true;
    for (uint32_t i = 0; i < count; ++i)
        if (copy(list[i]) == name) return true;
    return false;
}

// It overlaps [period_start, period_end] (zero bounds are open).
bool in_period(const drover_acct_event_query &q, const NodeEventRecord &r) {
    if (q.period_end != 0 && r.start_time > q.period_end) return false;
    if (q.period_start != 0 && r.end_time != 0 && r.end_time < q.period_start) return false;
    return true;
}

} // namespace

int put_node_event(MDB_txn *txn, MDB_dbi dbi, const drover_acct_node_event &ev) {
    NodeEventRecord rec = NodeEventRecord::from(ev);
    std::string key = rec.key();
    MDB_val k{key.size(), key.data()}, stored;
    if (rec.end_time != 0) {
        int rc = mdb_get(txn, dbi, &k, &stored);
        if (rc == 0) {
            // The event as it began stays; only its end is new.
            if (auto old = NodeEventRecord::unpack(view(stored))) {
                const int64_t end = rec.end_time;
                rec = std::move(*old);
                rec.end_time = end;
            }
        } else if (rc != MDB_NOTFOUND) {
            return rc;
        }
    }
    std::string value = rec.pack();
    MDB_val v{value.size(), value.data()};
    return mdb_put(txn, dbi, &k, &v, 0);
}

int walk_node_events(MDB_txn *txn, MDB_dbi dbi, const drover_acct_event_query &q,
                     drover_acct_node_event_emit_fn emit, void *arg, bool *bad) {
    MDB_cursor *cur = nullptr;
    if (int rc = mdb_cursor_open(txn, dbi, &cur); rc != 0) return rc;
    std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)> close(cur, mdb_cursor_close);
    // One range per cluster asked for, or the whole database (an empty prefix).
    std::vector<std::string> prefixes;
    for (uint32_t i = 0; i < q.cluster_count; ++i)
        prefixes.push_back(node_event_cluster_prefix(copy(q.clusters[i])));
    if (prefixes.empty()) prefixes.emplace_back();
    std::sort(prefixes.begin(), prefixes.end()); // key order: the NUL ends each cluster's name
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end()), prefixes.end());
    for (const std::string &prefix : prefixes) {
        MDB_val k{prefix.size(), const_cast<char *>(prefix.data())}, v;
        int rc = prefix.empty() ? mdb_cursor_get(cur, &k, &v, MDB_FIRST)
                                : mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE);
        for (; rc == 0; rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
            if (!view(k).starts_with(prefix)) break;
            std::optional<NodeEventRecord> rec = NodeEventRecord::unpack(view(v));
            if (!rec) {
                *bad = true;
                return 0;
            }
            if (!listed(q.node_names, q.node_count, rec->node_name) || !in_period(q, *rec))
                continue;
            const drover_acct_node_event ev = rec->view();
            if (emit(arg, &ev) != 0) return 1;
        }
        if (rc != 0 && rc != MDB_NOTFOUND) return rc;
    }
    return 0;
}

} // namespace drover::acct_lmdb
