// committer.hpp - groups the controller's state changes into one LMDB transaction per turn of the
// event loop, and runs what must wait for durability (replies, launches) only after it commits.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "state/store.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::ctld {

class Committer {
  public:
    Committer(boost::asio::io_context &io, state::Store &store) : io_(io), store_(store) {}

    // The open batch transaction; opening one schedules its commit after the handlers already
    // queued on the loop have run (so a burst of submissions shares one commit).
    state::Store::Txn &txn();

    // Runs fn once the current batch is durable (at once when nothing is open).
    void after_commit(std::function<void()> fn);

    // Commits now. A failed commit is fatal: the controller must not tell anyone about a change
    // it could not keep, so it exits and a restart recovers the last committed state.
    void flush();

    uint64_t commits() const { return commits_; }

  private:
    boost::asio::io_context &io_;
    state::Store &store_;
    std::optional<state::Store::Txn> txn_;
    std::vector<std::function<void()>> after_;
    uint64_t commits_ = 0;
};

}  // namespace drover::ctld
