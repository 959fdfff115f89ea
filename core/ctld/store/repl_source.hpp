// repl_source.hpp - the active controller's side of replication: it keeps the transactions it
// committed since it took control, answers standby controllers' pulls with the ones they lack (or
// with pages of a full table copy when they are too far behind or hold a different history), and
// tells the Committer when an attached standby holds a transaction, so that clients hear of a
// change only once the backup has it.
//
// A standby is attached while it keeps pulling; one that has not acknowledged a transaction
// within kDetachMs is detached (the controller goes on without it, and logs so) until it is
// caught up again.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ctld/store/committer.hpp"
#include "net/server.hpp"

namespace drover::ctld {

class ReplSource : public CommitListener {
  public:
    static constexpr int kDetachMs = 2000;

    // head_seq/head_epoch: the last transaction in the store when control was taken.
    ReplSource(boost::asio::io_context &io, const state::Store &store, Committer &commit);
    ~ReplSource() override;

    void committed(uint64_t seq, uint64_t epoch, std::vector<state::Change> changes) override;
    bool must_wait() const override;

    // A ReplPullRequest from a standby (its sender was checked to be an administrator).
    void on_pull(const proto::ReplPullRequest &req, const net::ResponderPtr &resp);

    // Runs fn once standby name holds every committed transaction (at once when it does), or
    // with false after timeout_ms.
    void when_caught_up(const std::string &name, int timeout_ms, std::function<void(bool)> fn);

    // Each standby heard from: the last transaction it holds, and whether the controller waits
    // for it (attached) before a change is acknowledged.
    struct StandbyState {
        std::string name;
        uint64_t acked = 0;
        bool attached = false;
    };
    std::vector<StandbyState> standby_states() const;

    // "name (seq N)" for each standby heard from recently, for logs and scontrol.
    std::vector<std::string> standbys() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace drover::ctld
