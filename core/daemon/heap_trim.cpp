// heap_trim.cpp - malloc_trim on a timer.
#include "daemon/heap_trim.hpp"

#include <malloc.h>

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace drover::daemon {

void trim_heap() {
    ::malloc_trim(0);
}

struct HeapTrimmer::Impl : std::enable_shared_from_this<Impl> {
    Impl(boost::asio::io_context &io, std::chrono::milliseconds period)
        : timer(io), period(period) {}
    void arm() {
        timer.expires_after(period);
        timer.async_wait([self = weak_from_this()](boost::system::error_code ec) {
            auto me = self.lock();
            if (ec || !me) return;
            trim_heap();
            me->arm();
        });
    }
    boost::asio::steady_timer timer;
    std::chrono::milliseconds period;
};

HeapTrimmer::HeapTrimmer(boost::asio::io_context &io, std::chrono::milliseconds period)
    : impl_(std::make_shared<Impl>(io, period)) {
    trim_heap();
    impl_->arm();
}

HeapTrimmer::~HeapTrimmer() {
    impl_->timer.cancel();
}

} // namespace drover::daemon
