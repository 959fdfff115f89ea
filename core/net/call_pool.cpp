// call_pool.cpp - worker threads for blocking calls; results are posted back to the loop.
#include "net/call_pool.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace drover::net {

CallPool::CallPool(boost::asio::io_context &io, unsigned threads) : io_(io) {
    for (unsigned i = 0; i < threads; ++i) threads_.emplace_back([this] { worker(); });
}

CallPool::~CallPool() {
    {
        std::lock_guard lk(mu_);
        stopping_ = true;
    }
    cv_.notify_all();
    for (auto &t : threads_) t.join();
}

void CallPool::worker() {
    for (;;) {
        std::function<void()> job;
        {
            std::unique_lock lk(mu_);
            cv_.wait(lk, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        job();
    }
}

void CallPool::run(std::function<void()> work, std::function<void()> done) {
    {
        std::lock_guard lk(mu_);
        queue_.push_back([this, work = std::move(work), done = std::move(done)] {
            work();
            if (done) boost::asio::post(io_, done);
        });
    }
    cv_.notify_one();
}

void CallPool::call(std::string host, uint16_t port, std::string to, std::vector<uint8_t> message,
                    Signer sign, int timeout_ms, Done done) {
    auto reply = std::make_shared<Reply>();
    auto error = std::make_shared<std::string>();
    run(
        [=, to = std::move(to), message = std::move(message), sign = std::move(sign)] {
            try {
                *reply = net::call(host, port, to, message, sign, timeout_ms);
            } catch (const std::exception &e) {
                *error = e.what();
                if (error->empty()) *error = "call failed";
            }
        },
        [reply, error, done = std::move(done)] { done(*error, error->empty() ? reply : nullptr); });
}

} // namespace drover::net
