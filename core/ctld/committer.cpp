// committer.cpp - batched commits on the controller's loop.
#include "ctld/committer.hpp"

#include <utility>  // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <cstdlib>
#include <spdlog/spdlog.h>

namespace drover::ctld {

state::Store::Txn &Committer::txn() {
    if (!txn_) {
        txn_.emplace(store_.begin());
        boost::asio::post(io_, [this] { flush(); });
    }
    return *txn_;
}

void Committer::after_commit(std::function<void()> fn) {
    if (!txn_) return fn();
    after_.push_back(std::move(fn));
}

void Committer::flush() {
    if (txn_) {
        try {
            txn_->commit();
        } catch (const std::exception &e) {
            spdlog::critical("cannot commit state to {}: {}; exiting so that a restart recovers "
                             "the last committed state",
                             store_.dir(), e.what());
            std::_Exit(1);
        }
        txn_.reset();
        ++commits_;
    }
    auto run = std::move(after_);
    after_.clear();
    for (auto &fn : run) fn();
}

}  // namespace drover::ctld
