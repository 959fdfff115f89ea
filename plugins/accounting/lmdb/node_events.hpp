// node_events.hpp - accounting/lmdb's node events (sacctmgr show event) in their own database,
// inside a transaction the caller holds (lmdb.cpp takes the write lock and commits).
#pragma once

#include <lmdb.h>

#include <drover/accounting.h>

namespace drover::acct_lmdb {

// Stores ev: whole when it lasts (end_time 0) or none is stored under its key, else only its end
// time on the stored one. An LMDB error code or 0.
int put_node_event(MDB_txn *txn, MDB_dbi dbi, const drover_acct_node_event &ev);

// Streams the events that match q to emit, in key order (cluster, start time, node name). An LMDB
// error code, 0, or 1 when emit asked to stop; *bad is set when a stored event is corrupt.
int walk_node_events(MDB_txn *txn, MDB_dbi dbi, const drover_acct_event_query &q,
                     drover_acct_node_event_emit_fn emit, void *arg, bool *bad);

} // namespace drover::acct_lmdb
