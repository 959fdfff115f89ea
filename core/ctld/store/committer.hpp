// committer.hpp - groups the controller's state changes into one LMDB transaction per turn of the
// event loop, and runs what must wait for durability (replies, launches) only after it commits
// and, while a backup controller is attached, after the backup holds it too.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "state/store.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::ctld {

// Who hears of each committed transaction: the replication source of an active controller.
class CommitListener {
  public:
    virtual ~CommitListener() = default;
    // The transaction seq (made in epoch) committed with these changes.
    virtual void committed(uint64_t seq, uint64_t epoch, std::vector<state::Change> changes) = 0;
    // Whether what waits on a commit must also wait until a replica acknowledges it.
    virtual bool must_wait() const = 0;
};

class Committer {
  public:
    // Continues the store's transaction sequence (meta "repl_seq").
    Committer(boost::asio::io_context &io, state::Store &store);

    // The open batch transaction; opening one schedules its commit after the handlers already
    // queued on the loop have run (so a burst of submissions shares one commit).
    state::Store::Txn &txn();

    // Runs fn once the current batch is durable (at once when nothing is open or unacknowledged).
    void after_commit(std::function<void()> fn);

    // Commits now. A failed commit is fatal: the controller must not tell anyone about a change
    // it could not keep, so it exits and a restart recovers the last committed state.
    void flush();

    // Whether the store has room for a new record of about this many bytes (a submission) on top
    // of what the open batch holds, while keeping a reserve (an eighth of the map, at least
    // 64 KiB) for the changes jobs already accepted still make: starting, ending, accounting.
    // Refusing new records before the map is full keeps a full store from failing a commit,
    // which would stop the controller.
    bool room_for(uint64_t bytes) const;

    // The controller generation stamped on each transaction (meta "repl_epoch").
    void set_epoch(uint64_t epoch) { epoch_ = epoch; }
    void set_listener(CommitListener *l) { listener_ = l; }
    // A replica holds every transaction up to seq: what waited on them runs now.
    void released(uint64_t seq);
    // No replica is attached any more: everything waiting runs now.
    void release_all() { released(UINT64_MAX); }

    // Handing control over: from now on open transactions are dropped, not committed, so that
    // nothing changes after the last transaction the next controller was given.
    void freeze() { frozen_ = true; }

    uint64_t commits() const { return commits_; }
    // How long the store's commits took (the metrics' commit latency), in microseconds.
    struct Timing {
        uint64_t sum_usec = 0, last_usec = 0, max_usec = 0;
    };
    const Timing &timing() const { return timing_; }
    uint64_t seq() const { return seq_; }
    uint64_t epoch() const { return epoch_; }

  private:
    struct Waiting {
        uint64_t seq;
        std::vector<std::function<void()>> fns;
    };
    boost::asio::io_context &io_;
    state::Store &store_;
    std::optional<state::Store::Txn> txn_;
    std::vector<state::Change> changes_;
    std::vector<std::function<void()>> after_;
    std::deque<Waiting> waiting_; // committed, not yet acknowledged by the replica
    CommitListener *listener_ = nullptr;
    uint64_t commits_ = 0;
    Timing timing_;
    uint64_t seq_ = 0, epoch_ = 0;
    bool frozen_ = false;
};

// Meta keys of the transaction sequence, shared with replicas.
inline constexpr const char *kMetaReplSeq = "repl_seq";
inline constexpr const char *kMetaReplEpoch = "repl_epoch";
// The highest controller generation this store has seen.
inline constexpr const char *kMetaEpoch = "epoch";

} // namespace drover::ctld
