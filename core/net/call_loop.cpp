// call_loop.cpp - an io_context kept running on its own thread until destroyed.
#include "net/call_loop.hpp"

#include <thread>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

namespace drover::net {

struct CallLoop::Impl {
    boost::asio::io_context io{1};
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{
        io.get_executor()};
    std::thread thread{[this] { io.run(); }};
};

CallLoop::CallLoop() : impl_(std::make_unique<Impl>()) {}

CallLoop::~CallLoop() {
    impl_->work.reset();
    impl_->io.stop();
    impl_->thread.join();
}

boost::asio::io_context &CallLoop::io() {
    return impl_->io;
}

} // namespace drover::net
