// repl_replica.cpp - applying the active controller's transactions and table copies.
#include "ctld/store/repl_replica.hpp"

#include <spdlog/spdlog.h>
#include <stdexcept>

#include "ctld/store/committer.hpp"
#include "ctld/store/repl_codec.hpp"

namespace drover::ctld {

ReplReplica::ReplReplica(state::Store &store)
    : store_(store), seq_(state::get_meta_u64(store, kMetaReplSeq, 0)),
      epoch_(state::get_meta_u64(store, kMetaReplEpoch, 0)) {}

std::vector<uint8_t> ReplReplica::pull_request(const std::string &name, uint32_t wait_ms) const {
    flatbuffers::FlatBufferBuilder fbb(256);
    auto n = fbb.CreateString(name);
    auto k = snap_ ? fbb.CreateVector(snap_->next_key) : 0;
    proto::ReplPullRequestBuilder b(fbb);
    b.add_name(n);
    b.add_have_seq(seq_);
    b.add_have_epoch(epoch_);
    b.add_wait_ms(wait_ms);
    if (snap_) {
        b.add_snap_seq(snap_->seq);
        b.add_snap_table(snap_->next_table);
        b.add_snap_key(k);
    }
    fbb.Finish(proto::CreateMessage(fbb, proto::Body::ReplPullRequest, b.Finish().Union()));
    return {fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize()};
}

void ReplReplica::apply(const proto::ReplPullResponse &r) {
    if (r.snapshot()) {
        if (r.snap_seq() == 0)
            throw std::runtime_error("table copy without a starting transaction");
        auto page = decode_changes(r.page());
        bool first = !snap_ || snap_->seq != r.snap_seq();
        if (first) {
            snap_.reset();
            snap_.emplace(Copy{r.snap_seq(), r.snap_epoch(), 0, {}, store_.begin(), 0});
            for (int t = 0; t < state::kTableCount; ++t) snap_->txn.clear(state::Table(t));
        }
        for (const auto &c : page) snap_->txn.apply(c);
        snap_->records += page.size();
        if (r.last_page()) {
            state::put_meta_u64(snap_->txn, kMetaReplSeq, snap_->seq);
            state::put_meta_u64(snap_->txn, kMetaReplEpoch, snap_->epoch);
            snap_->txn.commit();
            spdlog::info(
                "copied the tables of the controller in control ({} records) at its transaction {}",
                snap_->records, snap_->seq);
            seq_ = snap_->seq;
            epoch_ = snap_->epoch;
            snap_.reset();
        } else {
            snap_->next_table = r.next_table();
            snap_->next_key.clear();
            if (r.next_key()) snap_->next_key.assign(r.next_key()->begin(), r.next_key()->end());
        }
    } else if (r.batches() && r.batches()->size() > 0) {
        if (snap_) throw std::runtime_error("transactions in the middle of a table copy");
        auto txn = store_.begin();
        uint64_t seq = seq_, epoch = epoch_;
        for (const auto *b : *r.batches()) {
            if (b->seq() != seq + 1)
                throw std::runtime_error("transaction " + std::to_string(b->seq()) +
                                         " does not follow " + std::to_string(seq));
            for (const auto &c : decode_changes(b->changes())) txn.apply(c);
            seq = b->seq();
            epoch = b->epoch();
        }
        txn.commit();
        seq_ = seq;
        epoch_ = epoch;
    }
    head_ = r.head_seq();
    active_epoch_ = r.epoch();
}

} // namespace drover::ctld
