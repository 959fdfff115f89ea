// reaper.cpp - waits for registered children on SIGCHLD.
#include "noded/reaper.hpp"

#include <utility> // before Asio: Boost 1.74's awaitable.hpp needs std::exchange
#include <boost/asio.hpp>
#include <csignal>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/wait.h>

#include <memory>
#include <unordered_map>

namespace asio = boost::asio;

namespace drover::noded {

struct Reaper::Impl {
    explicit Impl(asio::io_context &i) : io(i), sigchld(i, SIGCHLD) {}
    asio::io_context &io;
    asio::signal_set sigchld;
    std::unordered_map<int32_t, Exited> watched;

    void arm() {
        sigchld.async_wait([this](boost::system::error_code ec, int) {
            if (ec) return;
            reap();
            arm();
        });
    }
    // Only registered pids are waited for: a pid forked elsewhere (Epilog, which its runner waits
    // for itself) is left to its owner. The exited child is peeked at first (WNOWAIT) so the
    // common case costs one call per child; an unregistered one falls back to asking each pid.
    void reap() {
        for (;;) {
            siginfo_t info{};
            if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0 || info.si_pid == 0)
                return;
            if (!watched.count(info.si_pid)) return scan();
            finish(info.si_pid);
        }
    }
    void scan() {
        std::vector<int32_t> pids;
        pids.reserve(watched.size());
        for (const auto &[pid, fn] : watched) pids.push_back(pid);
        for (int32_t pid : pids) finish(pid);
    }
    void finish(int32_t pid) {
        int status = 0;
        struct rusage ru {};
        if (::wait4(pid, &status, WNOHANG, &ru) != pid) return;
        auto it = watched.find(pid);
        Exited fn = std::move(it->second);
        watched.erase(it);
        fn(status, ru);
    }
};

Reaper::Reaper(asio::io_context &io) : impl_(std::make_unique<Impl>(io)) {
    impl_->arm();
}
Reaper::~Reaper() = default;

void Reaper::watch_adopted(int32_t pid, Exited exited) {
    auto &io = impl_->io;
    // (glibc 2.36 declares pidfd_open without C linkage in C++; the system call is the same.)
    int fd = int(::syscall(SYS_pidfd_open, pid, 0));
    if (fd < 0) {
        asio::post(io, [exited = std::move(exited)] { exited(-1, rusage{}); });
        return;
    }
    // A pidfd turns readable when its process exits.
    auto d = std::make_shared<asio::posix::stream_descriptor>(io, fd);
    d->async_wait(
        asio::posix::stream_descriptor::wait_read,
        [d, exited = std::move(exited)](boost::system::error_code) { exited(-1, rusage{}); });
}

void Reaper::watch(int32_t pid, Exited exited) {
    impl_->watched[pid] = std::move(exited);
    // It may have exited before it was registered: look now rather than wait for another signal.
    asio::post(impl_->sigchld.get_executor(), [impl = impl_.get()] { impl->reap(); });
}

} // namespace drover::noded
