// acct_recorder.hpp - how a record reaches the accounting store without ever being lost: it is
// spooled in the state store (Table::AcctSpool) within the commit of the change it records, and
// handed to the accounting thread (AcctQueue) only once that commit is durable; once the store has
// it, it leaves the spool. At start, what a previous run spooled and did not deliver goes first.
// Jobs, steps and node events share the spool and its order.
#pragma once

#include <cstdint>

#include "ctld/acct/acct_records.hpp"

namespace drover::state {
class Store;
}

namespace drover::ctld {

class AcctQueue;
class Committer;

class AcctRecorder {
  public:
    AcctRecorder(Committer &commit, state::Store &store, AcctQueue &queue)
        : commit_(commit), store_(store), queue_(queue) {}

    // Spools rec under event (DROVER_ACCT_JOB_*, DROVER_ACCT_STEP_START/_END, kAcctNodeEventCode)
    // in the current batch.
    void record(int event, AcctPayload rec);
    // The accounting thread stored the record spooled under seq: drop it from the spool.
    void delivered(uint64_t seq);
    // Hands the records a previous run spooled but did not deliver to the accounting thread; call
    // before recording anything new.
    void recover();

  private:
    Committer &commit_;
    state::Store &store_;
    AcctQueue &queue_;
    uint64_t seq_ = 0; // the last sequence number spooled
};

} // namespace drover::ctld
