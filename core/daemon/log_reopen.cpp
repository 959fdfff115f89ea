// log_reopen.cpp - SIGHUP and SIGUSR2 noted for the process's life; SIGUSR2 opens the log again.
#include "daemon/log_reopen.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <atomic>
#include <chrono>
#include <csignal>
#include <spdlog/spdlog.h>

#include "daemon/log_sink.hpp"

namespace drover::daemon {

namespace {

// How many times each came (a lock-free atomic is safe to touch in a signal handler).
std::atomic<unsigned> g_hups{0}, g_usr2s{0};
// How many each watcher of a signal has handled, shared by the watchers that come and go.
std::atomic<unsigned> g_hups_seen{0}, g_usr2s_seen{0};

void note(int sig) {
    (sig == SIGHUP ? g_hups : g_usr2s).fetch_add(1, std::memory_order_relaxed);
}

} // namespace

void catch_hup_and_usr2() {
    struct sigaction sa {};
    sa.sa_handler = note;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGHUP, &sa, nullptr);
    ::sigaction(SIGUSR2, &sa, nullptr);
}

void reopen_log() {
    if (auto sink = log_file_sink()) {
        sink->reopen();
        spdlog::info("SIGUSR2: log file {} opened again", sink->path());
    }
}

struct SignalWatch::Impl {
    Impl(boost::asio::io_context &io, int sig, std::function<void()> f)
        : timer(io), came(sig == SIGHUP ? g_hups : g_usr2s),
          seen(sig == SIGHUP ? g_hups_seen : g_usr2s_seen), fn(std::move(f)) {
        arm();
    }
    void arm() {
        timer.expires_after(std::chrono::milliseconds(250));
        timer.async_wait([this](boost::system::error_code ec) {
            if (ec) return;
            const unsigned now = came.load(std::memory_order_relaxed);
            if (seen.exchange(now) != now) fn(); // several while we slept: handled once
            arm();
        });
    }
    boost::asio::steady_timer timer;
    std::atomic<unsigned> &came, &seen;
    std::function<void()> fn;
};

SignalWatch::SignalWatch(boost::asio::io_context &io, int sig, std::function<void()> fn)
    : impl_(std::make_unique<Impl>(io, sig, std::move(fn))) {}
SignalWatch::~SignalWatch() = default;

LogReopener::LogReopener(boost::asio::io_context &io) : watch_(io, SIGUSR2, reopen_log) {}

} // namespace drover::daemon
