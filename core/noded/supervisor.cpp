// supervisor.cpp - fork held, contain, keep, let go.
#include "noded/supervisor.hpp"

#include <csignal>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

#include <drover/plugin.h>

#include "noded/fork_child.hpp"
#include "noded/shepherd_codec.hpp"

namespace drover::noded {

namespace {

// What the forked child keeps open through its exec: the descriptors spec names (droverd's
// listening sockets, and its ends of the tasks' pipes, which would keep their input from ever
// ending, must go), and the spec itself (spec_fd). Sorted, so the child closes the gaps between.
std::vector<int> fds_to_keep(const ShepherdSpec &spec, int spec_fd) {
    std::vector<int> keep{spec.status_fd, spec.record_fd, spec.pty_fd, spec_fd};
    keep.insert(keep.end(), spec.drain_fds.begin(), spec.drain_fds.end());
    for (const auto &t : spec.tasks)
        for (int fd : {t.in_fd, t.out_fd, t.err_fd, t.pmi_fd}) keep.push_back(fd);
    std::erase_if(keep, [](int fd) { return fd < 3; });
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    return keep;
}

// In the forked child: system calls only (no allocation, see shepherd_codec.hpp).
void keep_only(const std::vector<int> &keep) {
    unsigned from = 3;
    for (int fd : keep) {
        ::fcntl(fd, F_SETFD, 0);
        if (unsigned(fd) > from) ::close_range(from, unsigned(fd) - 1, 0);
        from = unsigned(fd) + 1;
    }
    ::close_range(from, ~0u, 0);
}

// The spec in a memory file, read from its start by `droverd --shepherd FD`; -1 if it cannot be
// made.
int spec_file(const ShepherdSpec &spec) {
    int fd = ::memfd_create("drover-shepherd-spec", MFD_CLOEXEC);
    if (fd < 0) return -1;
    std::string bytes = encode_shepherd_spec(spec);
    std::size_t done = 0;
    while (done < bytes.size()) {
        ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            ::close(fd);
            return -1;
        }
        done += std::size_t(n);
    }
    ::lseek(fd, 0, SEEK_SET);
    return fd;
}

} // namespace

std::string program_beside_daemon(const char *name) {
    // The daemon's directory does not change while it runs: read once, not for every step.
    static const std::string dir = [] {
        char self[PATH_MAX];
        ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) return std::string();
        std::string path(self, std::size_t(n));
        return path.substr(0, path.rfind('/') + 1);
    }();
    return dir + name;
}

Status start_supervisor(const ShepherdSpec &spec, const Containers &containers,
                        const StepLimits &limits, const std::string &label, Reaper &reaper,
                        const KeepSupervisor &keep, Supervised *out) {
    int spec_fd = spec_file(spec);
    if (spec_fd < 0) return {DROVER_EIO, std::string("memfd_create: ") + std::strerror(errno)};
    const std::vector<int> open_fds = fds_to_keep(spec, spec_fd);
    // Named as the shepherd will name itself (prctl), for ps in the moment before it does.
    std::string name = spec.batch ? "drover_keeper" : "drover_shepherd";
    std::string fd_arg = std::to_string(spec_fd),
                program = program_beside_daemon("drover-shepherd");
    char *argv[] = {name.data(), fd_arg.data(), nullptr};
    HeldChild child = fork_held();
    pid_t pid = child.pid;
    int fork_errno = errno;
    if (pid == 0) {
        keep_only(open_fds);
        ::execve(program.c_str(), argv, environ);
        ::_exit(127);
    }
    ::close(spec_fd);
    if (pid < 0) return {DROVER_EIO, std::string("fork failed: ") + std::strerror(fork_errno)};
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
