// earlier_runs.hpp - a requeued job's earlier runs (sacct -D): when a job is submitted again while
// the store holds an ended record of it (a requeue, or a job id used again), that record and its
// steps move to the "earlier_runs" database as run 1, 2, ... before the new record is written.
#pragma once

#include <lmdb.h>

#include <cstdint>

namespace drover::acct_lmdb {

// Moves job's ended record and its steps from main to runs, inside txn. An LMDB error code, or 0
// (also when there is nothing to move).
int archive_ended_run(MDB_txn *txn, MDB_dbi main, MDB_dbi runs, uint32_t job);

} // namespace drover::acct_lmdb
