// store.hpp - the controller's durable state in LMDB under StateSaveLocation.
//
// Tables: jobs (job id -> JobInfo record), scripts (job id -> the submit request as received),
// nodes (name -> NodeInfo record: admin state and reasons), meta (small named counters such as
// the next job id), steps (job id + step id -> StepRecord of a running step). Writes happen in one
// transaction per batch of changes on the controller's event loop; the loop answers clients only
// after that batch has committed.
//
// Durability: commits are written to the file before a client is answered, so killing the
// process at any moment loses nothing acknowledged. The file is fsynced on every commit when
// sync_each_commit is set, else at most a second later (what a power cut could lose).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"

namespace drover::state {

// The state store cannot be opened, read or written (an LMDB error, a record that does not
// decode).
class StateError : public Error {
  public:
    explicit StateError(const std::string &what) : Error(DROVER_EIO, what) {}
};

// AcctSpool: accounting records not yet delivered to the accounting store, by sequence number.
// Steps: running steps by step_key; under step id kNextStepKey, the job's next step id (4 bytes
// big-endian), so that ids are not handed out again after a restart.
enum class Table { Jobs = 0, Scripts = 1, Nodes = 2, Meta = 3, AcctSpool = 4, Steps = 5 };
inline constexpr int kTableCount = 6;

using Bytes = std::span<const uint8_t>;

// One change inside a transaction, as recorded for replication to a backup controller. Replaying
// a transaction's changes in order on another store gives the same tables; each is idempotent.
struct Change {
    enum Kind : uint8_t { Put = 0, Del = 1, Clear = 2 };
    Table table;
    Kind kind;
    std::vector<uint8_t> key, value;
};

class Store {
  public:
    // The default map size: address space only, the file grows as it fills.
    static constexpr uint64_t kDefaultMapBytes = uint64_t{32} << 30;

    // Opens or creates the environment in dir (created 0700), whose file may grow to map_bytes
    // (StateSaveMaxSize; LMDB raises it to the file's size when the file is already larger).
    // Throws StateError.
    Store(const std::string &dir, bool sync_each_commit, uint64_t map_bytes = kDefaultMapBytes);
    // A store held in memory only, with the same tables and transactions (unit tests of the
    // controller's parts: no file, nothing durable).
    struct InMemory {};
    explicit Store(InMemory);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // A write transaction; aborted unless committed.
    class Txn {
      public:
        ~Txn();
        Txn(Txn &&) noexcept;
        void put(Table t, Bytes key, Bytes value);
        void del(Table t, Bytes key);
        void clear(Table t);
        // Applies a recorded change (a replica replaying its primary's transactions).
        void apply(const Change &c);
        void commit();
        // From now on every put, del and clear is also appended to log (until commit or abort).
        void record_into(std::vector<Change> *log) { log_ = log; }
        // Bytes of keys and values put so far in this transaction (what it may add to the file).
        uint64_t bytes_put() const { return bytes_put_; }

      private:
        friend class Store;
        Txn(Store &s, void *txn) : store_(&s), txn_(txn) {}
        void abort();
        Store *store_;
        void *txn_;
        std::vector<Change> *log_ = nullptr;
        uint64_t bytes_put_ = 0;
    };

    Txn begin();
    // Calls fn for every record of t in key order (read transaction).
    void scan(Table t, const std::function<void(Bytes key, Bytes value)> &fn) const;
    // Calls fn for the records of t from the first key >= from, until fn returns false.
    void scan_from(Table t, Bytes from,
                   const std::function<bool(Bytes key, Bytes value)> &fn) const;
    std::optional<std::vector<uint8_t>> get(Table t, Bytes key) const;
    // Flushes committed data to disk now.
    void sync();

    // How much room the map has left, as of the last commit: the pages past the last one used,
    // and, with free_list, also the pages LMDB's free list holds for reuse (records deleted;
    // counting them reads the whole free list, so ask for them only when the first figure is
    // short).
    struct Space {
        uint64_t map_bytes = 0;
        uint64_t free_bytes = 0;
        uint64_t page_bytes = 0;
    };
    Space space(bool free_list) const;

    const std::string &dir() const { return dir_; }

  private:
    std::string dir_;
    struct Env;
    std::unique_ptr<Env> env_;
    struct Memory; // the tables of an in-memory store (store_memory.cpp)
    std::unique_ptr<Memory> mem_;
};

// Keys: job ids and sequence numbers big-endian so LMDB's byte order is numeric order.
std::array<uint8_t, 8> seq_key(uint64_t seq);
uint64_t seq_from_key(Bytes key);
std::array<uint8_t, 4> job_key(uint32_t id);
uint32_t job_from_key(Bytes key);
inline constexpr uint32_t kNextStepKey = 0xffffffffu;
std::array<uint8_t, 8> step_key(uint32_t job, uint32_t step);
inline Bytes as_bytes(std::string_view s) {
    return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

// meta helpers
uint64_t get_meta_u64(const Store &s, std::string_view name, uint64_t dflt);
void put_meta_u64(Store::Txn &t, std::string_view name, uint64_t v);

} // namespace drover::state
