// repl_replica.hpp - a standby controller's copy of the active controller's store: it asks for
// the transactions it lacks and applies each reply, one LMDB transaction per reply. A table copy
// (sent in pages when the standby is too far behind or holds a different history) is applied in
// one transaction that commits with its last page, so the store never holds half a copy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "proto/message_generated.h"
#include "state/store.hpp"

namespace drover::ctld {

class ReplReplica {
  public:
    explicit ReplReplica(state::Store &store);

    // The next ReplPullRequest message for standby name.
    std::vector<uint8_t> pull_request(const std::string &name, uint32_t wait_ms) const;

    // Applies a reply. Throws std::runtime_error (and applies nothing) for one that does not
    // follow what this replica holds.
    void apply(const proto::ReplPullResponse &r);

    // Whether the last reply left this replica holding everything the active controller had.
    bool caught_up() const { return !snap_ && seq_ >= head_; }
    // Forgets a table copy in progress (its source went away).
    void abandon_copy() { snap_.reset(); }

    uint64_t seq() const { return seq_; }
    uint64_t head() const { return head_; }
    uint64_t active_epoch() const { return active_epoch_; }

  private:
    struct Copy {
        uint64_t seq, epoch;
        uint8_t next_table = 0;
        std::vector<uint8_t> next_key;
        state::Store::Txn txn;
        std::size_t records = 0;
    };
    state::Store &store_;
    uint64_t seq_, epoch_; // the last transaction held, and its epoch
    uint64_t head_ = 0, active_epoch_ = 0;
    std::optional<Copy> snap_;
};

} // namespace drover::ctld
