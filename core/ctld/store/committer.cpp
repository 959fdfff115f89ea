// committer.cpp - batched commits on the controller's loop.
#include "ctld/store/committer.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <spdlog/spdlog.h>

namespace drover::ctld {

Committer::Committer(boost::asio::io_context &io, state::Store &store)
    : io_(io), store_(store), seq_(state::get_meta_u64(store, kMetaReplSeq, 0)),
      epoch_(state::get_meta_u64(store, kMetaReplEpoch, 0)) {}

state::Store::Txn &Committer::txn() {
    if (!txn_) {
        txn_.emplace(store_.begin());
        if (listener_) txn_->record_into(&changes_);
        boost::asio::post(io_, [this] { flush(); });
    }
    return *txn_;
}

void Committer::after_commit(std::function<void()> fn) {
    if (txn_) return after_.push_back(std::move(fn));
    // Nothing open, but the change fn reports may sit in a transaction the replica lacks.
    if (!waiting_.empty()) return waiting_.back().fns.push_back(std::move(fn));
    fn();
}

void Committer::flush() {
    if (frozen_) {
        if (txn_) spdlog::warn("a change made while handing over control was dropped");
        txn_.reset();
        changes_.clear();
        after_.clear();
        return;
    }
    if (txn_) {
        try {
            state::put_meta_u64(*txn_, kMetaReplSeq, seq_ + 1);
            state::put_meta_u64(*txn_, kMetaReplEpoch, epoch_);
            const auto start = std::chrono::steady_clock::now();
            txn_->commit();
            const auto usec = uint64_t(std::chrono::duration_cast<std::chrono::microseconds>(
                                           std::chrono::steady_clock::now() - start)
                                           .count());
            timing_.sum_usec += usec;
            timing_.last_usec = usec;
            timing_.max_usec = std::max(timing_.max_usec, usec);
        } catch (const std::exception &e) {
            spdlog::critical("cannot commit state to {}: {}; exiting so that a restart recovers "
                             "the last committed state",
                             store_.dir(), e.what());
            std::_Exit(1);
        }
        txn_.reset();
        ++commits_;
        ++seq_;
        if (listener_) {
            auto changes = std::move(changes_);
            changes_.clear();
            listener_->committed(seq_, epoch_, std::move(changes));
            if (listener_->must_wait()) {
                waiting_.push_back({seq_, std::move(after_)});
                after_.clear();
                return;
            }
        }
    }
    auto run = std::move(after_);
    after_.clear();
    for (auto &fn : run) fn();
}

bool Committer::room_for(uint64_t bytes) const {
    // A record costs about its size again in B-tree pages copied on write (and a large one whole
    // overflow pages); the batch's earlier puts are not in the store's figures yet.
    uint64_t pending = txn_ ? txn_->bytes_put() : 0;
    state::Store::Space s = store_.space(false);
    uint64_t reserve = std::max<uint64_t>(s.map_bytes / 8, uint64_t{64} << 10);
    uint64_t need = 2 * (bytes + pending) + 4 * s.page_bytes + reserve;
    if (s.free_bytes >= need) return true;
    return store_.space(true).free_bytes >= need;
}

void Committer::released(uint64_t seq) {
    while (!waiting_.empty() && waiting_.front().seq <= seq) {
        auto fns = std::move(waiting_.front().fns);
        waiting_.pop_front();
        for (auto &fn : fns) fn();
    }
}

} // namespace drover::ctld
