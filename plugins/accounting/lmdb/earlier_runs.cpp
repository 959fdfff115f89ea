// earlier_runs.cpp - moves a job's ended run to the earlier_runs database.
#include "earlier_runs.hpp"

#include <memory>
#include <string>
#include <vector>

#include "keys.hpp"
#include "record.hpp"

namespace drover::acct_lmdb {

namespace {

using Cursor = std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)>;

// The next run number of job in runs: one past the last stored.
int next_run(MDB_txn *txn, MDB_dbi runs, uint32_t job, uint32_t *run) {
    MDB_cursor *raw = nullptr;
    if (int rc = mdb_cursor_open(txn, runs, &raw); rc != 0) return rc;
    Cursor cur(raw, mdb_cursor_close);
    *run = 1;
    Key after({job + 1});
    MDB_val k = after.val(), v;
    int rc = mdb_cursor_get(cur.get(), &k, &v, MDB_SET_RANGE);
    rc = rc == 0 ? mdb_cursor_get(cur.get(), &k, &v, MDB_PREV)
                 : mdb_cursor_get(cur.get(), &k, &v, MDB_LAST);
    if (rc == 0 && k.mv_size >= 8 && key_id(k, 0) == job) *run = key_id(k, 4) + 1;
    return rc == MDB_NOTFOUND ? 0 : rc;
}

} // namespace

int archive_ended_run(MDB_txn *txn, MDB_dbi main, MDB_dbi runs, uint32_t job) {
    Key key({job});
    MDB_val k = key.val(), v;
    if (int rc = mdb_get(txn, main, &k, &v); rc != 0) return rc == MDB_NOTFOUND ? 0 : rc;
    auto rec = Record::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
    if (!rec || rec->job.end_time == 0)
        return 0; // still the current run (or unreadable: left for the new record to replace)
    uint32_t run = 0;
    if (int rc = next_run(txn, runs, job, &run); rc != 0) return rc;
    StepKey run_key({job, run});
    MDB_val rk = run_key.val();
    if (int rc = mdb_put(txn, runs, &rk, &v, 0); rc != 0) return rc;
    // Its steps: 8-byte keys that start with the job's id. Copied first, deleted after.
    std::vector<uint32_t> steps;
    {
        MDB_cursor *raw = nullptr;
        if (int rc = mdb_cursor_open(txn, main, &raw); rc != 0) return rc;
        Cursor cur(raw, mdb_cursor_close);
        StepKey first({job, 0});
        MDB_val sk = first.val(), sv;
        for (int rc = mdb_cursor_get(cur.get(), &sk, &sv, MDB_SET_RANGE); rc == 0;
             rc = mdb_cursor_get(cur.get(), &sk, &sv, MDB_NEXT)) {
            if (sk.mv_size != 8 || key_id(sk, 0) != job) break;
            RunStepKey to({job, run, key_id(sk, 4)});
            MDB_val tk = to.val();
            if (int prc = mdb_put(txn, runs, &tk, &sv, 0); prc != 0) return prc;
            steps.push_back(key_id(sk, 4));
        }
    }
    for (uint32_t step : steps) {
        StepKey sk({job, step});
        MDB_val kv = sk.val();
        if (int rc = mdb_del(txn, main, &kv, nullptr); rc != 0) return rc;
    }
    return 0;
}

} // namespace drover::acct_lmdb
