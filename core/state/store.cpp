// store.cpp - LMDB environment, transactions and table scans.
#include "state/store.hpp"
#include "state/store_memory.hpp"

#include <cstring>
#include <iterator>
#include <lmdb.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace drover::state {

namespace {

void check(int rc, const char *what) {
    if (rc != MDB_SUCCESS) throw StateError(std::string(what) + ": " + mdb_strerror(rc));
}

MDB_val val(Bytes b) {
    return MDB_val{b.size(), const_cast<uint8_t *>(b.data())};
}
Bytes bytes(const MDB_val &v) {
    return {static_cast<const uint8_t *>(v.mv_data), v.mv_size};
}

// A value as the records in it are read in place: LMDB keeps values only 2-byte aligned, and
// reading a FlatBuffers field from a misaligned buffer is undefined behaviour, so a value that
// is not 8-byte aligned is given from an aligned copy in buf (valid until the next call).
Bytes aligned(const MDB_val &v, std::vector<uint64_t> &buf) {
    if (reinterpret_cast<std::uintptr_t>(v.mv_data) % alignof(uint64_t) == 0) return bytes(v);
    buf.resize((v.mv_size + sizeof(uint64_t) - 1) / sizeof(uint64_t));
    if (v.mv_size) std::memcpy(buf.data(), v.mv_data, v.mv_size);
    return {reinterpret_cast<const uint8_t *>(buf.data()), v.mv_size};
}

constexpr const char *kTableNames[] = {"jobs", "scripts", "nodes", "meta", "acct_spool", "steps"};
constexpr int kTables = kTableCount;
static_assert(std::size(kTableNames) == kTables);

} // namespace

struct Store::Env {
    MDB_env *env = nullptr;
    MDB_dbi dbi[kTables]{};
    int lock_fd = -1;
    ~Env() {
        if (env) mdb_env_close(env);
        if (lock_fd >= 0) ::close(lock_fd);
    }
};

Store::Store(const std::string &dir, bool sync_each_commit, uint64_t map_bytes)
    : dir_(dir), env_(new Env) {
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
        throw StateError("cannot create " + dir + ": " + std::strerror(errno));
    // One process owns a state directory: a backup controller replicates into its own (a
    // subdirectory when StateSaveLocation is shared), and two writing one set of files would undo
    // each other.
    std::string lock = dir + "/owner.lock";
    env_->lock_fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (env_->lock_fd < 0) throw StateError("cannot open " + lock + ": " + std::strerror(errno));
    if (::flock(env_->lock_fd, LOCK_EX | LOCK_NB) != 0)
        throw StateError("state directory " + dir + " is in use by another process (" + lock +
                         " is locked): is another droverctld running for this controller?");
    check(mdb_env_create(&env_->env), "mdb_env_create");
    check(mdb_env_set_maxdbs(env_->env, kTables), "mdb_env_set_maxdbs");
    // Address space only: the file grows as it fills, up to this size (puts beyond it fail with
    // MDB_MAP_FULL, which the controller avoids by refusing submissions first:
    // Committer::room_for).
    check(mdb_env_set_mapsize(env_->env, std::size_t(map_bytes)), "mdb_env_set_mapsize");
    unsigned flags = MDB_NOTLS | (sync_each_commit ? 0 : MDB_NOSYNC);
    int rc = mdb_env_open(env_->env, dir.c_str(), flags, 0600);
    if (rc != MDB_SUCCESS)
        throw StateError("cannot open state in " + dir + ": " + mdb_strerror(rc));
    MDB_txn *txn = nullptr;
    check(mdb_txn_begin(env_->env, nullptr, 0, &txn), "mdb_txn_begin");
    for (int i = 0; i < kTables; ++i) {
        rc = mdb_dbi_open(txn, kTableNames[i], MDB_CREATE, &env_->dbi[i]);
        if (rc != MDB_SUCCESS) {
            mdb_txn_abort(txn);
            check(rc, "mdb_dbi_open");
        }
    }
    check(mdb_txn_commit(txn), "mdb_txn_commit");
}

Store::Store(InMemory) : dir_("(in memory)"), mem_(std::make_unique<Memory>()) {}

Store::~Store() = default;

Store::Txn Store::begin() {
    if (mem_) return Txn(*this, new std::vector<Change>); // the changes, applied at commit
    MDB_txn *txn = nullptr;
    check(mdb_txn_begin(env_->env, nullptr, 0, &txn), "begin write transaction");
    return Txn(*this, txn);
}

Store::Txn::Txn(Txn &&o) noexcept
    : store_(o.store_), txn_(o.txn_), log_(o.log_), bytes_put_(o.bytes_put_) {
    o.txn_ = nullptr;
}

Store::Txn::~Txn() {
    if (txn_) abort();
}

void Store::Txn::abort() {
    if (store_->mem_)
        delete static_cast<std::vector<Change> *>(txn_);
    else
        mdb_txn_abort(static_cast<MDB_txn *>(txn_));
    txn_ = nullptr;
}

void Store::Txn::put(Table t, Bytes key, Bytes value) {
    MDB_val k = val(key), v = val(value);
    if (store_->mem_)
        static_cast<std::vector<Change> *>(txn_)->push_back(
            {t, Change::Put, {key.begin(), key.end()}, {value.begin(), value.end()}});
    else
        check(mdb_put(static_cast<MDB_txn *>(txn_), store_->env_->dbi[int(t)], &k, &v, 0),
              "mdb_put");
    bytes_put_ += key.size() + value.size();
    if (log_)
        log_->push_back({t, Change::Put, {key.begin(), key.end()}, {value.begin(), value.end()}});
}

void Store::Txn::del(Table t, Bytes key) {
    MDB_val k = val(key);
    if (store_->mem_) {
        static_cast<std::vector<Change> *>(txn_)->push_back(
            {t, Change::Del, {key.begin(), key.end()}, {}});
    } else {
        int rc = mdb_del(static_cast<MDB_txn *>(txn_), store_->env_->dbi[int(t)], &k, nullptr);
        if (rc != MDB_NOTFOUND) check(rc, "mdb_del");
    }
    if (log_) log_->push_back({t, Change::Del, {key.begin(), key.end()}, {}});
}

void Store::Txn::clear(Table t) {
    if (store_->mem_)
        static_cast<std::vector<Change> *>(txn_)->push_back({t, Change::Clear, {}, {}});
    else
        check(mdb_drop(static_cast<MDB_txn *>(txn_), store_->env_->dbi[int(t)], 0), "mdb_drop");
    if (log_) log_->push_back({t, Change::Clear, {}, {}});
}

void Store::Txn::apply(const Change &c) {
    switch (c.kind) {
    case Change::Put:
        return put(c.table, c.key, c.value);
    case Change::Del:
        return del(c.table, c.key);
    case Change::Clear:
        return clear(c.table);
    }
    throw StateError("unknown change kind " + std::to_string(int(c.kind)));
}

void Store::Txn::commit() {
    log_ = nullptr;
    if (store_->mem_) {
        for (const Change &c : *static_cast<std::vector<Change> *>(txn_)) store_->mem_->apply(c);
        return abort(); // the list of changes is spent
    }
    auto *txn = static_cast<MDB_txn *>(txn_);
    txn_ = nullptr;
    check(mdb_txn_commit(txn), "commit");
}

void Store::scan(Table t, const std::function<void(Bytes, Bytes)> &fn) const {
    scan_from(t, {}, [&fn](Bytes k, Bytes v) {
        fn(k, v);
        return true;
    });
}

void Store::scan_from(Table t, Bytes from, const std::function<bool(Bytes, Bytes)> &fn) const {
    if (mem_) {
        const Memory::Rows &rows = mem_->tables[std::size_t(t)];
        for (auto it = rows.lower_bound({from.begin(), from.end()});
             it != rows.end() && fn(it->first, it->second); ++it) {}
        return;
    }
    MDB_txn *txn = nullptr;
    check(mdb_txn_begin(env_->env, nullptr, MDB_RDONLY, &txn), "begin read transaction");
    MDB_cursor *cur = nullptr;
    int rc = mdb_cursor_open(txn, env_->dbi[int(t)], &cur);
    if (rc != MDB_SUCCESS) {
        mdb_txn_abort(txn);
        check(rc, "mdb_cursor_open");
    }
    MDB_val k = val(from), v;
    std::vector<uint64_t> buf;
    try {
        for (rc = mdb_cursor_get(cur, &k, &v, from.empty() ? MDB_FIRST : MDB_SET_RANGE);
             rc == MDB_SUCCESS && fn(bytes(k), aligned(v, buf));
             rc = mdb_cursor_get(cur, &k, &v, MDB_NEXT)) {}
    } catch (...) {
        mdb_cursor_close(cur);
        mdb_txn_abort(txn);
        throw;
    }
    mdb_cursor_close(cur);
    mdb_txn_abort(txn);
}

std::optional<std::vector<uint8_t>> Store::get(Table t, Bytes key) const {
    if (mem_) {
        const Memory::Rows &rows = mem_->tables[std::size_t(t)];
        auto it = rows.find({key.begin(), key.end()});
        if (it == rows.end()) return std::nullopt;
        return it->second;
    }
    MDB_txn *txn = nullptr;
    check(mdb_txn_begin(env_->env, nullptr, MDB_RDONLY, &txn), "begin read transaction");
    MDB_val k = val(key), v;
    int rc = mdb_get(txn, env_->dbi[int(t)], &k, &v);
    std::optional<std::vector<uint8_t>> out;
    if (rc == MDB_SUCCESS) out.emplace(bytes(v).begin(), bytes(v).end());
    mdb_txn_abort(txn);
    if (rc != MDB_SUCCESS && rc != MDB_NOTFOUND) check(rc, "mdb_get");
    return out;
}

void Store::sync() {
    if (mem_) return;
    check(mdb_env_sync(env_->env, 1), "mdb_env_sync");
}

Store::Space Store::space(bool free_list) const {
    if (mem_) return {kDefaultMapBytes, kDefaultMapBytes, 4096}; // never short of room
    MDB_envinfo info;
    MDB_stat st;
    check(mdb_env_info(env_->env, &info), "mdb_env_info");
    check(mdb_env_stat(env_->env, &st), "mdb_env_stat");
    Space s;
    s.page_bytes = st.ms_psize;
    s.map_bytes = info.me_mapsize;
    uint64_t pages = info.me_mapsize / st.ms_psize, used = uint64_t(info.me_last_pgno) + 1;
    uint64_t free_pages = pages > used ? pages - used : 0;
    if (free_list) {
        // LMDB's free list is its database 0: each record a transaction id -> the pages it freed,
        // an array of page numbers whose first element is their count (as mdb_stat -f reads it).
        MDB_txn *txn = nullptr;
        check(mdb_txn_begin(env_->env, nullptr, MDB_RDONLY, &txn), "begin read transaction");
        MDB_cursor *cur = nullptr;
        int rc = mdb_cursor_open(txn, 0, &cur);
        if (rc == MDB_SUCCESS) {
            MDB_val k, v;
            while (mdb_cursor_get(cur, &k, &v, MDB_NEXT) == MDB_SUCCESS)
                if (v.mv_size >= sizeof(std::size_t)) {
                    std::size_t n;
                    std::memcpy(&n, v.mv_data, sizeof n);
                    free_pages += n;
                }
            mdb_cursor_close(cur);
        }
        mdb_txn_abort(txn);
        check(rc, "mdb_cursor_open(free list)");
    }
    s.free_bytes = free_pages * st.ms_psize;
    return s;
}

std::array<uint8_t, 4> job_key(uint32_t id) {
    return {uint8_t(id >> 24), uint8_t(id >> 16), uint8_t(id >> 8), uint8_t(id)};
}

uint32_t job_from_key(Bytes key) {
    if (key.size() != 4) return 0;
    return (uint32_t(key[0]) << 24) | (uint32_t(key[1]) << 16) | (uint32_t(key[2]) << 8) | key[3];
}

std::array<uint8_t, 8> seq_key(uint64_t seq) {
    std::array<uint8_t, 8> k;
    for (int i = 7; i >= 0; --i, seq >>= 8) k[std::size_t(i)] = uint8_t(seq);
    return k;
}

std::array<uint8_t, 8> step_key(uint32_t job, uint32_t step) {
    return seq_key((uint64_t(job) << 32) | step);
}

uint64_t seq_from_key(Bytes key) {
    uint64_t v = 0;
    for (uint8_t b : key) v = (v << 8) | b;
    return key.size() == 8 ? v : 0;
}

uint64_t get_meta_u64(const Store &s, std::string_view name, uint64_t dflt) {
    auto v = s.get(Table::Meta, as_bytes(name));
    if (!v || v->size() != 8) return dflt;
    uint64_t x;
    std::memcpy(&x, v->data(), 8);
    return x;
}

void put_meta_u64(Store::Txn &t, std::string_view name, uint64_t v) {
    uint8_t b[8];
    std::memcpy(b, &v, 8);
    t.put(Table::Meta, as_bytes(name), {b, 8});
}

} // namespace drover::state
