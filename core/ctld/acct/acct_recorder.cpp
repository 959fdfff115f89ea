// acct_recorder.cpp - accounting records through the durable spool.
#include "ctld/acct/acct_recorder.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "ctld/acct/acct_queue.hpp"
#include "ctld/store/committer.hpp"
#include "state/store.hpp"

namespace drover::ctld {

void AcctRecorder::record(int event, AcctPayload rec) {
    uint64_t seq = ++seq_;
    auto key = state::seq_key(seq);
    commit_.txn().put(state::Table::AcctSpool, key, encode_acct(event, rec));
    // Only once the batch is durable: the store must never hold a record of a change that a
    // crash could still undo.
    commit_.after_commit([this, seq, event, rec = std::move(rec)]() mutable {
        queue_.record(seq, event, std::move(rec));
    });
}

void AcctRecorder::delivered(uint64_t seq) {
    auto key = state::seq_key(seq);
    commit_.txn().del(state::Table::AcctSpool, key);
}

void AcctRecorder::recover() {
    std::size_t n = 0;
    store_.scan(state::Table::AcctSpool, [&](state::Bytes key, state::Bytes value) {
        uint64_t seq = state::seq_from_key(key);
        seq_ = std::max(seq_, seq);
        int event = 0;
        AcctPayload rec;
        if (!decode_acct(value.data(), value.size(), &event, &rec)) {
            spdlog::error("skipping damaged spooled accounting record {}", seq);
            return;
        }
        queue_.record(seq, event, std::move(rec));
        ++n;
    });
    if (n) spdlog::info("{} accounting records from before the restart are being delivered", n);
}

} // namespace drover::ctld
