// supervisor.cpp - fork held, contain, keep, let go.
#include "noded/supervisor.hpp"

#include <csignal>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include <drover/plugin.h>

#include "noded/fork_child.hpp"

namespace drover::noded {

namespace {

// In the supervisor: nothing of the daemon's stays open (its listening sockets, and our ends of
// the tasks' pipes, which would keep their input from ever ending); the descriptors spec names
// stay, and the tasks' ends must survive their exec.
void keep_only_spec_fds(const ShepherdSpec &spec) {
    std::vector<int> keep{spec.status_fd, spec.record_fd};
    keep.insert(keep.end(), spec.drain_fds.begin(), spec.drain_fds.end());
    for (const auto &t : spec.tasks)
        for (int fd : {t.in_fd, t.out_fd, t.err_fd, t.pmi_fd})
            if (fd >= 0) {
                ::fcntl(fd, F_SETFD, 0);
                keep.push_back(fd);
            }
    std::sort(keep.begin(), keep.end());
    int from = 3;
    for (int fd : keep) {
        if (fd < 0) continue;
        if (fd > from) ::close_range(unsigned(from), unsigned(fd - 1), 0);
        from = std::max(from, fd + 1);
    }
    ::close_range(unsigned(from), ~0u, 0);
}

} // namespace

Status start_supervisor(const ShepherdSpec &spec, const Containers &containers,
                        const StepLimits &limits, const std::string &label, Reaper &reaper,
                        const KeepSupervisor &keep, Supervised *out) {
    HeldChild child = fork_held();
    pid_t pid = child.pid;
    if (pid < 0) return {DROVER_EIO, std::string("fork failed: ") + std::strerror(errno)};
    if (pid == 0) {
        keep_only_spec_fds(spec);
        run_shepherd(spec);
    }
    // Given up: the held child exits without running anything, and is reaped.
    auto give_up = [&](Status why) {
        release(child, false);
        reaper.watch(pid, [](int, const struct rusage &) {});
        return why;
    };
    Supervised s{pid, 0};
    if (Status why = containers.create(spec.job_id, spec.step_id, pid, limits, label, &s.cont);
        !why.ok())
        return give_up(why);
    if (Status why = keep(s); !why.ok()) return give_up(why);
    release(child, true);
    *out = s;
    return {};
}

std::unique_ptr<boost::asio::steady_timer>
terminate_container(boost::asio::io_context &io, const Containers &containers, drover_cont_id cont,
                    int kill_wait_s, std::function<bool()> over, std::function<void()> killed) {
    containers.signal(cont, SIGCONT);
    containers.signal(cont, SIGTERM);
    auto timer = std::make_unique<boost::asio::steady_timer>(io, std::chrono::seconds(kill_wait_s));
    timer->async_wait([&containers, cont, over = std::move(over),
                       killed = std::move(killed)](boost::system::error_code ec) {
        if (ec || over()) return;
        containers.signal(cont, SIGKILL);
        if (killed) killed();
    });
    return timer;
}

} // namespace drover::noded
