// call_pool.hpp - runs blocking outbound calls on worker threads and hands each result back to
// the daemon's event loop, so the loop that owns state never waits on the network.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "net/client.hpp"

namespace boost::asio {
class io_context;
}

namespace drover::net {

class CallPool {
  public:
    CallPool(boost::asio::io_context &io, unsigned threads);
    ~CallPool(); // finishes queued work, then joins
    CallPool(const CallPool &) = delete;
    CallPool &operator=(const CallPool &) = delete;

    // error is empty on success; reply is then set.
    using Done = std::function<void(const std::string &error, std::shared_ptr<Reply> reply)>;

    // Runs net::call(host, port, to, message, sign, timeout_ms) on a worker; done runs on the loop.
    void call(std::string host, uint16_t port, std::string to, std::vector<uint8_t> message,
              Signer sign, int timeout_ms, Done done);

    // Runs work on a worker, then done (if set) on the loop.
    void run(std::function<void()> work, std::function<void()> done = {});

  private:
    void worker();
    boost::asio::io_context &io_;
    std::mutex mu_;
    std::condition_variable cv_;
    std::deque<std::function<void()>> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

} // namespace drover::net
