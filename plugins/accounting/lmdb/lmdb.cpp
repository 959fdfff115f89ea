// lmdb.cpp - accounting/lmdb: job and step accounting records in an embedded LMDB store.
//
// One record per job, keyed by the job id in big-endian bytes so that the store's order is job id
// order; one record per step, keyed by the job id and then the step id (8 bytes), so that a job's
// steps follow it in the store. Every event (job submit, start, end; step start, end) replaces the
// whole record with the one the core passes; a submit for a job whose record has ended first moves
// that record and its steps to the "earlier_runs" database (earlier_runs.hpp). sacctmgr's clusters,
// accounts, users and associations are in the "assocs" database (assoc_record.hpp), node events
// (sacctmgr show event) in "node_events" (node_event_record.hpp).
// The store lives in its own LMDB environment in AccountingStorageLoc, or StateSaveLocation/acct
// when that is not set; the directory is created if missing. A record is in the file when its call
// returns; the file is flushed to disk on every record with StateSaveSync=yes, else once a second
// (what a power cut could lose), as the controller's own state store is.
//
// Threads: job_event (and every other write) may be called from one writer thread at a time (the
// controller's accounting worker); queries may run on any thread at the same time, each in its
// own read transaction.
#include <lmdb.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <drover/accounting.h>
#include <drover/plugin.hpp>

#include "assoc_record.hpp"
#include "earlier_runs.hpp"
#include "keys.hpp"
#include "node_events.hpp"
#include "record.hpp"
#include "step_record.hpp"

namespace {

using drover::acct_lmdb::AssocRecord;
using drover::acct_lmdb::Key;
using drover::acct_lmdb::key_id;
using drover::acct_lmdb::Record;
using drover::acct_lmdb::StepKey;
using drover::acct_lmdb::StepRecord;
using drover::sdk::guard;
using drover::sdk::set_errorf;

// Address space reserved for the store; the file only grows as records are written. At a few
// hundred bytes a job this is some ten million jobs.
constexpr size_t kMapSize = size_t{4} << 30;
// StateSaveLocation's default when slurm.conf does not set it (as core/common/config.hpp says).
constexpr const char *kDefaultStateSave = "/var/spool/drover/ctld";

struct State {
    drover::sdk::Host host;
    std::string dir;
    MDB_env *env = nullptr;
    MDB_dbi dbi = 0;     // jobs and their steps
    MDB_dbi runs = 0;    // earlier runs of requeued jobs (earlier_runs.hpp)
    MDB_dbi assocs = 0;  // sacctmgr's clusters, accounts, users, associations (assoc_record.hpp)
    MDB_dbi events = 0;  // node events (node_event_record.hpp)
    std::mutex write_mu; // one write transaction at a time
    // Without StateSaveSync=yes the store is flushed to disk once a second, as the controller's
    // state store is, rather than at every record.
    std::thread flusher;
    std::mutex flush_mu;
    std::condition_variable flush_cv;
    bool stopping = false;
};

// A transaction that aborts unless committed.
class Txn {
  public:
    Txn(MDB_env *env, unsigned flags) { rc_ = mdb_txn_begin(env, nullptr, flags, &txn_); }
    ~Txn() {
        if (txn_) mdb_txn_abort(txn_);
    }
    Txn(const Txn &) = delete;
    Txn &operator=(const Txn &) = delete;
    int rc() const { return rc_; }
    MDB_txn *get() const { return txn_; }
    int commit() {
        int rc = mdb_txn_commit(txn_);
        txn_ = nullptr;
        return rc;
    }

  private:
    MDB_txn *txn_ = nullptr;
    int rc_ = 0;
};

// The query as this plugin knows it: members the caller's struct lacks keep "no filter".
drover_acct_query read_query(const drover_acct_query *in) {
    drover_acct_query q{};
    q.user_id = DROVER_NO_VAL;
    if (in) std::memcpy(&q, in, std::min<size_t>(in->struct_size, sizeof q));
    return q;
}

bool matches(const drover_acct_query &q, const drover_acct_job &j) {
    if (q.user_id != DROVER_NO_VAL && j.user_id != q.user_id) return false;
    if (q.start_after != 0 && j.end_time != 0 && j.end_time < q.start_after) return false;
    if (q.end_before != 0 && j.submit_time > q.end_before) return false;
    return drover_acct_filters_match(&q, &j) != 0; // sacct's filters (ABI 1.5)
}

// Stores one record under key in its own write transaction, after moving job's ended run aside
// when archive_job is set (a job submitted again); an LMDB error code or 0.
int put(State &s, MDB_val k, std::string &value, uint32_t archive_job = 0) {
    MDB_val v{value.size(), value.data()};
    std::lock_guard lock(s.write_mu);
    Txn txn(s.env, 0);
    int rc = txn.rc();
    if (rc == 0 && archive_job)
        rc = drover::acct_lmdb::archive_ended_run(txn.get(), s.dbi, s.runs, archive_job);
    if (rc == 0) rc = mdb_put(txn.get(), s.dbi, &k, &v, 0);
    if (rc == 0) rc = txn.commit();
    return rc;
}

int acct_job_event(void *state, int event, const drover_acct_job *job, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        if (event < DROVER_ACCT_JOB_SUBMIT || event > DROVER_ACCT_JOB_END) {
            set_errorf(err, "job %u: unknown accounting event %d", job->job_id, event);
            return DROVER_EINVAL;
        }
        std::string value = Record::from(*job).pack();
        Key key({job->job_id});
        const bool again = event == DROVER_ACCT_JOB_SUBMIT; // a requeue or a reused id
        if (int rc = put(s, key.val(), value, again ? job->job_id : 0); rc != 0) {
            set_errorf(err, "job %u: writing %s: %s", job->job_id, s.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        return DROVER_OK;
    });
}

int acct_step_event(void *state, int event, const drover_acct_step *step, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        if (event != DROVER_ACCT_STEP_START && event != DROVER_ACCT_STEP_END) {
            set_errorf(err, "step %u.%u: unknown accounting event %d", step->job_id, step->step_id,
                       event);
            return DROVER_EINVAL;
        }
        std::string value = StepRecord::from(*step).pack();
        StepKey key({step->job_id, step->step_id});
        if (int rc = put(s, key.val(), value); rc != 0) {
            set_errorf(err, "step %u.%u: writing %s: %s", step->job_id, step->step_id,
                       s.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        return DROVER_OK;
    });
}

// One query's walk over the store: jobs that match go to emit, each followed by its steps when
// step_emit is set. Its methods return <0 on an error (err set), 1 when a callback asked to stop,
// 0 to go on.
class Walk {
  public:
    Walk(State &s, MDB_txn *txn, const drover_acct_query &q, drover_acct_emit_fn emit,
         drover_acct_step_emit_fn step_emit, void *arg, drover_error *err)
        : s_(s), txn_(txn), q_(q), emit_(emit), step_emit_(step_emit), arg_(arg), err_(err) {}

    // Decodes one stored job and emits it if it matches; *emitted tells whether it did.
    int job(const MDB_val &v, uint32_t id, bool *emitted) {
        *emitted = false;
        auto rec = Record::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
        if (!rec) {
            set_errorf(err_, "record of job %u is corrupt or of an unknown format", id);
            return DROVER_EIO;
        }
        const drover_acct_job job = rec->view();
        if (!matches(q_, job)) return 0;
        *emitted = true;
        return emit_(arg_, &job) != 0 ? 1 : 0;
    }

    // Decodes one stored step and emits it.
    int step(const MDB_val &k, const MDB_val &v) {
        if (!step_emit_) return 0;
        auto rec = StepRecord::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
        if (!rec) {
            set_errorf(err_, "record of step %u.%u is corrupt or of an unknown format",
                       key_id(k, 0), key_id(k, k.mv_size - 4));
            return DROVER_EIO;
        }
        const drover_acct_step step = rec->view();
        return step_emit_(arg_, &step) != 0 ? 1 : 0;
    }

    // A job looked up by id: its earlier runs when asked for, the job, then (if it was emitted)
    // its steps.
    int job_with_steps(uint32_t id, const MDB_val &v) {
        if (int rc = earlier_runs(id); rc != 0) return rc;
        bool emitted = false;
        if (int rc = job(v, id, &emitted); rc != 0 || !emitted || !step_emit_) return rc;
        MDB_cursor *cur = nullptr;
        if (int rc = open_cursor(&cur); rc != 0) return rc;
        std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)> close(cur, mdb_cursor_close);
        StepKey from({id, 0});
        MDB_val k = from.val(), sv;
        for (int rc = mdb_cursor_get(cur, &k, &sv, MDB_SET_RANGE); rc == 0;
             rc = mdb_cursor_get(cur, &k, &sv, MDB_NEXT)) {
            if (k.mv_size != 8 || key_id(k, 0) != id) break;
            if (int src = step(k, sv); src != 0) return src;
        }
        return 0;
    }

    // Every record in key order: a job (4-byte key) is followed by its steps (8-byte keys that
    // start with the job's).
    int all() {
        MDB_cursor *cur = nullptr;
        if (int rc = open_cursor(&cur); rc != 0) return rc;
        std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)> close(cur, mdb_cursor_close);
        MDB_val k, v;
        bool emitted = false;
        uint32_t id = 0;
        for (int op = MDB_FIRST; mdb_cursor_get(cur, &k, &v, static_cast<MDB_cursor_op>(op)) == 0;
             op = MDB_NEXT) {
            int rc = 0;
            if (k.mv_size == 4) {
                id = key_id(k, 0);
                rc = earlier_runs(id);
                if (rc == 0) rc = job(v, id, &emitted);
            } else if (k.mv_size == 8 && emitted && key_id(k, 0) == id) {
                rc = step(k, v);
            }
            if (rc != 0) return rc;
        }
        return 0;
    }

    // With duplicates asked for, job's earlier runs, each followed by its steps.
    int earlier_runs(uint32_t id) {
        if (!q_.duplicates) return 0;
        MDB_cursor *cur = nullptr;
        if (int rc = open_cursor(&cur, s_.runs); rc != 0) return rc;
        std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)> close(cur, mdb_cursor_close);
        Key from({id});
        MDB_val k = from.val(), v;
        bool emitted = false;
        for (int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE); rc == 0;
             rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
            if (k.mv_size < 8 || key_id(k, 0) != id) break;
            int vrc = k.mv_size == 8 ? job(v, id, &emitted) : emitted ? step(k, v) : 0;
            if (vrc != 0) return vrc;
        }
        return 0;
    }

    int open_cursor(MDB_cursor **cur) { return open_cursor(cur, s_.dbi); }
    int open_cursor(MDB_cursor **cur, MDB_dbi dbi) {
        if (int rc = mdb_cursor_open(txn_, dbi, cur); rc != 0) {
            set_errorf(err_, "reading %s: %s", s_.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        return 0;
    }

  private:
    State &s_;
    MDB_txn *txn_;
    const drover_acct_query &q_;
    drover_acct_emit_fn emit_;
    drover_acct_step_emit_fn step_emit_;
    void *arg_;
    drover_error *err_;
};

// A heterogeneous job's leader names its components too, as in Slurm: their ids follow the
// leader's one by one. Those listed themselves are walked in their turn.
int het_components(State &s, MDB_txn *txn, Walk &walk, uint32_t leader,
                   const std::vector<uint32_t> &listed) {
    for (uint32_t id = leader + 1;; ++id) {
        Key key({id});
        MDB_val k = key.val(), v;
        if (mdb_get(txn, s.dbi, &k, &v) != 0) return 0;
        auto rec = Record::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
        if (!rec || rec->job.het_job_id != leader) return 0;
        if (std::binary_search(listed.begin(), listed.end(), id)) continue;
        if (int rc = walk.job_with_steps(id, v); rc != 0) return rc;
    }
}

int query(State &s, const drover_acct_query *query, drover_acct_emit_fn emit,
          drover_acct_step_emit_fn step_emit, void *arg, drover_error *err) {
    const drover_acct_query q = read_query(query);
    Txn txn(s.env, MDB_RDONLY);
    if (txn.rc() != 0) {
        set_errorf(err, "reading %s: %s", s.dir.c_str(), mdb_strerror(txn.rc()));
        return DROVER_EIO;
    }
    Walk walk(s, txn.get(), q, emit, step_emit, arg, err);
    if (q.job_id_count == 0) {
        int rc = walk.all();
        return rc < 0 ? rc : DROVER_OK;
    }
    // Look the listed jobs up, in id order.
    std::vector<uint32_t> ids(q.job_ids, q.job_ids + q.job_id_count);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::vector<uint32_t> arrays; // listed ids that name a job array
    for (uint32_t id : ids) {
        Key key({id});
        MDB_val k = key.val(), v;
        if (mdb_get(txn.get(), s.dbi, &k, &v) != 0) continue;
        auto rec = Record::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
        if (rec && rec->job.array_job_id == id) arrays.push_back(id);
        if (int rc = walk.job_with_steps(id, v); rc != 0) return rc < 0 ? rc : DROVER_OK;
        if (rec && rec->job.het_job_id == id)
            if (int rc = het_components(s, txn.get(), walk, id, ids); rc != 0)
                return rc < 0 ? rc : DROVER_OK;
    }
    if (arrays.empty()) return DROVER_OK;
    // An array's id names all its tasks, as in Slurm. Tasks get their own ids when they start,
    // after the array's, so only later records can be tasks of it.
    MDB_cursor *cur = nullptr;
    if (int rc = walk.open_cursor(&cur); rc != 0) return rc;
    std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)> close(cur, mdb_cursor_close);
    Key from({arrays.front() + 1});
    MDB_val k = from.val(), v;
    for (int rc = mdb_cursor_get(cur, &k, &v, MDB_SET_RANGE); rc == 0;
         rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {
        if (k.mv_size != 4) continue;
        auto rec = Record::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
        if (!rec || rec->job.array_job_id == rec->job.job_id ||
            !std::binary_search(arrays.begin(), arrays.end(), rec->job.array_job_id) ||
            std::binary_search(ids.begin(), ids.end(), rec->job.job_id))
            continue;
        if (int vrc = walk.job_with_steps(rec->job.job_id, v); vrc != 0)
            return vrc < 0 ? vrc : DROVER_OK;
    }
    return DROVER_OK;
}

int acct_job_query(void *state, const drover_acct_query *q, drover_acct_emit_fn emit, void *arg,
                   drover_error *err) {
    return guard(err,
                 [&] { return query(*static_cast<State *>(state), q, emit, nullptr, arg, err); });
}

int acct_job_step_query(void *state, const drover_acct_query *q, drover_acct_emit_fn emit,
                        drover_acct_step_emit_fn step_emit, void *arg, drover_error *err) {
    return guard(err,
                 [&] { return query(*static_cast<State *>(state), q, emit, step_emit, arg, err); });
}

int acct_assoc_update(void *state, const drover_acct_assoc *const *puts, uint32_t put_count,
                      const drover_acct_assoc *const *removes, uint32_t remove_count,
                      drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        std::lock_guard lock(s.write_mu);
        Txn txn(s.env, 0);
        int rc = txn.rc();
        for (uint32_t i = 0; rc == 0 && i < remove_count; ++i) {
            std::string key = AssocRecord::from(*removes[i]).key();
            MDB_val k{key.size(), key.data()};
            rc = mdb_del(txn.get(), s.assocs, &k, nullptr);
            if (rc == MDB_NOTFOUND) rc = 0;
        }
        for (uint32_t i = 0; rc == 0 && i < put_count; ++i) {
            AssocRecord rec = AssocRecord::from(*puts[i]);
            std::string key = rec.key(), value = rec.pack();
            MDB_val k{key.size(), key.data()}, v{value.size(), value.data()};
            rc = mdb_put(txn.get(), s.assocs, &k, &v, 0);
        }
        if (rc == 0) rc = txn.commit();
        if (rc != 0) {
            set_errorf(err, "writing associations in %s: %s", s.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        return DROVER_OK;
    });
}

int acct_assoc_list(void *state, drover_acct_assoc_emit_fn emit, void *arg, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        Txn txn(s.env, MDB_RDONLY);
        MDB_cursor *cur = nullptr;
        int rc = txn.rc();
        if (rc == 0) rc = mdb_cursor_open(txn.get(), s.assocs, &cur);
        if (rc != 0) {
            set_errorf(err, "reading associations in %s: %s", s.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        std::unique_ptr<MDB_cursor, void (*)(MDB_cursor *)> close(cur, mdb_cursor_close);
        MDB_val k, v;
        for (int op = MDB_FIRST; mdb_cursor_get(cur, &k, &v, static_cast<MDB_cursor_op>(op)) == 0;
             op = MDB_NEXT) {
            auto rec = AssocRecord::unpack({static_cast<const char *>(v.mv_data), v.mv_size});
            if (!rec) {
                set_errorf(err, "an association record in %s is corrupt", s.dir.c_str());
                return DROVER_EIO;
            }
            const drover_acct_assoc a = rec->view();
            if (emit(arg, &a) != 0) break;
        }
        return DROVER_OK;
    });
}

int acct_node_event(void *state, const drover_acct_node_event *ev, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        std::lock_guard lock(s.write_mu);
        Txn txn(s.env, 0);
        int rc = txn.rc();
        if (rc == 0) rc = drover::acct_lmdb::put_node_event(txn.get(), s.events, *ev);
        if (rc == 0) rc = txn.commit();
        if (rc != 0) {
            set_errorf(err, "writing a node event in %s: %s", s.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        return DROVER_OK;
    });
}

int acct_node_event_query(void *state, const drover_acct_event_query *in,
                          drover_acct_node_event_emit_fn emit, void *arg, drover_error *err) {
    return guard(err, [&] {
        auto &s = *static_cast<State *>(state);
        drover_acct_event_query q{}; // members the caller's struct lacks do not filter
        std::memcpy(&q, in, std::min<size_t>(in->struct_size, sizeof q));
        Txn txn(s.env, MDB_RDONLY);
        bool bad = false;
        int rc = txn.rc();
        if (rc == 0)
            rc = drover::acct_lmdb::walk_node_events(txn.get(), s.events, q, emit, arg, &bad);
        if (bad) {
            set_errorf(err, "a node event in %s is corrupt", s.dir.c_str());
            return DROVER_EIO;
        }
        if (rc != 0 && rc != 1) {
            set_errorf(err, "reading node events in %s: %s", s.dir.c_str(), mdb_strerror(rc));
            return DROVER_EIO;
        }
        return DROVER_OK;
    });
}

// Where the store lives, from AccountingStorageLoc or StateSaveLocation.
std::string store_dir(const drover::sdk::Host &host) {
    if (auto loc = host.conf("AccountingStorageLoc"); loc && !loc->empty())
        return std::string(*loc);
    auto save = host.conf("StateSaveLocation");
    return std::string(save && !save->empty() ? *save : kDefaultStateSave) + "/acct";
}

// Opens (creating if needed) the environment and its one database.
int open_store(State &s, drover_error *err) {
    std::error_code ec;
    std::filesystem::create_directories(s.dir, ec);
    if (ec) {
        set_errorf(err, "cannot create %s: %s", s.dir.c_str(), ec.message().c_str());
        return DROVER_EIO;
    }
    int rc = mdb_env_create(&s.env);
    if (rc == 0) rc = mdb_env_set_mapsize(s.env, kMapSize);
    if (rc == 0) rc = mdb_env_set_maxdbs(s.env, 4);
    auto sync = s.host.conf("StateSaveSync");
    const bool sync_each = sync && (*sync == "yes" || *sync == "1");
    if (rc == 0)
        rc = mdb_env_open(s.env, s.dir.c_str(), MDB_NOTLS | (sync_each ? 0 : MDB_NOSYNC), 0600);
    if (rc == 0 && !sync_each)
        s.flusher = std::thread([&s] {
            std::unique_lock lk(s.flush_mu);
            while (!s.flush_cv.wait_for(lk, std::chrono::seconds(1), [&s] { return s.stopping; }))
                mdb_env_sync(s.env, 1);
        });
    if (rc == 0) {
        Txn txn(s.env, 0);
        rc = txn.rc();
        if (rc == 0) rc = mdb_dbi_open(txn.get(), nullptr, 0, &s.dbi);
        if (rc == 0) rc = mdb_dbi_open(txn.get(), "earlier_runs", MDB_CREATE, &s.runs);
        if (rc == 0) rc = mdb_dbi_open(txn.get(), "assocs", MDB_CREATE, &s.assocs);
        if (rc == 0) rc = mdb_dbi_open(txn.get(), "node_events", MDB_CREATE, &s.events);
        if (rc == 0) rc = txn.commit();
    }
    if (rc != 0) {
        set_errorf(err, "cannot open the accounting store in %s: %s", s.dir.c_str(),
                   mdb_strerror(rc));
        return DROVER_EIO;
    }
    return DROVER_OK;
}

void acct_fini(void *state) {
    auto *s = static_cast<State *>(state);
    if (s->flusher.joinable()) {
        {
            std::lock_guard lk(s->flush_mu);
            s->stopping = true;
        }
        s->flush_cv.notify_all();
        s->flusher.join();
    }
    if (s->env) {
        mdb_env_sync(s->env, 1);
        mdb_env_close(s->env);
    }
    delete s;
}

int acct_init(drover_ctx *ctx, const drover_host_api *host, void **state_out, drover_error *err) {
    return guard(err, [&] {
        std::unique_ptr<State, void (*)(void *)> s(new State, acct_fini);
        s->host = drover::sdk::Host(ctx, host);
        s->dir = store_dir(s->host);
        if (int rc = open_store(*s, err); rc != DROVER_OK) return rc;
        s->host.info("job records in " + s->dir);
        *state_out = s.release();
        return DROVER_OK;
    });
}

const drover_acct_ops acct_ops = {
    .struct_size = sizeof(drover_acct_ops),
    .job_event = acct_job_event,
    .job_query = acct_job_query,
    .step_event = acct_step_event,
    .job_step_query = acct_job_step_query,
    .assoc_update = acct_assoc_update,
    .assoc_list = acct_assoc_list,
    .node_event = acct_node_event,
    .node_event_query = acct_node_event_query,
};

} // namespace

DROVER_PLUGIN("accounting", "lmdb", "0.1.0", acct_init, acct_fini, &acct_ops)
